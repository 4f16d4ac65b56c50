from django.contrib import admin

from ranking.models import RankingResult, RankingRun


class RankingResultInline(admin.TabularInline):
    model = RankingResult
    extra = 0
    fields = ("system", "value", "spread", "rank_lo", "rank_hi", "cluster", "comparisons")
    readonly_fields = fields
    can_delete = False


@admin.register(RankingRun)
class RankingRunAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "campaign",
        "criterion",
        "method",
        "runs",
        "seed",
        "status",
        "runs_done",
        "attempts",
        "heartbeat_at",
        "n_judgements",
        "seconds",
        "created_at",
    )
    list_filter = ("method", "status", "campaign")
    search_fields = ("campaign__slug", "criterion__name", "fingerprint")
    readonly_fields = ("fingerprint", "created_at", "started_at", "finished_at", "seconds")
    autocomplete_fields = ("campaign", "criterion", "created_by")
    inlines = (RankingResultInline,)
