"""Pages of output uploads and their import jobs."""

from __future__ import annotations

from django.contrib import messages
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import redirect, render
from django.template.defaultfilters import pluralize
from django.views.decorators.http import require_POST

from annotations.access.pages import campaign_context, campaign_view
from annotations.forms.uploads import UploadForm
from annotations.importing import uploads as outputs_uploads
from annotations.models import (
    Campaign,
    CampaignMembership,
    ImportJob,
)
from annotations.selectors.jobs import import_job_by_id, import_job_progress
from annotations.services import outputs as outputs_services
from common.errors import DomainError, ImportFileError
from common.http import (
    HtmxHttpRequest,
)

Role = CampaignMembership.Role


@campaign_view(Role.DESIGNER)
@require_POST
def campaign_upload(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """Import uploaded outputs: small uploads during the request, larger ones (over
    ``IMPORT_INLINE_MAX_BYTES`` together) as a background job whose page shows progress.
    A refused file is a 4xx page naming the file, line and field; nothing is written."""
    form = UploadForm(request.POST, request.FILES)
    files = request.FILES.getlist("files")
    try:
        outcome = outputs_uploads.outputs_upload(campaign=campaign, files=files, user=request.user)
        if outcome.job is not None:
            return redirect(
                "annotations:designer-import-job", slug=campaign.slug, pk=outcome.job.pk
            )
        results = outcome.results
    except ImportFileError as exc:
        status = 413 if isinstance(exc, outputs_uploads.UploadTooLargeError) else 400
        context = campaign_context(request, campaign, import_error=exc, upload_form=form)
        return render(request, "annotations/uploads/upload_error.html", context, status=status)
    except DomainError as exc:
        status = 400 if not files else 409
        context = campaign_context(request, campaign, refusal=str(exc), upload_form=form)
        return render(request, "annotations/uploads/upload_error.html", context, status=status)
    outputs = sum(r.outputs for r in results)
    systems = sum(r.systems for r in results)
    items = sum(r.items for r in results)
    messages.success(
        request,
        f"Imported {_counted(outputs, 'output')}: {_counted(systems, 'new system')}, "
        f"{_counted(items, 'new item')}.",
    )
    unjudged = sorted({s for r in results for s in r.systems_not_in_tasks})
    if unjudged:
        messages.warning(request, _not_in_tasks(unjudged))
    for warning in (w for r in results for w in r.warnings):
        messages.warning(request, warning)
    return redirect("annotations:designer-campaign", slug=campaign.slug)


@campaign_view(Role.DESIGNER)
@require_POST
def campaign_outputs_remove(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """Undo the uploads of a draft: every output, item and system (and the tasks built
    from them) removed, so that a wrong file does not mean deleting the campaign."""
    try:
        removed = outputs_services.outputs_remove_all(campaign=campaign)
    except DomainError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            f"Removed {_counted(removed.outputs, 'output')} of "
            f"{_counted(removed.systems, 'system')} and {_counted(removed.items, 'item')}"
            + (
                f", and the {_counted(removed.tasks, 'task')} built from them"
                if removed.tasks
                else ""
            )
            + ". Upload the right file now.",
        )
    return redirect("annotations:designer-campaign", slug=campaign.slug)


def _not_in_tasks(labels: list[str]) -> str:
    return (
        f"The tasks were built before: no task shows {', '.join(labels)} yet. "
        "Rebuild the tasks, or these systems will never be judged."
    )


@campaign_view(Role.VIEWER)
def import_job(request: HtmxHttpRequest, campaign: Campaign, pk: int) -> HttpResponse:
    """A background import: a progress bar polling its own partial, then the result."""
    job = import_job_by_id(campaign, pk)
    if job is None:
        raise Http404("No such import job in this campaign.")
    done, total = import_job_progress(job=job)
    context = campaign_context(
        request,
        campaign,
        job=job,
        rows_done=done,
        rows_total=total,
        percent=int(100 * done / total) if total else 0,
        active=job.status in ImportJob.ACTIVE,
        not_in_tasks=_not_in_tasks(job.summary["systems_not_in_tasks"])
        if job.status == ImportJob.Status.DONE and job.summary.get("systems_not_in_tasks")
        else "",
    )
    template = "annotations/uploads/import_job.html"
    if request.htmx:
        template += "#import-job"
    return render(request, template, context)


def _counted(n: int, noun: str) -> str:
    """``"1 new system"``, ``"2 new systems"`` (the templates' ``pluralize``)."""
    return f"{n} {noun}{pluralize(n)}"
