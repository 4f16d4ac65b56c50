"""Crowd-worker pages, under /w/."""

urlpatterns: list = []
