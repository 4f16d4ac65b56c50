"""Reads. Query-shaped functions that return querysets or plain data."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, IntegerField, Model, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from annotations.errors import DomainError
from annotations.models import Campaign, Criterion, Item, System
from annotations.permissions import campaigns_visible_to


def count_of(model: type[Model]) -> Coalesce:
    """The number of ``model`` rows of the campaign in the outer query.

    One subquery per count: joining several relations at once would multiply their rows
    (21 systems x 630 items x 2,826 tasks for the E2E campaign).
    """
    rows = (
        model._default_manager.filter(campaign=OuterRef("pk"))
        .order_by()
        .values("campaign")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(rows, output_field=IntegerField()), 0)


def campaign_list(*, user: User | AnonymousUser) -> QuerySet[Campaign]:
    """The campaigns the user may see, newest first, with their sizes."""
    return (
        campaigns_visible_to(user)
        .annotate(
            n_systems=count_of(System), n_items=count_of(Item), n_criteria=count_of(Criterion)
        )
        .order_by("-created_at")
    )


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
