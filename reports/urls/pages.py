"""Report pages, under /campaigns/<slug>/ (mounted by ``humaneval.urls`` before annotations)."""

from django.urls import path

from reports.views import datasheet, metrics

app_name = "reports"

urlpatterns = [
    path("metrics/", metrics.campaign_metrics, name="metrics"),
    path("datasheet/", datasheet.datasheet_page, name="datasheet"),
    path("datasheet/<str:fmt>/", datasheet.datasheet_download, name="datasheet-download"),
]
