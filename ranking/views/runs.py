"""Ranking pages: start a run, follow its progress, cancel, retry or delete it, read and
export its result, compare two."""

from __future__ import annotations

from typing import Any, cast
from urllib.parse import urlencode

import numpy as np
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from annotations.access.campaigns import (
    campaign_check,
    campaign_for,
    campaigns_visible_to,
    has_role,
    role_of,
)
from annotations.core.slices import SliceError, describe, parse_where
from annotations.models import Campaign, CampaignMembership
from annotations.selectors.judgements import item_attributes
from common.errors import DomainError
from common.forms import SiteLabels
from common.http import HtmxHttpRequest, file_response
from ranking import stats
from ranking.exports import runs as exports
from ranking.models import RankingRun
from ranking.selectors import power as power_selectors
from ranking.selectors import runs as selectors
from ranking.services.runs import (
    ranking_run_cancel,
    ranking_run_create,
    ranking_run_delete,
    ranking_run_retry,
    ranking_slice_check,
)
from ranking.services.sweep import ranking_runs_sweep
from ranking.stats import wilson_interval

Role = CampaignMembership.Role


class RankingRunForm(SiteLabels, forms.Form):
    criterion = forms.ChoiceField()
    method = forms.ChoiceField(
        choices=RankingRun.Method.choices,
        initial=RankingRun.Method.WMT14,
        help_text="The E2E NLG Challenge used TrueSkill with the WMT14 procedure.",
    )
    runs = forms.IntegerField(
        min_value=1,
        max_value=settings.RANKING_MAX_RUNS,
        initial=200,
        help_text=(
            "Repetitions (TrueSkill runs or bootstrap resamples). More runs give steadier "
            "rank ranges and take longer; the result says whether they were enough."
        ),
    )
    seed = forms.IntegerField(initial=1, help_text="The same seed gives the same result.")
    confidence = forms.FloatField(
        min_value=0.5,
        max_value=0.999,
        initial=0.95,
        help_text="Level of the rank ranges and of the significance clusters.",
    )
    exclude_flagged = forms.BooleanField(
        required=False,
        initial=True,
        label="Leave out excluded workers",
        help_text="Workers excluded on the monitor page.",
    )
    where = forms.CharField(
        required=False,
        max_length=500,
        label="Slice",
        help_text="Rank only the items with these attribute values, e.g. "
        "challenge_set=scramble, domain=news (blank: every item).",
    )

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        criterion = cast(forms.ChoiceField, self.fields["criterion"])
        criterion.choices = [(c.name, c.name) for c in campaign.criteria.all()]
        attributes = item_attributes(campaign=campaign)
        if attributes:
            self.fields["where"].help_text += " This campaign's attributes: " + "; ".join(
                f"{name} ({', '.join(values[:6])}{', ...' if len(values) > 6 else ''})"
                for name, values in attributes.items()
            )

    def clean_where(self) -> dict[str, str]:
        text = self.cleaned_data.get("where") or ""
        try:
            return parse_where(part for part in text.split(",") if part.strip())
        except SliceError as exc:
            raise forms.ValidationError(str(exc)) from exc

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors:
            try:
                stats.check_parameters(
                    data["method"],
                    runs=data["runs"],
                    confidence=data["confidence"],
                    seed=data["seed"],
                )
            except stats.ParameterError as exc:
                self.add_error(exc.field if exc.field in self.fields else None, str(exc))
        return data


def _visible_run(request: HttpRequest, pk: int) -> RankingRun:
    run = get_object_or_404(
        RankingRun.objects.select_related("campaign", "criterion"),
        pk=pk,
        campaign__in=campaigns_visible_to(request.user),
    )
    return run


