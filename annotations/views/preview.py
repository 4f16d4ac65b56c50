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
from annotations.selectors import criteria as criteria_selectors

Role = CampaignMembership.Role


@campaign_view(Role.VIEWER)
def campaign_preview_intro(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """The worker's consent and instructions page as workers see it. Records nothing;
    its Start button leads to the task preview (which works before tasks are built)."""
    from annotations.forms.worker import ConsentForm

    criteria = criteria_selectors.criteria_in_order(campaign=campaign)
    return render(
        request,
        "annotations/worker/consent.html",
        {
            "campaign": campaign,
            "form": ConsentForm(),
            "preview": True,
            "progress": None,
            "criteria": criteria,
            "explained": [(c, criteria_selectors.example_for(c)) for c in criteria],
            # set-up 2 with several criteria: a worker reads one of these, not all
            "one_each": campaign.setup == Campaign.Setup.SEPARATE and len(criteria) > 1,
        },
    )
