"""REST API routes of ranking, under /api/ (mounted by ``humaneval.urls``)."""

from django.urls import path

from ranking.apis import adaptive as apis_adaptive
from ranking.apis import means as apis_means
from ranking.apis import power as apis_power
from ranking.apis import runs as apis

urlpatterns = [
    path(
        "campaigns/<slug:slug>/rankings/",
        apis.CampaignRankingRunsApi.as_view(),
        name="api-campaign-rankings",
    ),
    path(
        "campaigns/<slug:slug>/rankings/slices/",
        apis.CampaignRankingSlicesApi.as_view(),
        name="api-campaign-ranking-slices",
    ),
    path(
        "campaigns/<slug:slug>/adaptive/",
        apis_adaptive.AdaptiveApi.as_view(),
        name="api-campaign-adaptive",
    ),
    path(
        "campaigns/<slug:slug>/means/",
        apis_means.MeansApi.as_view(),
        name="api-campaign-means",
    ),
    path(
        "campaigns/<slug:slug>/power/",
        apis_power.PowerApi.as_view(),
        name="api-campaign-power",
    ),
    path("rankings/<int:pk>/", apis.RankingRunApi.as_view(), name="api-ranking"),
    path(
        "rankings/<int:pk>/cancel/",
        apis.RankingRunCancelApi.as_view(),
        name="api-ranking-cancel",
    ),
    path(
        "rankings/<int:pk>/retry/",
        apis.RankingRunRetryApi.as_view(),
        name="api-ranking-retry",
    ),
    path(
        "rankings/<int:pk>/result/",
        apis.RankingResultApi.as_view(),
        name="api-ranking-result",
    ),
    path(
        "rankings/<int:pk>/export/<str:fmt>/",
        apis.RankingExportApi.as_view(),
        name="api-ranking-export",
    ),
]
