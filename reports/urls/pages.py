"""Report pages, under /campaigns/<slug>/ (mounted by ``humaneval.urls`` before annotations)."""

from django.urls import path

app_name = "reports"

urlpatterns: list = []
from reports.views import metrics as metrics_views  # noqa: E402

urlpatterns += [path("metrics/", metrics_views.campaign_metrics, name="metrics")]
from reports.views import datasheet as datasheet_views  # noqa: E402

urlpatterns += [path("datasheet/", datasheet_views.datasheet_page, name="datasheet"), path("datasheet/<str:fmt>/", datasheet_views.datasheet_download, name="datasheet-download")]  # fmt: skip
