from django.contrib import admin

from reports.models import Datasheet, MetricScore


@admin.register(MetricScore)
class MetricScoreAdmin(admin.ModelAdmin):
    list_display = ("metric", "campaign", "system", "output", "score")
    list_select_related = ("campaign", "system", "output")
    search_fields = ("metric", "campaign__slug", "system__label")
    autocomplete_fields = ("campaign", "system")
    raw_id_fields = ("output",)


@admin.register(Datasheet)
class DatasheetAdmin(admin.ModelAdmin):
    list_display = ("campaign", "updated_at", "updated_by")
    list_select_related = ("campaign", "updated_by")
    autocomplete_fields = ("campaign", "updated_by")
