"""REST API routes of ranking, under /api/ (mounted by ``humaneval.urls``)."""

from django.urls import path

from ranking.apis import adaptive, means, power, runs, slices

urlpatterns = [
    path(
        "campaigns/<slug:slug>/rankings/",
        runs.CampaignRankingRunsApi.as_view(),
        name="api-campaign-rankings",
    ),
    path(
        "campaigns/<slug:slug>/rankings/slices/",
        slices.CampaignRankingSlicesApi.as_view(),
        name="api-campaign-ranking-slices",
    ),
    path(
        "campaigns/<slug:slug>/adaptive/",
        adaptive.AdaptiveApi.as_view(),
        name="api-campaign-adaptive",
    ),
    path(
        "campaigns/<slug:slug>/means/",
        means.MeansApi.as_view(),
        name="api-campaign-means",
    ),
    path(
        "campaigns/<slug:slug>/power/",
        power.PowerApi.as_view(),
        name="api-campaign-power",
    ),
    path("rankings/<id:pk>/", runs.RankingRunApi.as_view(), name="api-ranking"),
    path(
        "rankings/<id:pk>/cancel/",
        runs.RankingRunCancelApi.as_view(),
        name="api-ranking-cancel",
    ),
    path(
        "rankings/<id:pk>/retry/",
        runs.RankingRunRetryApi.as_view(),
        name="api-ranking-retry",
    ),
    path(
        "rankings/<id:pk>/result/",
        runs.RankingResultApi.as_view(),
        name="api-ranking-result",
    ),
    path(
        "rankings/<id:pk>/export/<str:fmt>/",
        runs.RankingExportApi.as_view(),
        name="api-ranking-export",
    ),
]
