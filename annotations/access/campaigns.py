"""The one access check: who may see and change a campaign. Roles: owner > editor > viewer;
superusers all.

The editor role is stored as ``designer`` (its value predates the label). Viewers read
every page and download exports; editors also change the campaign (design, criteria,
outputs, life cycle, workers, payment decisions); owners also manage members and
invitations.

Pages (``access.pages.campaign_view``), the REST API (``access.apis.CampaignScoped``) and
ranking's and reports' pages and APIs all go through :func:`campaign_for` /
:func:`campaign_check` (the API's base class lives in ``access.apis``, so that commands and
Celery workers that only check roles never load DRF): a campaign outside the user's is a
404, a role too weak a 403.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404

from annotations.models import Campaign, CampaignMembership

ROLE_ORDER: dict[str, int] = {
    CampaignMembership.Role.VIEWER: 1,
    CampaignMembership.Role.DESIGNER: 2,
    CampaignMembership.Role.OWNER: 3,
}

# What each role may do, in the words the members page and the campaign page use.
ROLE_POWERS: dict[str, str] = {
    CampaignMembership.Role.OWNER: "sees and changes everything, and manages members",
    CampaignMembership.Role.DESIGNER: "sees and changes the campaign, but not its members",
    CampaignMembership.Role.VIEWER: "sees the campaign and downloads exports, changes nothing",
}

NOT_FOUND = "No such campaign among yours."


def role_label(role: str | None) -> str:
    """The role as people read it: Owner, Editor or Viewer ('' for none)."""
    return CampaignMembership.Role(role).label if role else ""


def campaigns_visible_to(user: User | AnonymousUser) -> QuerySet[Campaign]:
    """The campaigns the user owns or is a member of (all of them for superusers)."""
    if not user.is_authenticated:
        return Campaign.objects.none()
    if getattr(user, "is_superuser", False):
        return Campaign.objects.all()
    return Campaign.objects.filter(Q(owner=user) | Q(memberships__user=user)).distinct()


def role_of(user: User | AnonymousUser, campaign: Campaign) -> str | None:
    """The user's role in the campaign, or None."""
    if not user.is_authenticated:
        return None
    if getattr(user, "is_superuser", False) or campaign.owner_id == user.pk:
        return CampaignMembership.Role.OWNER
    membership = CampaignMembership.objects.filter(campaign=campaign, user=user).first()
    return membership.role if membership else None


def has_role(user: User | AnonymousUser, campaign: Campaign, role: str) -> bool:
    """Whether the user holds ``role`` or a stronger one in the campaign."""
    held = role_of(user, campaign)
    return held is not None and ROLE_ORDER[held] >= ROLE_ORDER[role]


def campaign_check(
    user: User | AnonymousUser, campaign: Campaign, role: str, *, denied: str = ""
) -> None:
    """Raise ``PermissionDenied`` (a 403; ``denied`` is its message) unless the user holds
    ``role`` or a stronger one in the campaign."""
    if not has_role(user, campaign, role):
        raise PermissionDenied(
            denied or f"This needs the {role} role in campaign '{campaign.slug}'."
        )


def campaign_for(user: User | AnonymousUser, slug: str, role: str) -> Campaign:
    """The campaign ``slug`` among the user's, if the user holds ``role`` in it.

    Raises ``Http404`` for a campaign the user cannot see (unknown or not theirs alike, so
    that a slug's existence does not leak), ``PermissionDenied`` for a role too weak.
    """
    campaign = campaigns_visible_to(user).filter(slug=slug).first()
    if campaign is None:
        raise Http404(NOT_FOUND)
    campaign_check(user, campaign, role)
    return campaign
