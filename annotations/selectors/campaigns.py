"""Reads. Query-shaped functions that return querysets or plain data."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from annotations.models import Campaign


def campaign_list() -> QuerySet[Campaign]:
    return Campaign.objects.annotate(
        n_systems=Count("systems", distinct=True),
        n_items=Count("items", distinct=True),
        n_criteria=Count("criteria", distinct=True),
    ).order_by("-created_at")
