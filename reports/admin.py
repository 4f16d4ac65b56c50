from django.contrib import admin

from .models import Datasheet, MetricScore

admin.site.register(MetricScore)
admin.site.register(Datasheet)