# Pages ----------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def campaign_runs(request: HttpRequest, slug: str) -> HttpResponse:
    """A campaign's ranking runs and the form to start one (designers)."""
    campaign = campaign_for(request.user, slug, Role.VIEWER)
    can_design = has_role(request.user, campaign, Role.DESIGNER)
    # Without celery beat (the embedded set-up) lost runs end when someone looks.
    ranking_runs_sweep(campaign=campaign)
    form = RankingRunForm(request.POST or None, campaign=campaign)
    if request.method == "POST":
        if not can_design:
            raise PermissionDenied("Viewers cannot start ranking runs.")
        if form.is_valid():
            data = form.cleaned_data
            try:
                run = ranking_run_create(
                    campaign=campaign,
                    criterion=campaign.criteria.get(name=data["criterion"]),
                    method=data["method"],
                    runs=data["runs"],
                    seed=data["seed"],
                    confidence=data["confidence"],
                    exclude_flagged=data["exclude_flagged"],
                    user=request.user,
                    where=data["where"],
                )
            except DomainError as exc:
                field = str(exc).partition(":")[0]
                form.add_error(field if field in ("where", "criterion") else None, str(exc))
            else:
                return redirect("ranking:run", pk=run.pk)
    runs = RankingRun.objects.filter(campaign=campaign).select_related("criterion")
    return render(
        request,
        "ranking/campaign_runs.html",
        {
            "campaign": campaign,
            "form": form,
            "runs": runs,
            "can_design": can_design,
            "max_active": settings.RANKING_MAX_ACTIVE_RUNS_PER_USER,
            "role": role_of(request.user, campaign),
        },
    )


def run_is_stable(run: RankingRun) -> bool | None:
    """Whether a finished run's clusters are stable: its two random halves of the runs give
    the same clusters and no boundary decision rests near the cut (the split-half check
    ``ranking.stats.compute`` stores); None when the run stored no stability check."""
    stability = run.stability or {}
    return bool(stability["stable"]) if "stable" in stability else None


def content_check_summary(run: RankingRun) -> dict[str, Any] | None:
    """Per system, the share of its outputs on which workers ticked each content check,
    with a 95% Wilson interval; None when the criterion has no content checks."""
    counts = selectors.content_check_counts(
        criterion=run.criterion, exclude_excluded_workers=run.exclude_flagged, where=run.where
    )
    if counts is None:
        return None
    trials = np.asarray(counts.outputs, dtype=np.int64)
    ticked = np.asarray(counts.ticked, dtype=np.int64).reshape(len(counts.systems), -1)
    rows = []
    for i, system in enumerate(counts.systems):
        lo, hi = wilson_interval(ticked[i], np.full(ticked.shape[1], trials[i]))
        rows.append(
            {
                "system": system,
                "outputs": int(trials[i]),
                "cells": [
                    {
                        "ticked": int(ticked[i, j]),
                        "rate": float(ticked[i, j] / trials[i]),
                        "lo": float(lo[j]),
                        "hi": float(hi[j]),
                    }
                    for j in range(ticked.shape[1])
                ],
            }
        )
    return {"checks": counts.checks, "rows": rows}


def _result_context(run: RankingRun, *, can_design: bool = False) -> dict[str, Any]:
    done = run.status == RankingRun.Status.DONE
    rule = selectors.ranking_data_rule(run=run) if done else None
    stable = run_is_stable(run) if done else None
    suggested = (run.stability or {}).get("suggested_runs")
    return {
        "run": run,
        "rows": selectors.ranking_run_rows(run=run) if done else [],
        "unranked": (run.inputs or {}).get("unranked", []) if done else [],
        "inputs": run.inputs or {},
        "rule": rule,
        "clusters_shown": bool(rule and rule.met),
        "percent": round(100 * run.progress),
        "formats": list(exports.FORMATS),
        "stable": stable,
        "can_design": can_design,
        "checks": content_check_summary(run) if done else None,
        "coverage": selectors.ranking_run_coverage(run=run) if done else None,
        # A one-click rerun with the suggested number of runs when the result is unstable.
        "rerun_runs": (
            min(suggested, settings.RANKING_MAX_RUNS)
            if can_design and stable is False and suggested and suggested > run.runs
            else None
        ),
    }


@login_required
def run_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The run's result; while it runs, a progress bar that polls its own partial."""
    run = _visible_run(request, pk)
    if run.status in RankingRun.ACTIVE and ranking_runs_sweep(campaign=run.campaign):
        run.refresh_from_db()
    can_design = has_role(request.user, run.campaign, Role.DESIGNER)
    template = "ranking/run_detail.html"
    if request.htmx:
        template += "#run-result"
    context = {
        "campaign": run.campaign,
        "role": role_of(request.user, run.campaign),
        **_result_context(run, can_design=can_design),
    }
    return render(request, template, context)


def _designer_run(request: HttpRequest, pk: int) -> RankingRun:
    run = _visible_run(request, pk)
    campaign_check(
        request.user, run.campaign, Role.DESIGNER, denied="Viewers cannot change ranking runs."
    )
    return run


