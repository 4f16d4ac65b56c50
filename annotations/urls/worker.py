"""Crowd-worker pages, included by ``annotations.urls.pages`` under ``w/``."""

from django.urls import path

from annotations.views import worker

urlpatterns = [
    path("<slug:slug>/", worker.entry, name="worker-entry"),
    path("<slug:slug>/preview/", worker.preview, name="worker-preview"),
    path("<slug:slug>/start/", worker.start, name="worker-start"),
    path("<slug:slug>/s/<str:token>/", worker.session, name="worker-session"),
    path("<slug:slug>/s/<str:token>/consent/", worker.consent, name="worker-consent"),
    path(
        "<slug:slug>/s/<str:token>/task/<int:assignment_id>/",
        worker.submit,
        name="worker-submit",
    ),
    path(
        "<slug:slug>/s/<str:token>/task/<int:assignment_id>/draft/",
        worker.draft,
        name="worker-draft",
    ),
]
