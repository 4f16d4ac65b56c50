"""The monitor page: progress, quality and each worker (exclude, re-include)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from annotations.access.pages import campaign_context, campaign_view
from annotations.models import (
    Campaign,
    CampaignMembership,
    Worker,
)
from annotations.selectors import agreement as agreement_selectors
from annotations.selectors import criteria as criteria_selectors
from annotations.selectors import languages as language_selectors
from annotations.selectors import monitor as monitor_selectors
from annotations.selectors import workers as worker_selectors
from annotations.services import workers as worker_services
from common.errors import DomainError
from common.http import (
    HtmxHttpRequest,
)

Role = CampaignMembership.Role


# Monitoring ----------------------------------------------------------------------------------


@campaign_view(Role.VIEWER)
def campaign_monitor(request: HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    """Progress (polled every few seconds while the campaign can still change), then the
    comparison matrix, agreement and worker table, computed once per page load: they read
    every judgement of the campaign, too much to redo on each poll."""
    throughput = monitor_selectors.campaign_throughput(campaign=campaign)
    progress = monitor_selectors.campaign_progress(campaign=campaign)
    context = campaign_context(
        request,
        campaign,
        progress=progress,
        totals=monitor_selectors.progress_totals(progress=progress),
        languages=(
            language_selectors.language_progress(campaign=campaign)
            if campaign.is_multilingual
            else []
        ),
        throughput=throughput,
        peak=max((n for _, n in throughput), default=0),
        poll=not campaign.has_ended,
    )
    if request.htmx:
        return render(request, "annotations/monitor/monitor.html#live", context)
    criteria = criteria_selectors.criteria_in_order(campaign=campaign)
    # A criterion the campaign does not have shows the first, as no choice does.
    criterion = criteria_selectors.criterion_chosen(
        campaign=campaign, criteria=criteria, name=request.GET.get("criterion"), strict=False
    )
    judgements = monitor_selectors.campaign_judgements(campaign=campaign)
    context.update(
        criteria=criteria,
        criterion=criterion,
        matrix=monitor_selectors.comparison_matrix(criterion=criterion) if criterion else None,
        workers=monitor_selectors.worker_table(campaign=campaign, judgements=judgements),
        agreement=agreement_selectors.campaign_agreement(campaign=campaign, judgements=judgements),
        slices=agreement_selectors.agreement_by_slice(campaign=campaign, judgements=judgements),
    )
    return render(request, "annotations/monitor/monitor.html", context)


@campaign_view(Role.DESIGNER)
@require_POST
def worker_mark(request: HtmxHttpRequest, campaign: Campaign, pk: int) -> HttpResponse:
    worker = worker_selectors.worker_by_id(campaign, pk)
    if worker is None:
        raise Http404("No such worker in this campaign.")
    action = request.POST.get("action", "")
    changes: dict[str, Callable[[], Worker]] = {
        "flag": lambda: worker_services.worker_mark(worker=worker, flagged=True),
        "unflag": lambda: worker_services.worker_mark(worker=worker, flagged=False),
        "exclude": lambda: worker_services.worker_exclude(
            worker=worker, reason=request.POST.get("reason", "")
        ),
        "include": lambda: worker_services.worker_include(worker=worker),
        "release": lambda: worker_services.worker_release_identity(
            worker=worker,
            reason=request.POST.get("reason", ""),
            owner_session=request.POST.get("owner_session", ""),
        ),
        "expert": lambda: worker_services.worker_mark(worker=worker, expert=True),
        "unexpert": lambda: worker_services.worker_mark(worker=worker, expert=False),
    }
    if action not in changes:
        return HttpResponse(
            "Unknown action; use flag, unflag, exclude, release, include, expert or unexpert.",
            status=400,
        )
    error = ""
    marked = worker  # a release renames the worker's id: show the record as it is now
    try:
        marked = changes[action]()
    except DomainError as exc:
        error = str(exc)
    if request.htmx:
        row = monitor_selectors.worker_rows(campaign=campaign, workers=[marked])[0]
        return render(
            request,
            "annotations/monitor/monitor.html#worker-row",
            campaign_context(request, campaign, w=row, row_error=error),
        )
    if error:
        messages.error(request, f"Worker {worker.external_id}: {error}")
    else:
        done = {
            "flag": "flagged",
            "unflag": "unflagged",
            "exclude": "excluded",
            "release": "excluded, and its id is free for its owner",
            "expert": "marked an expert",
            "unexpert": "no longer an expert",
        }
        messages.success(request, f"Worker {worker.external_id}: {done.get(action, 'included')}.")
    return redirect(reverse("annotations:designer-monitor", args=[campaign.slug]) + "#workers")
