"""REST API routes of reports, under /api/ (mounted by ``humaneval.urls``)."""

from django.urls import path

from reports.apis import datasheet, metrics

urlpatterns = [
    path(
        "campaigns/<slug:slug>/metrics/",
        metrics.MetricCorrelationsApi.as_view(),
        name="api-metric-correlations",
    ),
    path(
        "campaigns/<slug:slug>/datasheet/",
        datasheet.CampaignDatasheetApi.as_view(),
        name="api-datasheet",
    ),
]
