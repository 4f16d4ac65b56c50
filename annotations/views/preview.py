"""The designer's preview of what a worker sees: the consent and instructions page, and
the real task page of a task of the campaign (or, before tasks are built, a sample task).
Nothing is recorded. The task preview is served under the workers' ``/w/<slug>/preview/``
(the designer signs in as for any campaign page)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from annotations.access import campaigns as access
from annotations.access.pages import campaign_view
from annotations.access.workers import consent_page, problem_page
from annotations.forms.judgements import ScoresForm, task_page
from annotations.forms.sessions import ConsentForm
from annotations.models import Assignment, Campaign, CampaignMembership, Task
from annotations.selectors import campaigns as campaign_selectors
from annotations.selectors import criteria as criteria_selectors
from annotations.selectors import judgements as judgement_selectors
from annotations.selectors import sessions as session_selectors
from common.converters import whole_number
from common.http import HtmxHttpRequest

Role = CampaignMembership.Role


@campaign_view(Role.VIEWER)
def campaign_preview_intro(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """The worker's consent and instructions page as workers see it. Records nothing;
    its Start button leads to the task preview (which works before tasks are built)."""
    criteria = criteria_selectors.criteria_in_order(campaign=campaign)
    return consent_page(
        request,
        campaign,
        criteria,
        form=ConsentForm(),
        progress=None,
        preview=True,
        # set-up 2 with several criteria: a worker reads one of these, not all
        one_each=campaign.setup == Campaign.Setup.SEPARATE and len(criteria) > 1,
    )


@login_required
@require_http_methods(["GET", "POST"])
def campaign_preview_task(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The real task page for a task of the campaign, for designers. Records nothing."""
    try:
        campaign = access.campaign_for(request.user, slug, CampaignMembership.Role.VIEWER)
    except (Http404, PermissionDenied):
        return problem_page(request, "unknown", status=404)
    raw_id = request.GET.get("task", "")
    task = judgement_selectors.preview_task(
        campaign=campaign,
        task_id=whole_number(raw_id),
        criterion_name=request.GET.get("criterion") or None,
    )
    group = judgement_selectors.group_tasks(task=task) if task is not None else []
    if len(group) > 1:
        return _preview_together(request, campaign, group)
    if task is None:
        # Before tasks are built: a sample task made from the uploaded outputs.
        sample = campaign_selectors.sample_task_page(
            campaign=campaign, criterion_name=request.GET.get("criterion") or None
        )
        if sample is None:
            return problem_page(request, "no-tasks", campaign)
        page = sample
    else:
        page = judgement_selectors.task_page_preview(task=task)
    following = judgement_selectors.preview_next_task(task=task) if task is not None else None
    data = request.POST if request.method == "POST" else None
    form = ScoresForm(data, criterion=page.criterion, letters=page.letters)
    checked = data is not None and form.is_valid()
    status = 200 if data is None or checked or request.htmx else 400
    progress = session_selectors.Progress(done=0, total=campaign.tasks_per_worker)
    template, context = task_page(
        request,
        [(None, page, form)],
        progress,
        action=request.get_full_path(),
        preview=True,
        preview_ok=checked,
        preview_criteria=criteria_selectors.criteria_in_order(campaign=campaign),
        preview_item=page.item.external_id if task is not None else "",
        preview_next=following,
        preview_sample=task is None,
    )
    return render(request, template, context, status=status)


def _preview_together(
    request: HtmxHttpRequest, campaign: Campaign, group: list[Task]
) -> HttpResponse:
    """A designer's preview of a set-up 1 page: the group's tasks as one page, unrecorded."""
    data = request.POST if request.method == "POST" else None
    forms: list[tuple[Assignment | None, judgement_selectors.TaskPage, ScoresForm]] = []
    for task in group:
        page = judgement_selectors.task_page_preview(task=task)
        prefix = f"c{page.criterion.pk}"
        form = ScoresForm(data, criterion=page.criterion, letters=page.letters, prefix=prefix)
        forms.append((None, page, form))
    checked = data is not None and all([form.is_valid() for _, _, form in forms])
    template, context = task_page(
        request,
        forms,
        session_selectors.Progress(done=0, total=campaign.tasks_per_worker),
        action=request.get_full_path(),
        preview=True,
        preview_ok=checked,
    )
    status = 200 if data is None or checked or request.htmx else 400
    return render(request, template, context, status=status)
