"""Reads. Query-shaped functions that return querysets or plain data."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from annotations.errors import DomainError
from annotations.models import Campaign, Criterion


def campaign_list() -> QuerySet[Campaign]:
    return Campaign.objects.annotate(
        n_systems=Count("systems", distinct=True),
        n_items=Count("items", distinct=True),
        n_criteria=Count("criteria", distinct=True),
    ).order_by("-created_at")


def campaign_criterion_get(
    *, campaign_slug: str, criterion_name: str
) -> tuple[Campaign, Criterion]:
    """A campaign and one of its criteria by name; DomainError says what exists instead."""
    campaign = Campaign.objects.filter(slug=campaign_slug).first()
    if campaign is None:
        raise DomainError(f"No campaign with the slug '{campaign_slug}'.")
    criterion = campaign.criteria.filter(name=criterion_name).first()
    if criterion is None:
        names = ", ".join(campaign.criteria.values_list("name", flat=True)) or "none"
        raise DomainError(
            f"Campaign '{campaign.slug}' has no criterion '{criterion_name}' (it has: {names})."
        )
    return campaign, criterion