@login_required
@require_http_methods(["POST"])
def run_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """Cancel a queued or running run (the computation stops at its next progress report)."""
    run = _designer_run(request, pk)
    try:
        ranking_run_cancel(run=run)
    except DomainError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Ranking run #{run.pk} cancelled.")
    return redirect("ranking:run", pk=run.pk)


@login_required
@require_http_methods(["POST"])
def run_retry(request: HttpRequest, pk: int) -> HttpResponse:
    """Queue a failed or cancelled run again with the same settings."""
    run = _designer_run(request, pk)
    try:
        ranking_run_retry(run=run, user=request.user)
    except DomainError as exc:
        messages.error(request, str(exc))
    return redirect("ranking:run", pk=run.pk)


@login_required
@require_http_methods(["GET", "POST"])
def run_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: a confirmation stating what is lost; POST: delete a finished run."""
    run = _designer_run(request, pk)
    if request.method == "POST":
        try:
            ranking_run_delete(run=run)
        except DomainError as exc:
            messages.error(request, str(exc))
            return redirect("ranking:run", pk=run.pk)
        messages.success(request, f"Ranking run #{pk} deleted.")
        return redirect("ranking:campaign-runs", slug=run.campaign.slug)
    return render(
        request,
        "ranking/run_delete.html",
        {
            "campaign": run.campaign,
            "role": role_of(request.user, run.campaign),
            "run": run,
            "n_results": run.results.count(),
            "ended": run.status in RankingRun.ENDED,
        },
    )


@login_required
def run_plot(request: HttpRequest, pk: int) -> HttpResponse:
    run = _visible_run(request, pk)
    if run.status != RankingRun.Status.DONE:
        raise Http404("The run has no result yet.")
    return HttpResponse(exports.run_plot(run=run), content_type="image/svg+xml")


@login_required
def run_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    run = _visible_run(request, pk)
    if fmt not in exports.EXPORT_TYPES:
        raise Http404(f"Unknown format '{fmt}'.")
    try:
        text = exports.run_export(run=run, fmt=fmt)
    except DomainError as exc:
        return HttpResponse(str(exc), status=400, content_type="text/plain")
    content_type, extension = exports.EXPORT_TYPES[fmt]
    name = f"{run.campaign.slug}-{run.criterion.name}-{run.method}-{run.pk}.{extension}"
    return file_response(text, content_type=content_type, filename=name, inline=fmt == "table")


@login_required
def run_compare(request: HttpRequest) -> HttpResponse:
    """Two runs side by side (e.g. wmt14 and bradley_terry on the same criterion)."""
    try:
        a, b = int(request.GET.get("a", "")), int(request.GET.get("b", ""))
    except ValueError as exc:
        raise Http404("Give two run ids as ?a=...&b=...") from exc
    runs = [_visible_run(request, a), _visible_run(request, b)]
    if runs[0].campaign_id != runs[1].campaign_id:
        messages.info(request, "These runs belong to different campaigns.")
    elif runs[0].criterion_id != runs[1].criterion_id:
        messages.info(request, "These runs rank different criteria.")
    return render(
        request,
        "ranking/compare.html",
        {
            "campaign": runs[0].campaign,
            "role": role_of(request.user, runs[0].campaign),
            "sides": [_result_context(r) for r in runs],
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def campaign_slices(request: HttpRequest, slug: str) -> HttpResponse:
    """A criterion ranked on every value of an item attribute, beside all items.

    GET ``?criterion=&by=``: the latest finished run on all items and on each value's
    slice, side by side (value and rank range per system). POST (designers): start the
    runs that are missing, with the run form's defaults (wmt14, 200 runs, seed 1).
    """
    campaign = campaign_for(request.user, slug, Role.VIEWER)
    attributes = item_attributes(campaign=campaign)
    criteria = [c.name for c in campaign.criteria.all()]
    source = request.POST if request.method == "POST" else request.GET
    name = source.get("criterion") or (criteria[0] if criteria else "")
    by = source.get("by") or (next(iter(attributes), ""))
    criterion = campaign.criteria.filter(name=name).first()
    error = ""
    if criterion is None and criteria:
        error = f"Campaign '{campaign.slug}' has no criterion '{name}'."
    elif by and by not in attributes:
        error = f"No item of this campaign has the attribute '{by}'."
    values = attributes.get(by, [])
    if request.method == "POST" and criterion is not None and not error:
        if not has_role(request.user, campaign, Role.DESIGNER):
            raise PermissionDenied("Viewers cannot start ranking runs.")
        have = selectors.ranking_runs_by_slice(criterion=criterion, attribute=by, values=values)
        done = [run.where for run in have]
        started, waiting = 0, 0
        refusal = ""
        slices: list[dict[str, str]] = [{}] + [{by: value} for value in values]
        for where in slices:
            if where in done:
                continue
            try:
                ranking_slice_check(criterion=criterion, where=where)
            except DomainError:
                continue  # a value without judgements of this criterion: nothing to rank
            if refusal:
                waiting += 1
                continue
            try:
                ranking_run_create(
                    campaign=campaign, criterion=criterion, user=request.user, where=where
                )
            except DomainError as exc:
                refusal = str(exc)
                waiting += 1
            else:
                started += 1
        if started:
            messages.success(
                request, f"{started} ranking run(s) started; they appear here when done."
            )
        if refusal:
            messages.error(
                request,
                f"{waiting} slice(s) not started yet: {refusal} Press the button again once "
                "the running ones are done.",
            )
        if not started and not refusal:
            messages.success(request, "Every slice already has a finished run.")
        return redirect(
            f"{reverse('ranking:campaign-slices', args=[campaign.slug])}?"
            + urlencode({"criterion": criterion.name, "by": by})
        )
    table = None
    missing: list[str] = []
    if criterion is not None and by and not error:
        runs = selectors.ranking_runs_by_slice(criterion=criterion, attribute=by, values=values)
        table = selectors.ranking_side_by_side(runs=runs) if runs else None
        shown = {describe(run.where) for run in runs}
        wanted: list[dict[str, str]] = [{}] + [{by: v} for v in values]
        missing = [describe(w) for w in wanted if describe(w) not in shown]
    return render(
        request,
        "ranking/slices.html",
        {
            "campaign": campaign,
            "role": role_of(request.user, campaign),
            "can_design": has_role(request.user, campaign, Role.DESIGNER),
            "attributes": attributes,
            "criteria": criteria,
            "criterion_name": name,
            "by": by,
            "error": error,
            "table": table,
            "missing": missing,
        },
        status=400 if error else 200,
    )


class PowerForm(forms.Form):
    share = forms.FloatField(
        min_value=0.51,
        max_value=0.99,
        initial=0.6,
        label="The better system wins",
        help_text="Share of two systems' comparisons the better one wins (e.g. 0.6).",
    )
    draws = forms.FloatField(
        min_value=0.0, max_value=0.9, initial=0.0, label="Share of draws", required=False
    )
    confidence = forms.FloatField(min_value=0.5, max_value=0.999, initial=0.95)
    power = forms.FloatField(min_value=0.5, max_value=0.99, initial=0.8)
    pay_per_hour = forms.FloatField(min_value=0, initial=12.0, label="Pay per hour")
    seconds_per_task = forms.IntegerField(
        min_value=1, required=False, label="Seconds per task (blank: the pilot's median)"
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        share, draws = data.get("share"), data.get("draws") or 0.0
        if share is not None and draws > 2 * (1 - share):
            self.add_error("draws", "More draws than the share allows (a draw counts half).")
        return data


@login_required
def campaign_power(request: HttpRequest, slug: str) -> HttpResponse:
    """How many judgements separate systems: a plan from an assumed share, and, for each
    criterion with judgements, what each system and the next still need. Also the panel
    the plan and monitor pages load (``#power-report``)."""
    campaign = campaign_for(request.user, slug, Role.VIEWER)
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
    reports = []
    for criterion in campaign.criteria.all():
        report = power_selectors.criterion_power(
            criterion=criterion,
            confidence=values["confidence"],
            power=values["power"],
            pay_per_hour=values["pay_per_hour"],
            seconds_per_task=values.get("seconds_per_task"),
        )
        if report is not None:
            reports.append(report)
    return render(
        request,
        "ranking/power.html",
        {
            "campaign": campaign,
            "role": role_of(request.user, campaign),
            "form": form,
            "plan": plan,
            "reports": reports,
            "currency": settings.PAYMENT_CURRENCY,
        },
        status=400 if form.errors else 200,
    )
