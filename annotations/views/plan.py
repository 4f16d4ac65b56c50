"""The plan page: workers, judgements, cost and the power analysis."""

from __future__ import annotations

from decimal import Decimal

from django.http import (
    HttpResponse,
)
from django.shortcuts import render

from annotations.access.pages import campaign_context, campaign_view
from annotations.forms.plan import PlanForm
from annotations.models import (
    Campaign,
    CampaignMembership,
)
from annotations.selectors import languages as language_selectors
from annotations.selectors import plan as plan_selectors
from annotations.services import campaigns as campaign_services
from annotations.services import criteria as criteria_services
from common.http import (
    HtmxHttpRequest,
)

Role = CampaignMembership.Role


@campaign_view(Role.VIEWER)
def campaign_plan(request: HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    form = PlanForm(request.GET or None)
    pay = Decimal(str(plan_selectors.PAY_PER_HOUR_DEFAULT))
    seconds = None
    if form.is_valid():
        # A blank pay is the default the untouched page shows (the field says so).
        given = form.cleaned_data.get("pay_per_hour")
        pay = pay if given is None else given
        seconds = form.cleaned_data.get("seconds_per_task")
    plan = plan_selectors.campaign_plan(
        campaign=campaign,
        pay_per_hour=float(pay),
        seconds_per_task=float(seconds) if seconds else None,
    )
    if form.is_bound is False:
        form = PlanForm(
            initial={"pay_per_hour": pay, "seconds_per_task": int(plan.seconds_per_task)}
        )
    context = campaign_context(request, campaign, form=form, plan=plan)
    context["criteria_problems"] = criteria_services.criterion_launch_problems(campaign=campaign)
    context["consent_missing"] = campaign_services.campaign_consent_missing(campaign=campaign)
    context["translations_missing"] = [
        status
        for status in language_selectors.translations_needed(campaign=campaign)
        if status.missing
    ]
    template = "annotations/plan/plan.html"
    if request.htmx:
        template += "#plan-result"
    return render(request, template, context)
