"""Lifecycle buttons: build the tasks, launch, pause, close, archive, unarchive."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
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
from annotations.models import (
    Campaign,
    CampaignMembership,
)
from annotations.services import campaigns as campaign_services
from annotations.services import tasks as task_services
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
        if (
            task_services.campaign_tasks_estimate(campaign=campaign)
            > settings.BUILD_INLINE_MAX_TASKS
        ):
            task_services.campaign_tasks_build_check(campaign=campaign)
            job = import_jobs.job_active(campaign=campaign, kind="build") or import_jobs.job_create(
                campaign=campaign, kind="build", title="the tasks", user=request.user
            )
            return redirect("annotations:designer-import-job", slug=campaign.slug, pk=job.pk)
        report = task_services.campaign_tasks_build(campaign=campaign)
    except DomainError as exc:
        messages.error(request, str(exc))
    else:
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
