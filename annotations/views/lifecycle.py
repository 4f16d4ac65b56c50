"""Lifecycle buttons: build the tasks, launch, pause, close, archive, unarchive."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from annotations.access.pages import campaign_view
from annotations.importing import jobs as import_jobs
from annotations.models import Campaign, CampaignMembership, ImportJob
from annotations.services import campaigns as campaign_services
from common.errors import DomainError

Role = CampaignMembership.Role
View = Callable[..., HttpResponseBase]


def _lifecycle(action: Callable[..., Any], done: str) -> View:
    @campaign_view(Role.DESIGNER)
    @require_POST
    def view(request: HttpRequest, campaign: Campaign) -> HttpResponse:
        try:
            result = action(campaign=campaign)
        except DomainError as exc:
            messages.error(request, str(exc))
        else:
            summary = getattr(result, "summary", None)
            messages.success(request, done + (f" {summary}" if isinstance(summary, str) else ""))
        return redirect("annotations:designer-campaign", slug=campaign.slug)

    return view


@campaign_view(Role.DESIGNER)
@require_POST
def campaign_build(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """Build the tasks: during the request when there are few (at most
    ``BUILD_INLINE_MAX_TASKS``), else as a background job (``importing.jobs``, the large
    imports' mechanism) whose page shows its progress."""
    try:
        report = import_jobs.campaign_tasks_build_or_queue(
            campaign=campaign, user=request.user, design=request.POST.get("design")
        )
    except DomainError as exc:
        messages.error(request, str(exc))
    else:
        if isinstance(report, ImportJob):
            return redirect("annotations:designer-import-job", slug=campaign.slug, pk=report.pk)
        summary = getattr(report, "summary", None)
        messages.success(
            request, "Tasks built." + (f" {summary}" if isinstance(summary, str) else "")
        )
    return redirect("annotations:designer-campaign", slug=campaign.slug)


campaign_launch = _lifecycle(campaign_services.campaign_launch, "The campaign is live.")
campaign_pause = _lifecycle(campaign_services.campaign_pause, "The campaign is paused.")
campaign_close = _lifecycle(campaign_services.campaign_close, "The campaign is closed.")
campaign_archive = _lifecycle(
    campaign_services.campaign_archive,
    "The campaign is archived: it is read-only and off your list.",
)
campaign_unarchive = _lifecycle(
    campaign_services.campaign_unarchive, "The campaign is restored (closed)."
)
