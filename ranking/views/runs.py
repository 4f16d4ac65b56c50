"""Ranking pages: start a run, follow its progress, cancel, retry or delete it, read and
export its result, compare two."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from annotations.access.pages import campaign_context, campaign_require, campaign_view
from annotations.models import Campaign, CampaignMembership
from annotations.selectors.criteria import criterion_by_name, criterion_missing
from common.errors import DomainError
from common.forms import form_refused
from common.http import HtmxHttpRequest, file_response
from ranking.exports import runs as exports
from ranking.forms.runs import RankingRunForm
from ranking.models import RankingRun
from ranking.selectors import runs as selectors
from ranking.selectors.content_checks import content_check_summary
from ranking.selectors.data_rule import ranking_data_rule
from ranking.selectors.sweep import ranking_runs_as_swept
from ranking.services.runs import (
    ranking_run_cancel,
    ranking_run_create,
    ranking_run_delete,
    ranking_run_retry,
)

Role = CampaignMembership.Role


def _visible_run(request: HttpRequest, pk: int) -> RankingRun:
    return get_object_or_404(selectors.ranking_runs_visible_to(user=request.user), pk=pk)


# Pages ----------------------------------------------------------------------------------------


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def campaign_runs(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """A campaign's ranking runs and the form to start one (designers). A run whose
    worker was lost shows as failed; starting a run sweeps it (``ranking_run_create``)."""
    form = RankingRunForm(request.POST or None, campaign=campaign)
    if request.method == "POST":
        campaign_require(
            request, campaign, Role.DESIGNER, denied="Viewers cannot start ranking runs."
        )
        if form.is_valid():
            data = form.cleaned_data
            try:
                criterion = criterion_by_name(campaign, data["criterion"])
                if criterion is None:  # offered by the form, deleted since
                    raise criterion_missing(campaign, data["criterion"])
                run = ranking_run_create(
                    campaign=campaign,
                    criterion=criterion,
                    method=data["method"],
                    runs=data["runs"],
                    seed=data["seed"],
                    confidence=data["confidence"],
                    exclude_flagged=data["exclude_flagged"],
                    user=request.user,
                    where=data["where"],
                )
            except DomainError as exc:
                form_refused(form, exc)
            else:
                return redirect("ranking:run", pk=run.pk)
    runs = selectors.ranking_runs_recent(campaign=campaign, limit=None)
    return render(
        request,
        "ranking/runs/campaign_runs.html",
        campaign_context(
            request,
            campaign,
            form=form,
            runs=runs,
            max_active=settings.RANKING_MAX_ACTIVE_RUNS_PER_USER,
        ),
    )


def run_is_stable(run: RankingRun) -> bool | None:
    """Whether a finished run's clusters are stable: its two random halves of the runs give
    the same clusters and no boundary decision rests near the cut (the split-half check
    ``ranking.stats.compute`` stores); None when the run stored no stability check."""
    stability = run.stability or {}
    return bool(stability["stable"]) if "stable" in stability else None


def _result_context(run: RankingRun, *, can_design: bool = False) -> dict[str, Any]:
    done = run.status == RankingRun.Status.DONE
    rule = ranking_data_rule(run=run) if done else None
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
        "checks": content_check_summary(run=run) if done else None,
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
    """The run's result; while it runs, a progress bar that polls its own partial. A run
    whose worker was lost shows as failed, as the sweep will store it (a GET writes
    nothing; retrying or deleting it sweeps first)."""
    run = _visible_run(request, pk)
    ranking_runs_as_swept(runs=[run])
    context = campaign_context(request, run.campaign)
    context.update(_result_context(run, can_design=bool(context["can_design"])))
    template = "ranking/runs/run_detail.html"
    if request.htmx:
        template += "#run-result"
    return render(request, template, context)


def _designer_run(request: HttpRequest, pk: int) -> RankingRun:
    run = _visible_run(request, pk)
    campaign_require(
        request, run.campaign, Role.DESIGNER, denied="Viewers cannot change ranking runs."
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
    ranking_runs_as_swept(runs=[run])  # a lost run has ended: the POST sweeps it first
    return render(
        request,
        "ranking/runs/run_delete.html",
        campaign_context(
            request,
            run.campaign,
            run=run,
            n_results=selectors.ranking_run_result_count(run=run),
            ended=run.status in RankingRun.ENDED,
        ),
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
        "ranking/runs/compare.html",
        campaign_context(request, runs[0].campaign, sides=[_result_context(r) for r in runs]),
    )
