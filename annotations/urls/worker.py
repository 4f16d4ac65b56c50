"""Crowd-worker pages, included by ``annotations.urls.pages`` under ``w/``."""

from django.urls import path

from annotations.views import drafts, judgements, preview, sessions

urlpatterns = [
    path("<slug:slug>/", sessions.entry, name="worker-entry"),
    path("<slug:slug>/preview/", preview.campaign_preview_task, name="worker-preview"),
    path("<slug:slug>/start/", sessions.start, name="worker-start"),
    path("<slug:slug>/s/<str:token>/", sessions.session, name="worker-session"),
    path("<slug:slug>/s/<str:token>/consent/", sessions.consent, name="worker-consent"),
    path(
        "<slug:slug>/s/<str:token>/task/<id:assignment_id>/",
        judgements.submit,
        name="worker-submit",
    ),
    path(
        "<slug:slug>/s/<str:token>/task/<id:assignment_id>/draft/",
        drafts.draft,
        name="worker-draft",
    ),
    # Any other task address in a valid session (letters, a sign, too many digits): the
    # worker's own notice, as for a number that is none of their tasks.
    path(
        "<slug:slug>/s/<str:token>/task/<str:other>/",
        judgements.unknown_task,
        name="worker-task-unknown",
    ),
]
