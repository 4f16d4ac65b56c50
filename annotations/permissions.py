"""Who may see and change a campaign. Roles: owner > editor > viewer; superusers all.

The editor role is stored as ``designer`` (its value predates the label). Viewers read
every page and download exports; editors also change the campaign (design, criteria,
outputs, life cycle, workers, payment decisions); owners also manage members and
invitations.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet

from .models import Campaign, CampaignMembership

ROLE_ORDER: dict[str, int] = {
    CampaignMembership.Role.VIEWER: 1,
    CampaignMembership.Role.DESIGNER: 2,
    CampaignMembership.Role.OWNER: 3,
}
_ORDER = ROLE_ORDER

# What each role may do, in the words the members page and the campaign page use.
ROLE_POWERS: dict[str, str] = {
    CampaignMembership.Role.OWNER: "sees and changes everything, and manages members",
    CampaignMembership.Role.DESIGNER: "sees and changes the campaign, but not its members",
    CampaignMembership.Role.VIEWER: "sees the campaign and downloads exports, changes nothing",
}


def role_label(role: str | None) -> str:
    """The role as people read it: Owner, Editor or Viewer ('' for none)."""
    return CampaignMembership.Role(role).label if role else ""


def campaigns_visible_to(user: User | AnonymousUser) -> QuerySet[Campaign]:
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
    return held is not None and _ORDER[held] >= _ORDER[role]


def can_view(user: User | AnonymousUser, campaign: Campaign) -> bool:
    return has_role(user, campaign, CampaignMembership.Role.VIEWER)


def can_design(user: User | AnonymousUser, campaign: Campaign) -> bool:
    return has_role(user, campaign, CampaignMembership.Role.DESIGNER)
