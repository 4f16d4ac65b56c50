"""Task-designer and organizer pages, under /campaigns/ (names in the annotations namespace)."""

from django.urls import path

from annotations.views import (
    campaigns,
    criteria,
    experts,
    exports,
    languages,
    lifecycle,
    mapped,
    memberships,
    monitor,
    payments,
    plan,
    preview,
    settings,
    tokens,
    uploads,
)

urlpatterns = [
    path("campaigns/new/", campaigns.campaign_new, name="designer-new"),
    path("campaigns/account/", tokens.account, name="designer-account"),
    path("campaigns/<slug:slug>/", campaigns.campaign_detail, name="designer-campaign"),
    path("campaigns/<slug:slug>/upload/", uploads.campaign_upload, name="designer-upload"),
    path(
        "campaigns/<slug:slug>/outputs/remove/",
        uploads.campaign_outputs_remove,
        name="designer-outputs-remove",
    ),
    path(
        "campaigns/<slug:slug>/ratings/import/",
        mapped.mapped_import,
        name="designer-mapped-import",
    ),
    path(
        "campaigns/<slug:slug>/imports/<id:pk>/",
        uploads.import_job,
        name="designer-import-job",
    ),
    path("campaigns/<slug:slug>/settings/", settings.campaign_settings, name="designer-settings"),
    path("campaigns/<slug:slug>/criteria/", criteria.criteria, name="designer-criteria"),
    path(
        "campaigns/<slug:slug>/criteria/<id:pk>/",
        criteria.criterion_edit,
        name="designer-criterion",
    ),
    path(
        "campaigns/<slug:slug>/criteria/<id:pk>/delete/",
        criteria.criterion_delete,
        name="designer-criterion-delete",
    ),
    path(
        "campaigns/<slug:slug>/languages/", languages.campaign_languages, name="designer-languages"
    ),
    path(
        "campaigns/<slug:slug>/languages/<str:tag>/",
        languages.campaign_translation,
        name="designer-translation",
    ),
    path("campaigns/<slug:slug>/plan/", plan.campaign_plan, name="designer-plan"),
    path("campaigns/<slug:slug>/build/", lifecycle.campaign_build, name="designer-build"),
    path("campaigns/<slug:slug>/launch/", lifecycle.campaign_launch, name="designer-launch"),
    path("campaigns/<slug:slug>/pause/", lifecycle.campaign_pause, name="designer-pause"),
    path("campaigns/<slug:slug>/close/", lifecycle.campaign_close, name="designer-close"),
    path("campaigns/<slug:slug>/archive/", lifecycle.campaign_archive, name="designer-archive"),
    path(
        "campaigns/<slug:slug>/unarchive/", lifecycle.campaign_unarchive, name="designer-unarchive"
    ),
    path("campaigns/<slug:slug>/delete/", campaigns.campaign_delete, name="designer-delete"),
    path("campaigns/<slug:slug>/clone/", campaigns.campaign_clone, name="designer-clone"),
    path(
        "campaigns/<slug:slug>/preview/intro/",
        preview.campaign_preview_intro,
        name="designer-preview-intro",
    ),
    path("campaigns/<slug:slug>/monitor/", monitor.campaign_monitor, name="designer-monitor"),
    path("campaigns/<slug:slug>/experts/", experts.campaign_experts, name="designer-experts"),
    path(
        "campaigns/<slug:slug>/experts.csv", experts.experts_export, name="designer-experts-export"
    ),
    path(
        "campaigns/<slug:slug>/workers/<id:pk>/",
        monitor.worker_mark,
        name="designer-worker-mark",
    ),
    path("campaigns/<slug:slug>/members/", memberships.campaign_members, name="designer-members"),
    path(
        "campaigns/<slug:slug>/members/<id:pk>/remove/",
        memberships.member_remove,
        name="designer-member-remove",
    ),
    path(
        "campaigns/<slug:slug>/members/invite/", memberships.member_invite, name="designer-invite"
    ),
    path(
        "campaigns/<slug:slug>/members/invitations/<id:pk>/revoke/",
        memberships.invitation_revoke,
        name="designer-invitation-revoke",
    ),
    path("invitations/<str:token>/", memberships.invitation, name="invitation"),
    path("campaigns/<slug:slug>/payments/", payments.campaign_payments, name="designer-payments"),
    path(
        "campaigns/<slug:slug>/payments/<str:fmt>/",
        payments.campaign_payments_export,
        name="designer-payments-export",
    ),
    path("campaigns/<slug:slug>/export/", exports.campaign_export, name="designer-export"),
]
