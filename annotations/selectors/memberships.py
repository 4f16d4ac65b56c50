"""Reads of a campaign's people: members, invitations not yet accepted, and the
invitation of a link (whether it can be used, and by whom). The writes, and what an
invitation's link is, are ``services.memberships``."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Case, IntegerField, QuerySet, Value, When
from django.utils import timezone

from annotations.models import Campaign, CampaignInvitation, CampaignMembership
from common.errors import DomainError


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


def membership_by_id(campaign: Campaign, pk: int) -> CampaignMembership | None:
    """The campaign's membership with id ``pk``, or None (another campaign's is None too)."""
    return campaign.memberships.filter(pk=pk).first()


def invitation_by_id(campaign: Campaign, pk: int) -> CampaignInvitation | None:
    """The campaign's invitation with id ``pk``, or None (another campaign's is None too)."""
    return campaign.invitations.filter(pk=pk).first()


# The invitation of a link -------------------------------------------------------------------


class InvitationRefused(DomainError):
    """An invitation link that cannot be used; ``reason`` is forged, used, expired or
    other-account."""

    def __init__(self, message: str, *, reason: str) -> None:
        self.reason = reason
        super().__init__(message)


def token_digest(token: str) -> str:
    """What the database keeps of an invitation's token (its SHA-256), never the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def invitation_expires_at(invitation: CampaignInvitation) -> datetime:
    return invitation.created_at + timedelta(days=settings.INVITATION_MAX_AGE_DAYS)


def invitation_for_token(*, token: str) -> CampaignInvitation:
    """The usable invitation of ``token``, or :class:`InvitationRefused` saying why not."""
    invitation = (
        CampaignInvitation.objects.select_related("campaign", "invited_by")
        .filter(token=token_digest(token))
        .first()
        if token
        else None
    )
    if invitation is None:
        raise InvitationRefused(
            "This invitation link is not valid. Check that you copied the whole link, or "
            "ask the campaign's owner for a new invitation.",
            reason="forged",
        )
    if invitation.accepted_at is not None:
        raise InvitationRefused(
            "This invitation has already been used. If it was you, sign in to reach the "
            "campaign; otherwise ask the campaign's owner for a new invitation.",
            reason="used",
        )
    if timezone.now() >= invitation_expires_at(invitation):
        raise InvitationRefused(
            f"This invitation expired on {invitation_expires_at(invitation):%Y-%m-%d %H:%M} "
            "UTC. Ask the campaign's owner for a new one.",
            reason="expired",
        )
    return invitation


def invitation_is_for(*, invitation: CampaignInvitation, user: User) -> bool:
    """Whether ``user``'s account has the invited address (case does not matter)."""
    invited = invitation.email.strip().casefold()
    return bool(invited) and (user.email or "").strip().casefold() == invited


def email_hint(email: str) -> str:
    """The address an invitation was sent to, enough to recognise it and no more:
    ``ada@example.org`` -> ``a…@example.org``."""
    local, _, domain = email.strip().partition("@")
    return f"{local[:1]}…@{domain}" if domain else "…"


def invitation_refusal_for(
    *, invitation: CampaignInvitation, user: User
) -> InvitationRefused | None:
    """Why ``user`` cannot accept the invitation (signed in with another address than the
    invited one: ``other-account``), or None if they may (:func:`invitation_is_for`)."""
    if invitation_is_for(invitation=invitation, user=user):
        return None
    return InvitationRefused(
        f"This invitation was sent to {email_hint(invitation.email)}, which is not the "
        f"email address of the account you are signed in with ({user.get_username()}). "
        "Sign out, then open the link again and sign in with the invited address's "
        "account, or create one. If your account should have that address, ask the "
        "campaign's owner to invite the address your account has.",
        reason="other-account",
    )
