"""Access for pages: log in, load the campaign by slug among the user's, require a role; the role facts every campaign page shows."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import (
    HttpRequest,
)
from django.http.response import HttpResponseBase

from annotations.access.campaigns import (
    campaign_for,
    role_label,
    role_of,
)
from annotations.models import (
    Campaign,
    CampaignMembership,
)

Role = CampaignMembership.Role
View = Callable[..., HttpResponseBase]


def campaign_view(role: str) -> Callable[[View], View]:
    """Log in, load the campaign by slug among the user's, and require ``role``."""

    def decorate(view: View) -> View:
        @login_required
        @functools.wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponseBase:
            campaign = campaign_for(request.user, slug, role)
            request.campaign_role = role_of(request.user, campaign)  # type: ignore[attr-defined]
            return view(request, campaign, *args, **kwargs)

        return wrapper

    return decorate


def campaign_context(request: HttpRequest, campaign: Campaign, **extra: Any) -> dict[str, Any]:
    role = getattr(request, "campaign_role", None)
    return {
        "campaign": campaign,
        "role": role,
        "can_design": role in (Role.DESIGNER, Role.OWNER),
        "is_owner": role == Role.OWNER,
        "role_label": role_label(role),
        # Pay and costs are in the platform's currency (Prolific's studies: GBP).
        "currency": settings.PAYMENT_CURRENCY,
        **extra,
    }
