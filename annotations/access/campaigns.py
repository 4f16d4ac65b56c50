"""The one access check: who may see and change a campaign. Roles: owner > editor > viewer;
superusers all.

The editor role is stored as ``designer`` (its value predates the label). Viewers read
every page and download exports; editors also change the campaign (design, criteria,
outputs, life cycle, workers, payment decisions); owners also manage members and
invitations.

Every page and API of every app asks here, through the request: :func:`request_campaign`
loads a campaign by slug, :func:`campaign_access` gives the user's role (read once per
request and kept on it), :func:`campaign_require` refuses a role too weak. The page
decorator and context are in ``access.pages``, the API base class in ``access.apis`` (apart,
so that commands and Celery workers that only check roles never load DRF). A campaign
outside the user's is a 404, a role too weak a 403. :func:`role_of`, :func:`has_role`,
:func:`campaign_check` and :func:`campaign_for` take a user, for code without a request.
:func:`criterion_or_404` is the one 404 of a criterion the URL's path names (its id) and
the campaign does not have; a criterion named by a query parameter or a body field is
``selectors.criteria.criterion_get``'s 400 instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404

from annotations.models import Campaign, CampaignMembership, Criterion

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
CRITERION_NOT_FOUND = "No such criterion in this campaign."


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


# Per request -----------------------------------------------------------------------------


class UserRequest(Protocol):
    """A Django request or a DRF one: anything with the user who asks."""

    @property
    def user(self) -> Any: ...


@dataclass(frozen=True)
class CampaignAccess:
    """The user's role in one campaign (None: no role) and what it allows."""

    role: str | None

    def holds(self, role: str) -> bool:
        """Whether the role is ``role`` or a stronger one."""
        return self.role is not None and ROLE_ORDER[self.role] >= ROLE_ORDER[role]

    @property
    def can_design(self) -> bool:
        return self.holds(CampaignMembership.Role.DESIGNER)

    @property
    def is_owner(self) -> bool:
        return self.holds(CampaignMembership.Role.OWNER)

    @property
    def label(self) -> str:
        return role_label(self.role)


_CACHE = "_campaign_access"


def campaign_access(request: UserRequest, campaign: Campaign) -> CampaignAccess:
    """The requesting user's role in the campaign, read once per request (at most one
    membership query) and kept on the request."""
    user = request.user
    cache: dict[tuple[Any, int], CampaignAccess] | None = getattr(request, _CACHE, None)
    if cache is None:
        cache = {}
        setattr(request, _CACHE, cache)
    key = (user.pk, campaign.pk)
    if key not in cache:
        cache[key] = CampaignAccess(role_of(user, campaign))
    return cache[key]


def campaign_require(
    request: UserRequest, campaign: Campaign, role: str, *, denied: str = ""
) -> CampaignAccess:
    """The requesting user's access to the campaign; ``PermissionDenied`` (a 403,
    ``denied`` its message) unless they hold ``role`` or a stronger one."""
    access = campaign_access(request, campaign)
    if not access.holds(role):
        raise PermissionDenied(
            denied or f"This needs the {role} role in campaign '{campaign.slug}'."
        )
    return access


def request_campaign(request: UserRequest, slug: str, role: str) -> Campaign:
    """The campaign ``slug`` among the requesting user's, if they hold ``role`` in it: a
    404 for a campaign they cannot see, a 403 for a role too weak (as :func:`campaign_for`),
    the role kept on the request for :func:`campaign_access`."""
    campaign = campaigns_visible_to(request.user).filter(slug=slug).first()
    if campaign is None:
        raise Http404(NOT_FOUND)
    campaign_require(request, campaign, role)
    return campaign


def criterion_or_404(campaign: Campaign, pk: int) -> Criterion:
    """The campaign's criterion ``pk``, named by the URL's path: ``Http404`` when the
    campaign has none by that id (another campaign's criterion is not found either)."""
    criterion = campaign.criteria.filter(pk=pk).first()
    if criterion is None:
        raise Http404(CRITERION_NOT_FOUND)
    return criterion
