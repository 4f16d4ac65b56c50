"""Pages of task designers and organizers: set-up, plan, monitoring, members, exports.

A user reaches a campaign only through ``campaigns_visible_to`` (others get a 404);
viewers read, designers change, owners also manage members (403 otherwise).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    StreamingHttpResponse,
)
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST
from rest_framework.authtoken.models import Token

from annotations import exports
from annotations.errors import DomainError, ImportFileError
from annotations.forms_designer import (
    CampaignCreateForm,
    CampaignDesignForm,
    CriterionForm,
    MemberForm,
    PlanForm,
    UploadForm,
)
from annotations.http import AuthenticatedHttpRequest, HtmxHttpRequest
from annotations.models import Campaign, CampaignMembership, Criterion, Task, Worker
from annotations.permissions import campaigns_visible_to, has_role, role_of
from annotations.selectors import monitoring
from annotations.services import designer as services

Role = CampaignMembership.Role
View = Callable[..., HttpResponseBase]


def campaign_view(role: str) -> Callable[[View], View]:
    """Log in, load the campaign by slug among the user's, and require ``role``."""

    def decorate(view: View) -> View:
        @login_required
        @functools.wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponseBase:
            campaign = get_object_or_404(campaigns_visible_to(request.user), slug=slug)
            if not has_role(request.user, campaign, role):
                raise PermissionDenied(f"This needs the {role} role in the campaign.")
            request.campaign_role = role_of(request.user, campaign)  # type: ignore[attr-defined]
            return view(request, campaign, *args, **kwargs)

        return wrapper

    return decorate


def _context(request: HttpRequest, campaign: Campaign, **extra: Any) -> dict[str, Any]:
    role = getattr(request, "campaign_role", None)
    return {
        "campaign": campaign,
        "role": role,
        "can_design": role in (Role.DESIGNER, Role.OWNER),
        "is_owner": role == Role.OWNER,
        **extra,
    }


def _error(request: HttpRequest, exc: DomainError) -> None:
    messages.error(request, str(exc))


def worker_links(request: HttpRequest, campaign: Campaign) -> list[dict[str, str]]:
    """The entry link for each accepted platform, absolute, ready to paste."""
    base = request.build_absolute_uri(f"/w/{campaign.slug}/")
    links = []
    if campaign.accept_prolific:
        links.append(
            {
                "platform": "Prolific",
                "url": base
                + "?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}",
                "note": "Paste as the study URL; Prolific fills in the IDs.",
            }
        )
    if campaign.accept_mturk:
        links.append(
            {
                "platform": "MTurk (ExternalQuestion)",
                "url": base,
                "note": (
                    "Use as the ExternalURL of an ExternalQuestion HIT; MTurk appends "
                    "assignmentId, hitId, workerId and turkSubmitTo."
                ),
                "xml": (
                    '<ExternalQuestion xmlns="http://mechanicalturk.amazonaws.com/'
                    'AWSMechanicalTurkDataSchemas/2006-07-14/ExternalQuestion.xsd">'
                    f"<ExternalURL>{base}</ExternalURL><FrameHeight>0</FrameHeight>"
                    "</ExternalQuestion>"
                ),
            }
        )
    if campaign.accept_link:
        links.append(
            {"platform": "Plain link", "url": base, "note": "Anyone with the link may take part."}
        )
    return links


# Campaign list, creation, overview ----------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def campaign_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = CampaignCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = services.campaign_start(user=request.user, **form.cleaned_data)
        except DomainError as exc:
            form.add_error("slug", str(exc))
        else:
            messages.success(request, f"Campaign “{campaign.name}” created. Upload outputs next.")
            return redirect("annotations:designer-campaign", slug=campaign.slug)
    return render(request, "annotations/designer/campaign_new.html", {"form": form})


