"""REST API routes of annotations, under /api/ (ranking's are in ``ranking.urls.api``; the
catch-all JSON 404 comes last, in ``humaneval.urls``)."""

from django.urls import path

from annotations.apis import (
    campaigns,
    criteria,
    experts,
    exports,
    jobs,
    judgements,
    languages,
    lifecycle,
    mapped,
    memberships,
    payments,
    tokens,
    uploads,
    workers,
)

urlpatterns = [
    path("auth/token/", tokens.TokenApi.as_view(), name="api-token"),
    path("campaigns/", campaigns.CampaignListApi.as_view(), name="api-campaigns"),
    path("campaigns/<slug:slug>/", campaigns.CampaignDetailApi.as_view(), name="api-campaign"),
    path(
        "campaigns/<slug:slug>/criteria/", criteria.CriterionListApi.as_view(), name="api-criteria"
    ),
    path(
        "campaigns/<slug:slug>/criteria/<id:pk>/",
        criteria.CriterionDetailApi.as_view(),
        name="api-criterion",
    ),
    path(
        "campaigns/<slug:slug>/languages/",
        languages.CampaignLanguagesApi.as_view(),
        name="api-languages",
    ),
    path("campaigns/<slug:slug>/systems/", uploads.SystemListApi.as_view(), name="api-systems"),
    path("campaigns/<slug:slug>/outputs/", uploads.OutputUploadApi.as_view(), name="api-outputs"),
    path("campaigns/<slug:slug>/jobs/<id:pk>/", jobs.ImportJobApi.as_view(), name="api-job"),
    path("campaigns/<slug:slug>/ratings/", mapped.RatingsUploadApi.as_view(), name="api-ratings"),
    path(
        "campaigns/<slug:slug>/rating-mappings/",
        mapped.RatingMappingListApi.as_view(),
        name="api-rating-mappings",
    ),
    path("campaigns/<slug:slug>/build/", lifecycle.CampaignBuildApi.as_view(), name="api-build"),
    path(
        "campaigns/<slug:slug>/launch/",
        lifecycle.CampaignActionApi.as_view(action="launch"),
        name="api-launch",
    ),
    path(
        "campaigns/<slug:slug>/pause/",
        lifecycle.CampaignActionApi.as_view(action="pause"),
        name="api-pause",
    ),
    path(
        "campaigns/<slug:slug>/close/",
        lifecycle.CampaignActionApi.as_view(action="close"),
        name="api-close",
    ),
    path(
        "campaigns/<slug:slug>/archive/",
        lifecycle.CampaignActionApi.as_view(action="archive"),
        name="api-archive",
    ),
    path(
        "campaigns/<slug:slug>/unarchive/",
        lifecycle.CampaignActionApi.as_view(action="unarchive"),
        name="api-unarchive",
    ),
    path("campaigns/<slug:slug>/clone/", campaigns.CampaignCloneApi.as_view(), name="api-clone"),
    path("campaigns/<slug:slug>/members/", memberships.MemberListApi.as_view(), name="api-members"),
    path(
        "campaigns/<slug:slug>/members/<id:pk>/",
        memberships.MemberDetailApi.as_view(),
        name="api-member",
    ),
    path("campaigns/<slug:slug>/payments/", payments.PaymentListApi.as_view(), name="api-payments"),
    path(
        "campaigns/<slug:slug>/progress/",
        campaigns.CampaignProgressApi.as_view(),
        name="api-progress",
    ),
    path(
        "campaigns/<slug:slug>/experts/", experts.CampaignExpertsApi.as_view(), name="api-experts"
    ),
    path("campaigns/<slug:slug>/workers/", workers.WorkerListApi.as_view(), name="api-workers"),
    path(
        "campaigns/<slug:slug>/workers/<id:pk>/",
        workers.WorkerDetailApi.as_view(),
        name="api-worker",
    ),
    path(
        "campaigns/<slug:slug>/workers/<id:pk>/release/",
        workers.WorkerReleaseApi.as_view(),
        name="api-worker-release",
    ),
    path(
        "campaigns/<slug:slug>/judgements/",
        judgements.JudgementListApi.as_view(),
        name="api-judgements",
    ),
    path("campaigns/<slug:slug>/export/", exports.ExportApi.as_view(), name="api-export"),
]
