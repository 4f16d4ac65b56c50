"""The Adaptive design page: each criterion's batches, why their systems were
chosen, and the stop rule (``/rankings/campaign/<slug>/adaptive/``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from annotations.access.pages import campaign_context, campaign_require, campaign_view
from annotations.models import Campaign, CampaignMembership
from annotations.selectors.criteria import criterion_by_name
from common.errors import DomainError
from ranking.selectors import adaptive as selectors
from ranking.services import adaptive

Role = CampaignMembership.Role


def _after(value: str | None) -> int | None:
    """The form's ``after`` (the number of the latest batch the page showed); None when
    it is not sent (a request made without the page). A value that is not a batch number
    (a tampered form) is refused."""
    if value is None:
        return None
    if not (value.isascii() and value.isdecimal() and len(value) < 10):
        raise DomainError(
            "The form's batch number is not a number; no batch was added. Reload the page "
            "and try again."
        )
    return int(value)


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def campaign_adaptive(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """GET: the batches per criterion and the stop rule. POST (designers, ``criterion`` and
    ``after``, the latest batch the page showed): a batch now, once per page."""
    if request.method == "POST":
        campaign_require(request, campaign, Role.DESIGNER, denied="Viewers cannot add tasks.")
        criterion = criterion_by_name(campaign, request.POST.get("criterion", ""))
        if criterion is None:
            messages.error(request, "Choose one of the campaign's criteria.")
        else:
            try:
                after = _after(request.POST.get("after"))
                batch = adaptive.adaptive_batch_now(criterion=criterion, after=after)
            except DomainError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(
                    request,
                    f"Batch {batch.number} of {criterion.name}: {batch.tasks} tasks added.",
                )
        return redirect("ranking:campaign-adaptive", slug=campaign.slug)
    return render(
        request,
        "ranking/adaptive/adaptive.html",
        campaign_context(
            request,
            campaign,
            problem=adaptive.adaptive_problem(campaign),
            statuses=selectors.adaptive_status_rows(campaign=campaign),
            stable_refits=adaptive.STABLE_REFITS,
            stable_shows=adaptive.STABLE_SHOWS,
            stable_span=adaptive.campaign_stable_span(campaign=campaign),
            refit_runs=adaptive.REFIT_RUNS,
            min_share=adaptive.MIN_SHARE,
        ),
    )
