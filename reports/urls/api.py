"""REST API routes of reports, under /api/ (mounted by ``humaneval.urls``)."""

from django.urls import path

urlpatterns: list = []
from reports.apis import metrics as apis_metrics  # noqa: E402

urlpatterns += [
    path(
        "campaigns/<slug:slug>/metrics/",
        apis_metrics.MetricCorrelationsApi.as_view(),
        name="api-metric-correlations",
    )
]
from reports.apis import datasheet as apis_datasheet  # noqa: E402

urlpatterns += [path("campaigns/<slug:slug>/datasheet/", apis_datasheet.CampaignDatasheetApi.as_view(), name="api-datasheet")]  # fmt: skip
