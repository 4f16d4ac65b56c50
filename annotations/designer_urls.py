"""Task-designer and organizer pages, under /campaigns/ (names in the annotations namespace)."""

from django.urls import path

from .views import designer, designer_mapped, experts, languages

urlpatterns = [
    path("campaigns/new/", designer.campaign_new, name="designer-new"),
    path("campaigns/account/", designer.account, name="designer-account"),
    path("campaigns/<slug:slug>/", designer.campaign_detail, name="designer-campaign"),
    path("campaigns/<slug:slug>/upload/", designer.campaign_upload, name="designer-upload"),
    path(
        "campaigns/<slug:slug>/ratings/import/",
        designer_mapped.mapped_import,
        name="designer-mapped-import",
    ),
    path(
        "campaigns/<slug:slug>/imports/<int:pk>/",
        designer.import_job,
        name="designer-import-job",
    ),
    path("campaigns/<slug:slug>/settings/", designer.campaign_settings, name="designer-settings"),
    path("campaigns/<slug:slug>/criteria/", designer.criteria, name="designer-criteria"),
    path(
        "campaigns/<slug:slug>/criteria/<int:pk>/",
        designer.criterion_edit,
        name="designer-criterion",
    ),
    path(
        "campaigns/<slug:slug>/criteria/<int:pk>/delete/",
        designer.criterion_delete,
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
    path("campaigns/<slug:slug>/plan/", designer.campaign_plan, name="designer-plan"),
    path("campaigns/<slug:slug>/build/", designer.campaign_build, name="designer-build"),
    path("campaigns/<slug:slug>/launch/", designer.campaign_launch, name="designer-launch"),
    path("campaigns/<slug:slug>/pause/", designer.campaign_pause, name="designer-pause"),
    path("campaigns/<slug:slug>/close/", designer.campaign_close, name="designer-close"),
    path("campaigns/<slug:slug>/archive/", designer.campaign_archive, name="designer-archive"),
    path(
        "campaigns/<slug:slug>/unarchive/", designer.campaign_unarchive, name="designer-unarchive"
    ),
    path("campaigns/<slug:slug>/delete/", designer.campaign_delete, name="designer-delete"),
    path("campaigns/<slug:slug>/clone/", designer.campaign_clone, name="designer-clone"),
    path(
        "campaigns/<slug:slug>/preview/intro/",
        designer.campaign_preview_intro,
        name="designer-preview-intro",
    ),
    path("campaigns/<slug:slug>/monitor/", designer.campaign_monitor, name="designer-monitor"),
    path("campaigns/<slug:slug>/experts/", experts.campaign_experts, name="designer-experts"),
    path(
        "campaigns/<slug:slug>/experts.csv", experts.experts_export, name="designer-experts-export"
    ),
    path(
        "campaigns/<slug:slug>/workers/<int:pk>/",
        designer.worker_mark,
        name="designer-worker-mark",
    ),
    path("campaigns/<slug:slug>/members/", designer.campaign_members, name="designer-members"),
    path(
        "campaigns/<slug:slug>/members/<int:pk>/remove/",
        designer.member_remove,
        name="designer-member-remove",
    ),
    path("campaigns/<slug:slug>/members/invite/", designer.member_invite, name="designer-invite"),
    path(
        "campaigns/<slug:slug>/members/invitations/<int:pk>/revoke/",
        designer.invitation_revoke,
        name="designer-invitation-revoke",
    ),
    path("invitations/<str:token>/", designer.invitation, name="invitation"),
    path("campaigns/<slug:slug>/payments/", designer.campaign_payments, name="designer-payments"),
    path(
        "campaigns/<slug:slug>/payments/<str:fmt>/",
        designer.campaign_payments_export,
        name="designer-payments-export",
    ),
    path("campaigns/<slug:slug>/export/", designer.campaign_export, name="designer-export"),
]
