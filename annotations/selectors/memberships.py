"""Reads of a campaign's people: members and invitations not yet accepted."""

from __future__ import annotations

from django.db.models import Case, IntegerField, QuerySet, Value, When

from annotations.models import Campaign, CampaignInvitation, CampaignMembership


def campaign_members(*, campaign: Campaign) -> QuerySet[CampaignMembership]:
    """Members, strongest role first (owner, editor, viewer), then by username."""
    order = {"owner": 0, "designer": 1, "viewer": 2}
    rank = Case(
        *(When(role=role, then=Value(n)) for role, n in order.items()),
        output_field=IntegerField(),
    )
    return (
        campaign.memberships.select_related("user")
        .annotate(role_rank=rank)
        .order_by("role_rank", "user__username")
    )


def invitations_pending(*, campaign: Campaign) -> list[CampaignInvitation]:
    """Invitations of the campaign not yet accepted, newest first (expired ones too)."""
    return list(
        campaign.invitations.filter(accepted_at__isnull=True)
        .select_related("invited_by")
        .order_by("-created_at")
    )
