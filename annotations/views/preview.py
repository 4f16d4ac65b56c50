"""The designer's preview of what a worker sees first."""

from __future__ import annotations

from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import render

from annotations.access.pages import campaign_view
from annotations.models import (
    Campaign,
    CampaignMembership,
)

Role = CampaignMembership.Role


@campaign_view(Role.VIEWER)
def campaign_preview_intro(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """The worker's consent and instructions page as workers see it. Records nothing;
    its Start button leads to the task preview (which works before tasks are built)."""
    from annotations.forms.worker import ConsentForm

    return render(
        request,
        "annotations/worker/consent.html",
        {
            "campaign": campaign,
            "form": ConsentForm(),
            "preview": True,
            "progress": None,
            "criteria": list(campaign.criteria.order_by("position", "name")),
        },
    )
