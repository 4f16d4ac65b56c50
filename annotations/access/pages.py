"""Access for pages: log in, load the campaign by slug among the user's, require a role;
the role facts every campaign page shows. Pages of every app import their access from
here (the checks of ``access.campaigns`` are re-exported)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from annotations.access.campaigns import (
    CampaignAccess,
    campaign_access,
    campaign_require,
    campaigns_visible_to,
    request_campaign,
)
from annotations.models import Campaign

__all__ = [
    "CampaignAccess",
    "campaign_access",
    "campaign_context",
    "campaign_require",
    "campaign_view",
    "campaigns_visible_to",
    "request_campaign",
]

View = Callable[..., HttpResponseBase]


def campaign_view(role: str) -> Callable[[View], View]:
    """Log in, load the campaign by slug among the user's, and require ``role``; the view
    gets the campaign in place of the slug. The role is read once for the request
    (:func:`~annotations.access.campaigns.campaign_access`)."""

    def decorate(view: View) -> View:
        @login_required
        @functools.wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponseBase:
            campaign = request_campaign(request, slug, role)
            return view(request, campaign, *args, **kwargs)

        return wrapper

    return decorate


def campaign_context(request: HttpRequest, campaign: Campaign, **extra: Any) -> dict[str, Any]:
    """The context every campaign page starts from: the campaign and the user's role in it
    (``role``, ``can_design``, ``is_owner``, ``role_label``), and the currency."""
    access = campaign_access(request, campaign)
    return {
        "campaign": campaign,
        "role": access.role,
        "can_design": access.can_design,
        "is_owner": access.is_owner,
        "role_label": access.label,
        # Pay and costs are in the platform's currency (Prolific's studies: GBP).
        "currency": settings.PAYMENT_CURRENCY,
        **extra,
    }
