"""The power page: how many judgements separate systems (``/rankings/campaign/<slug>/power/``),
also the panel the plan and monitor pages load."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from annotations.access.pages import campaign_context, campaign_view
from annotations.models import Campaign, CampaignMembership
from ranking.forms.power import PowerForm
from ranking.selectors import power as power_selectors

Role = CampaignMembership.Role


@campaign_view(Role.VIEWER)
def campaign_power(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """How many judgements separate systems: a plan from an assumed share, and, for each
    criterion with judgements, what each system and the next still need. Also the panel
    the plan and monitor pages load (``#power-report``)."""
    form = PowerForm(request.GET or None)
    values = (
        form.cleaned_data
        if form.is_bound and form.is_valid()
        else {name: field.initial for name, field in form.fields.items()}
    )
    plan = None
    if not form.errors:
        plan = power_selectors.campaign_power_plan(
            campaign=campaign,
            share=values["share"],
            draws=values.get("draws") or 0.0,
            confidence=values["confidence"],
            power=values["power"],
            pay_per_hour=values["pay_per_hour"],
            seconds_per_task=values.get("seconds_per_task"),
        )
    reports = power_selectors.campaign_power_reports(
        campaign=campaign,
        confidence=values["confidence"],
        power=values["power"],
        pay_per_hour=values["pay_per_hour"],
        seconds_per_task=values.get("seconds_per_task"),
    )
    return render(
        request,
        "ranking/power/power.html",
        campaign_context(request, campaign, form=form, plan=plan, reports=reports),
        status=400 if form.errors else 200,
    )
