"""REST API routes of annotations, under /api/ (ranking's are in ``ranking.api_urls``; the
catch-all JSON 404 comes last, in ``humaneval.urls``)."""

from django.urls import path

from . import apis, apis_languages, apis_mapped

urlpatterns = [
    path("auth/token/", apis.TokenApi.as_view(), name="api-token"),
    path("campaigns/", apis.CampaignListApi.as_view(), name="api-campaigns"),
    path("campaigns/<slug:slug>/", apis.CampaignDetailApi.as_view(), name="api-campaign"),
    path("campaigns/<slug:slug>/criteria/", apis.CriterionListApi.as_view(), name="api-criteria"),
    path(
        "campaigns/<slug:slug>/criteria/<int:pk>/",
        apis.CriterionDetailApi.as_view(),
        name="api-criterion",
    ),
    path(
        "campaigns/<slug:slug>/languages/",
        apis_languages.CampaignLanguagesApi.as_view(),
        name="api-languages",
    ),
    path("campaigns/<slug:slug>/systems/", apis.SystemListApi.as_view(), name="api-systems"),
    path("campaigns/<slug:slug>/outputs/", apis.OutputUploadApi.as_view(), name="api-outputs"),
    path(
        "campaigns/<slug:slug>/ratings/", apis_mapped.RatingsUploadApi.as_view(), name="api-ratings"
    ),
    path(
        "campaigns/<slug:slug>/rating-mappings/",
        apis_mapped.RatingMappingListApi.as_view(),
        name="api-rating-mappings",
    ),
    path("campaigns/<slug:slug>/build/", apis.CampaignBuildApi.as_view(), name="api-build"),
    path(
        "campaigns/<slug:slug>/launch/",
        apis.CampaignActionApi.as_view(action="launch"),
        name="api-launch",
    ),
    path(
        "campaigns/<slug:slug>/pause/",
        apis.CampaignActionApi.as_view(action="pause"),
        name="api-pause",
    ),
    path(
        "campaigns/<slug:slug>/close/",
        apis.CampaignActionApi.as_view(action="close"),
        name="api-close",
    ),
    path(
        "campaigns/<slug:slug>/archive/",
        apis.CampaignActionApi.as_view(action="archive"),
        name="api-archive",
    ),
    path(
        "campaigns/<slug:slug>/unarchive/",
        apis.CampaignActionApi.as_view(action="unarchive"),
        name="api-unarchive",
    ),
    path("campaigns/<slug:slug>/clone/", apis.CampaignCloneApi.as_view(), name="api-clone"),
    path("campaigns/<slug:slug>/members/", apis.MemberListApi.as_view(), name="api-members"),
    path(
        "campaigns/<slug:slug>/members/<int:pk>/",
        apis.MemberDetailApi.as_view(),
        name="api-member",
    ),
    path("campaigns/<slug:slug>/payments/", apis.PaymentListApi.as_view(), name="api-payments"),
    path(
        "campaigns/<slug:slug>/progress/", apis.CampaignProgressApi.as_view(), name="api-progress"
    ),
    path("campaigns/<slug:slug>/experts/", apis.CampaignExpertsApi.as_view(), name="api-experts"),
    path("campaigns/<slug:slug>/workers/", apis.WorkerListApi.as_view(), name="api-workers"),
    path(
        "campaigns/<slug:slug>/workers/<int:pk>/",
        apis.WorkerDetailApi.as_view(),
        name="api-worker",
    ),
    path(
        "campaigns/<slug:slug>/judgements/",
        apis.JudgementListApi.as_view(),
        name="api-judgements",
    ),
    path("campaigns/<slug:slug>/export/", apis.ExportApi.as_view(), name="api-export"),
]