@campaign_view(Role.VIEWER)
def campaign_detail(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    from ranking.models import RankingRun

    plan = monitoring.campaign_plan(campaign=campaign)
    context = _context(
        request,
        campaign,
        plan=plan,
        criteria=campaign.criteria.all(),
        systems=campaign.systems.all(),
        n_items=campaign.items.count(),
        upload_form=UploadForm(),
        links=worker_links(request, campaign),
        runs=RankingRun.objects.filter(campaign=campaign).select_related("criterion")[:10],
        methods=RankingRun.Method.choices,
        export_formats=exports.FORMATS,
    )
    return render(request, "annotations/designer/campaign_detail.html", context)


@campaign_view(Role.DESIGNER)
@require_POST
def campaign_upload(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, "Choose at least one file to upload.")
        return redirect("annotations:designer-campaign", slug=campaign.slug)
    try:
        results = services.outputs_upload(campaign=campaign, files=form.cleaned_data["files"])
    except ImportFileError as exc:
        context = _context(request, campaign, import_error=exc, upload_form=form)
        return render(request, "annotations/designer/upload_error.html", context, status=400)
    except DomainError as exc:
        _error(request, exc)
    else:
        outputs = sum(r.outputs for r in results)
        systems = sum(r.systems for r in results)
        items = sum(r.items for r in results)
        messages.success(
            request, f"Imported {outputs} outputs: {systems} new systems, {items} new items."
        )
    return redirect("annotations:designer-campaign", slug=campaign.slug)


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def campaign_settings(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    if request.method == "POST":
        if not has_role(request.user, campaign, Role.DESIGNER):
            raise PermissionDenied("Viewers cannot change settings.")
        form = CampaignDesignForm(request.POST, instance=Campaign.objects.get(pk=campaign.pk))
        if form.is_valid():
            fields = {name: form.cleaned_data[name] for name in form.changed_data}
            try:
                services.campaign_settings_update(campaign=campaign, **fields)
            except DomainError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, "Settings saved.")
                return redirect("annotations:designer-settings", slug=campaign.slug)
    else:
        form = CampaignDesignForm(instance=campaign)
    locked = campaign.tasks.exists()
    for name, (label, help_text) in SETTINGS_LABELS.items():
        if name in form.fields:
            form.fields[name].label = label
            form.fields[name].help_text = help_text or form.fields[name].help_text
    groups = [
        (title, note, [form[name] for name in names if name in form.fields])
        for title, note, names in SETTINGS_GROUPS
    ]
    return render(
        request,
        "annotations/designer/settings.html",
        _context(
            request,
            campaign,
            form=form,
            groups=groups,
            locked=locked,
            design_fields=services.DESIGN_FIELDS,
        ),
    )


# The design form's fields as an organizer reads them: grouped, in plain words.
SETTINGS_LABELS: dict[str, tuple[str, str]] = {
    "outputs_per_task": (
        "Outputs per task",
        "How many system outputs a worker scores side by side (RankME: 5).",
    ),
    "judgements_per_task": ("Judgements per task", "How many different workers judge each task."),
    "tasks_per_worker": ("Tasks per worker", "At most this many tasks for one worker."),
    "merge_identical_outputs": (
        "Show identical outputs of one item once",
        "The score then counts for each system that produced the text.",
    ),
    "assignment_timeout_minutes": (
        "Time allowed for a task (minutes)",
        "An unfinished task is handed to someone else after this.",
    ),
    "min_seconds_per_task": (
        "Minimum seconds per task",
        "Faster answers are warned about or refused; 0 turns the check off.",
    ),
    "min_time_policy": ("When a worker answers faster", ""),
    "attention_check_rate": (
        "Share of attention checks (0 to 1)",
        "Fraction of a worker's tasks that hold a degraded copy, which must score lower.",
    ),
    "repeat_rate": (
        "Share of repeated tasks (0 to 1)",
        "Fraction of a worker's tasks shown again to measure self-consistency.",
    ),
    "quality_threshold": (
        "Lowest attention-check pass rate (0 to 1)",
        "Workers below it are flagged (and stopped, if chosen below).",
    ),
    "stop_failed_workers": ("Stop workers who fall below it (they get the failed-check code)", ""),
    "accept_prolific": ("Prolific", ""),
    "accept_mturk": ("Amazon Mechanical Turk", ""),
    "accept_link": ("Anyone with the plain link", ""),
    "completion_code": ("Completion code", "Shown to workers who finish."),
    "failed_check_code": (
        "Failed-check code",
        "Shown to workers stopped by quality checks.",
    ),
    "consent_text": ("Consent text", "Shown before the first task; workers tick a box to agree."),
    "instructions": ("Instructions", "Shown before the first task and in MTurk previews."),
}
SETTINGS_GROUPS: list[tuple[str, str, list[str]]] = [
    ("The campaign", "", ["name", "description"]),
    (
        "Task design",
        "Fixed once tasks are built.",
        ["outputs_per_task", "judgements_per_task", "tasks_per_worker", "merge_identical_outputs"],
    ),
    (
        "Quality control",
        "Check and repeat shares are fixed once tasks are built.",
        ["attention_check_rate", "repeat_rate", "quality_threshold", "stop_failed_workers"],
    ),
    (
        "Timing",
        "",
        ["assignment_timeout_minutes", "min_seconds_per_task", "min_time_policy"],
    ),
    (
        "Where workers come from",
        "",
        ["accept_prolific", "accept_mturk", "accept_link", "completion_code", "failed_check_code"],
    ),
    ("What workers read", "", ["consent_text", "instructions"]),
]


# Criteria -----------------------------------------------------------------------------------


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def criteria(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    form = CriterionForm(request.POST or None)
    if request.method == "POST":
        if not has_role(request.user, campaign, Role.DESIGNER):
            raise PermissionDenied("Viewers cannot add criteria.")
        if form.is_valid():
            try:
                criterion = services.criterion_create(
                    campaign=campaign,
                    preset=form.cleaned_data.get("preset") or "",
                    **form.service_fields(),
                )
            except DomainError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, f"Criterion “{criterion.name}” added.")
                return redirect("annotations:designer-criteria", slug=campaign.slug)
    criteria = campaign.criteria.annotate(
        has_tasks=Exists(Task.objects.filter(criterion=OuterRef("pk")))
    )
    return render(
        request,
        "annotations/designer/criteria.html",
        _context(request, campaign, form=form, criteria=criteria),
    )


@campaign_view(Role.DESIGNER)
@require_http_methods(["GET", "POST"])
def criterion_edit(request: HttpRequest, campaign: Campaign, pk: int) -> HttpResponse:
    criterion = get_object_or_404(Criterion, campaign=campaign, pk=pk)
    form = CriterionForm(
        request.POST or None, editing=True, initial=CriterionForm.initial_for(criterion)
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.criterion_update(criterion=criterion, **form.service_fields(criterion))
        except DomainError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"Criterion “{criterion.name}” saved.")
            return redirect("annotations:designer-criteria", slug=campaign.slug)
    return render(
        request,
        "annotations/designer/criterion_edit.html",
        _context(request, campaign, form=form, criterion=criterion),
    )


@campaign_view(Role.DESIGNER)
@require_POST
def criterion_delete(request: HttpRequest, campaign: Campaign, pk: int) -> HttpResponse:
    criterion = get_object_or_404(Criterion, campaign=campaign, pk=pk)
    try:
        services.criterion_delete(criterion=criterion)
    except DomainError as exc:
        _error(request, exc)
    else:
        messages.success(request, f"Criterion “{criterion.name}” removed.")
    return redirect("annotations:designer-criteria", slug=campaign.slug)


# Plan, build, life cycle ---------------------------------------------------------------------


@campaign_view(Role.VIEWER)
def campaign_plan(request: HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    form = PlanForm(request.GET or None)
    pay = Decimal(12)
    seconds = None
    if form.is_valid():
        pay = form.cleaned_data.get("pay_per_hour") or Decimal(0)
        seconds = form.cleaned_data.get("seconds_per_task")
    plan = monitoring.campaign_plan(
        campaign=campaign,
        pay_per_hour=float(pay),
        seconds_per_task=float(seconds) if seconds else None,
    )
    if form.is_bound is False:
        form = PlanForm(
            initial={"pay_per_hour": pay, "seconds_per_task": int(plan.seconds_per_task)}
        )
    context = _context(request, campaign, form=form, plan=plan)
    template = "annotations/designer/plan.html"
    if request.htmx:
        template += "#plan-result"
    return render(request, template, context)


def _lifecycle(action: Callable[..., Any], done: str) -> View:
    @campaign_view(Role.DESIGNER)
    @require_POST
    def view(request: HttpRequest, campaign: Campaign) -> HttpResponse:
        try:
            result = action(campaign=campaign)
        except DomainError as exc:
            _error(request, exc)
        else:
            summary = getattr(result, "summary", None)
            messages.success(request, done + (f" {summary}" if isinstance(summary, str) else ""))
        return redirect("annotations:designer-campaign", slug=campaign.slug)

    return view


campaign_build = _lifecycle(services.campaign_tasks_build, "Tasks built.")
campaign_launch = _lifecycle(services.campaign_launch, "The campaign is live.")
campaign_pause = _lifecycle(services.campaign_pause, "The campaign is paused.")
campaign_close = _lifecycle(services.campaign_close, "The campaign is closed.")


# Monitoring ----------------------------------------------------------------------------------


@campaign_view(Role.VIEWER)
def campaign_monitor(request: HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    """Progress (polled every few seconds while the campaign can still change), then the
    comparison matrix, agreement and worker table, computed once per page load: they read
    every judgement of the campaign, too much to redo on each poll."""
    throughput = monitoring.campaign_throughput(campaign=campaign)
    context = _context(
        request,
        campaign,
        progress=monitoring.campaign_progress(campaign=campaign),
        throughput=throughput,
        peak=max((n for _, n in throughput), default=0),
        poll=campaign.status != Campaign.Status.CLOSED,
    )
    if request.htmx:
        return render(request, "annotations/designer/monitor.html#live", context)
    criteria = list(campaign.criteria.all())
    chosen = request.GET.get("criterion")
    criterion = next((c for c in criteria if c.name == chosen), criteria[0] if criteria else None)
    judgements = monitoring.campaign_judgements(campaign=campaign)
    context.update(
        criteria=criteria,
        criterion=criterion,
        matrix=monitoring.comparison_matrix(criterion=criterion) if criterion else None,
        workers=monitoring.worker_table(campaign=campaign, judgements=judgements),
        agreement=monitoring.campaign_agreement(campaign=campaign, judgements=judgements),
    )
    return render(request, "annotations/designer/monitor.html", context)


@campaign_view(Role.DESIGNER)
@require_POST
def worker_mark(request: HtmxHttpRequest, campaign: Campaign, pk: int) -> HttpResponse:
    worker = get_object_or_404(Worker, campaign=campaign, pk=pk)
    action = request.POST.get("action", "")
    changes = {
        "flag": {"flagged": True},
        "unflag": {"flagged": False},
        "exclude": {"excluded": True},
        "include": {"excluded": False},
    }.get(action)
    if changes is None:
        return HttpResponse("Unknown action; use flag, unflag, exclude or include.", status=400)
    services.worker_mark(worker=worker, **changes)
    if request.htmx:
        row = next(
            r
            for r in monitoring.worker_table(
                campaign=campaign, workers=Worker.objects.filter(pk=worker.pk)
            )
        )
        return render(
            request,
            "annotations/designer/monitor.html#worker-row",
            _context(request, campaign, w=row),
        )
    messages.success(request, f"Worker {worker.external_id}: {action}ed.")
    return redirect(reverse("annotations:designer-monitor", args=[campaign.slug]) + "#workers")


# Members -------------------------------------------------------------------------------------


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def campaign_members(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    # The least power by default: adding someone should not make them an owner by accident.
    form = MemberForm(request.POST or None, initial={"role": Role.VIEWER})
    if request.method == "POST":
        if not has_role(request.user, campaign, Role.OWNER):
            raise PermissionDenied("Only owners manage members.")
        if form.is_valid():
            try:
                services.membership_set(campaign=campaign, **form.cleaned_data)
            except DomainError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, "Member saved.")
                return redirect("annotations:designer-members", slug=campaign.slug)
    memberships = campaign.memberships.select_related("user").order_by("role", "user__username")
    return render(
        request,
        "annotations/designer/members.html",
        _context(request, campaign, form=form, memberships=memberships),
    )


@campaign_view(Role.OWNER)
@require_POST
def member_remove(request: HttpRequest, campaign: Campaign, pk: int) -> HttpResponse:
    membership = get_object_or_404(CampaignMembership, campaign=campaign, pk=pk)
    try:
        services.membership_remove(membership=membership)
    except DomainError as exc:
        _error(request, exc)
    return redirect("annotations:designer-members", slug=campaign.slug)


# Exports -------------------------------------------------------------------------------------


def export_response(
    criterion: Criterion, fmt: str, include_excluded: bool = True
) -> StreamingHttpResponse:
    """A streamed download of a criterion's raw judgements (shared with the API)."""
    if fmt not in exports.FORMATS:
        raise DomainError(
            f"Unknown export format '{fmt}'; choose one of {', '.join(exports.FORMATS)}."
        )
    response = StreamingHttpResponse(
        exports.export_lines(criterion=criterion, fmt=fmt, include_excluded=include_excluded),
        content_type=exports.FORMATS[fmt][0],
    )
    filename = exports.export_filename(criterion=criterion, fmt=fmt)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@campaign_view(Role.VIEWER)
def campaign_export(request: HttpRequest, campaign: Campaign) -> HttpResponseBase:
    criterion = campaign.criteria.filter(name=request.GET.get("criterion", "")).first()
    if criterion is None:
        raise Http404("No such criterion in this campaign.")
    fmt = request.GET.get("format", "csv")
    include_excluded = request.GET.get("include_excluded", "1") not in ("0", "false", "")
    try:
        return export_response(criterion, fmt, include_excluded)
    except DomainError as exc:
        return HttpResponse(str(exc), status=400, content_type="text/plain")


# Account -------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def account(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The user's page: their API token (POST makes a new one, revoking the old)."""
    token = Token.objects.filter(user=request.user).first()
    if request.method == "POST":
        if token is not None:
            token.delete()
        token = Token.objects.create(user=request.user)
        messages.success(request, "A new API token was created; the old one no longer works.")
        return HttpResponseRedirect(reverse("annotations:designer-account"))
    return render(
        request,
        "annotations/designer/account.html",
        {"token": token, "campaigns": campaigns_visible_to(request.user)},
    )
