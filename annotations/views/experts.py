"""Crowd versus experts: each crowd worker's agreement with the experts, the crowd's
ranking of the systems against the experts', and excluding workers by it."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from annotations.access.pages import campaign_context, campaign_require, campaign_view
from annotations.exports.experts import expert_report_csv
from annotations.models import Campaign, CampaignMembership
from annotations.selectors import criteria as criteria_selectors
from annotations.selectors.experts import expert_report
from annotations.services import workers as worker_services
from common.errors import DomainError
from common.http import file_response, refused_page

Role = CampaignMembership.Role


def _number(raw: str, *, field: str, what: str, cast: type = float) -> float:
    try:
        return cast(raw)
    except (TypeError, ValueError):
        raise DomainError(f"Enter a number as the {what}.", field=field) from None


def _refused(request: HttpRequest, campaign: Campaign, exc: DomainError) -> HttpResponse:
    """The 400 page for a criterion the campaign does not have, with the way back."""
    return refused_page(
        request,
        exc,
        back=reverse("annotations:designer-experts", args=[campaign.slug]),
        back_label="Back to crowd versus experts",
    )


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def campaign_experts(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """The report for one criterion (``?criterion=``); designers may exclude the crowd
    workers whose agreement with the experts is below a threshold (POST)."""
    criteria = criteria_selectors.criteria_in_order(campaign=campaign)
    try:
        criterion = criteria_selectors.criterion_chosen(
            campaign=campaign,
            criteria=criteria,
            name=request.POST.get("criterion") or request.GET.get("criterion"),
            strict=True,
        )
    except DomainError as exc:  # a criterion the campaign does not have
        return _refused(request, campaign, exc)
    if request.method == "POST":
        campaign_require(
            request,
            campaign,
            Role.DESIGNER,
            denied="Only designers and owners may exclude workers.",
        )
        if criterion is None:
            raise Http404("This campaign has no criteria.")
        try:
            threshold = _number(
                request.POST.get("threshold", ""), field="threshold", what="agreement threshold"
            )
            min_units = int(
                _number(
                    request.POST.get("min_units", "10"),
                    field="min_units",
                    what="least number of outputs shared with the experts",
                    cast=int,
                )
            )
            newly = worker_services.workers_exclude_by_expert_agreement(
                criterion=criterion, threshold=threshold, min_units=min_units
            )
        except DomainError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request,
                f"{len(newly)} worker{'s' if len(newly) != 1 else ''} excluded"
                + (f": {', '.join(w.external_id for w in newly)}." if newly else "."),
            )
        url = reverse("annotations:designer-experts", args=[campaign.slug])
        return redirect(f"{url}?criterion={criterion.name}")
    report = expert_report(criterion=criterion) if criterion else None
    return render(
        request,
        "annotations/experts/experts.html",
        campaign_context(
            request,
            campaign,
            criteria=criteria,
            criterion=criterion,
            report=report,
        ),
    )


@campaign_view(Role.VIEWER)
def experts_export(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    try:
        criterion = criteria_selectors.criterion_chosen(
            campaign=campaign,
            criteria=criteria_selectors.criteria_in_order(campaign=campaign),
            name=request.GET.get("criterion"),
            strict=True,
        )
    except DomainError as exc:  # a criterion the campaign does not have
        return _refused(request, campaign, exc)
    if criterion is None:
        raise Http404("This campaign has no criteria.")
    return file_response(
        expert_report_csv(expert_report(criterion=criterion)),
        content_type="text/csv; charset=utf-8",
        filename=f"{campaign.slug}-{criterion.name}-experts.csv",
    )
