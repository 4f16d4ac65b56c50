"""Pages of task designers and organizers: set-up, plan, monitoring, members, exports.

A user reaches a campaign only through ``access.campaign_for`` (others get a 404);
viewers read, designers change, owners also manage members (403 otherwise).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db.models import Exists, OuterRef
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
)
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST
from rest_framework.authtoken.models import Token

from annotations import exports
from annotations.access import (
    ROLE_POWERS,
    campaign_check,
    campaign_for,
    campaigns_visible_to,
    has_role,
    role_label,
    role_of,
)
from annotations.core.slices import SliceError, parse_where
from annotations.forms_accounts import InvitationForm, PaymentDecisionsForm, SignUpForm
from annotations.forms_designer import (
    CampaignCloneForm,
    CampaignCreateForm,
    CampaignDesignForm,
    CriterionForm,
    CriterionPresetForm,
    MemberForm,
    PlanForm,
    UploadForm,
)
from annotations.importing import jobs as import_jobs
from annotations.importing import uploads as outputs_uploads
from annotations.models import (
    Campaign,
    CampaignInvitation,
    CampaignMembership,
    Criterion,
    ImportJob,
    Output,
    Task,
    Worker,
)
from annotations.selectors import campaigns as campaign_selectors
from annotations.selectors import languages as language_selectors
from annotations.selectors import memberships as member_selectors
from annotations.selectors import monitoring
from annotations.selectors import payments as payment_selectors
from annotations.selectors import platforms as platform_selectors
from annotations.services import campaigns as campaign_services
from annotations.services import criteria as criteria_services
from annotations.services import memberships as membership_services
from annotations.services import payments as payment_services
from annotations.services import tasks as task_services
from annotations.services import workers as worker_services
from annotations.services.campaigns import CampaignSettingsError
from common.errors import DomainError, ImportFileError
from common.http import (
    AuthenticatedHttpRequest,
    HtmxHttpRequest,
    file_response,
    streamed_file_response,
)

Role = CampaignMembership.Role
View = Callable[..., HttpResponseBase]


def campaign_view(role: str) -> Callable[[View], View]:
    """Log in, load the campaign by slug among the user's, and require ``role``."""

    def decorate(view: View) -> View:
        @login_required
        @functools.wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponseBase:
            campaign = campaign_for(request.user, slug, role)
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
        "role_label": role_label(role),
        # Pay and costs are in the platform's currency (Prolific's studies: GBP).
        "currency": settings.PAYMENT_CURRENCY,
        **extra,
    }


def _error(request: HttpRequest, exc: DomainError) -> None:
    messages.error(request, str(exc))


def _act(request: HttpRequest, service: Callable[[], object], *, done: str = "") -> None:
    """Run a button's service; say ``done`` after it, or the refusal (a ``DomainError``)."""
    try:
        service()
    except DomainError as exc:
        _error(request, exc)
    else:
        if done:
            messages.success(request, done)


# Campaign list, creation, overview ----------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def campaign_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = CampaignCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = campaign_services.campaign_start(user=request.user, **form.cleaned_data)
        except DomainError as exc:
            form.add_error("slug", str(exc))
        else:
            messages.success(request, f"Campaign “{campaign.name}” created. Upload outputs next.")
            return redirect("annotations:designer-campaign", slug=campaign.slug)
    return render(request, "annotations/designer/campaign_new.html", {"form": form})


@campaign_view(Role.VIEWER)
def campaign_detail(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    plan = monitoring.campaign_plan(campaign=campaign)
    systems = campaign.systems.all()
    criteria = campaign.criteria.all()
    # The one step a draft needs next gets the primary button (the others are secondary).
    next_step = ""
    if campaign.status == Campaign.Status.DRAFT:
        if not systems.exists():
            next_step = "upload"
        elif not criteria.exists():
            next_step = "criteria"
        elif not plan.built:
            next_step = "build"
        else:
            next_step = "launch"
    elif campaign.status == Campaign.Status.PAUSED:
        next_step = "launch"
    context = _context(
        request,
        campaign,
        plan=plan,
        next_step=next_step,
        totals=monitoring.campaign_totals(campaign=campaign),
        criteria=criteria,
        systems=systems,
        n_items=campaign.items.count(),
        upload_form=UploadForm(),
        links=platform_selectors.entry_links(
            campaign=campaign,
            entry_url=request.build_absolute_uri(platform_selectors.entry_path(campaign=campaign)),
        ),
        export_formats=exports.FORMATS,
    )
    return render(request, "annotations/designer/campaign_detail.html", context)


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
        context = _context(request, campaign, import_error=exc, upload_form=form)
        return render(request, "annotations/designer/upload_error.html", context, status=status)
    except DomainError as exc:
        status = 400 if not files else 409
        context = _context(request, campaign, refusal=str(exc), upload_form=form)
        return render(request, "annotations/designer/upload_error.html", context, status=status)
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
    return redirect("annotations:designer-campaign", slug=campaign.slug)


def _not_in_tasks(labels: list[str]) -> str:
    return (
        f"The tasks were built before: no task shows {', '.join(labels)} yet. "
        "Rebuild the tasks, or these systems will never be judged."
    )


@campaign_view(Role.VIEWER)
def import_job(request: HtmxHttpRequest, campaign: Campaign, pk: int) -> HttpResponse:
    """A background import: a progress bar polling its own partial, then the result."""
    job = get_object_or_404(ImportJob, campaign=campaign, pk=pk)
    done, total = import_jobs.import_job_progress(job=job)
    context = _context(
        request,
        campaign,
        job=job,
        rows_done=done,
        rows_total=total,
        percent=int(100 * done / total) if total else 0,
        active=job.status in (ImportJob.Status.PENDING, ImportJob.Status.RUNNING),
        not_in_tasks=_not_in_tasks(job.summary["systems_not_in_tasks"])
        if job.status == ImportJob.Status.DONE and job.summary.get("systems_not_in_tasks")
        else "",
    )
    template = "annotations/designer/import_job.html"
    if request.htmx:
        template += "#import-job"
    return render(request, template, context)


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def campaign_settings(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """The design form. Settings that can no longer change are disabled and shown as
    text (the service refuses them too); every impossible setting is named on its field."""
    fixed = campaign_services.campaign_fixed_fields(campaign=campaign)
    if request.method == "POST":
        campaign_check(
            request.user, campaign, Role.DESIGNER, denied="Viewers cannot change settings."
        )
        form = CampaignDesignForm(
            request.POST, instance=Campaign.objects.get(pk=campaign.pk), fixed=fixed
        )
        if form.is_valid():
            fields = {name: form.cleaned_data[name] for name in form.changed_data}
            try:
                campaign_services.campaign_settings_update(campaign=campaign, **fields)
            except CampaignSettingsError as exc:
                for name, reason in exc.problems.items():
                    field = name if name in form.fields else None
                    form.add_error(field, reason[:1].upper() + reason[1:])
            except DomainError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, "Settings saved.")
                return redirect("annotations:designer-settings", slug=campaign.slug)
    else:
        # A viewer reads every setting as text: no input they could not save.
        shown_fixed = (
            fixed
            if has_role(request.user, campaign, Role.DESIGNER)
            else frozenset(CampaignDesignForm.base_fields)
        )
        form = CampaignDesignForm(instance=campaign, fixed=shown_fixed)
    locked = bool(fixed)
    groups = [
        (title, note, [(field, _shown(field)) for field in fields])
        for title, note, fields in form.groups()
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
            design_fields=fixed,
        ),
    )


def _shown(field: Any) -> str:
    """A fixed setting's value as the page shows it (read-only text, not an input)."""
    if not field.field.disabled:
        return ""
    value = field.value()
    if isinstance(field.field, forms.BooleanField):
        return "Yes" if value else "No"
    choices = dict(getattr(field.field, "choices", []) or [])
    return str(choices.get(value, value)) if value not in (None, "") else "—"


# Criteria -----------------------------------------------------------------------------------


STANDARD_SEARCH = "search-standard"  # the criterion form's action that only searches


def _standard_picker(
    request: HttpRequest, campaign: Campaign, current: int | None = None
) -> tuple[list[Output], dict[str, Any]]:
    """The outputs the standard picker lists: those matching ``standard_q`` (an item's
    id or a text; all when blank), first 200, plus the criterion's current standard and
    the one just chosen; and what the page says about them."""
    query = (request.GET.get("standard_q") or request.POST.get("standard_q") or "").strip()
    query = query[:200]
    chosen = request.POST.get("standard_output") or request.GET.get("standard_output") or ""
    include = [current, int(chosen) if chosen.isdigit() else None]
    outputs = criteria_services.standard_candidates(campaign=campaign, query=query, include=include)
    total = criteria_services.standard_candidates_total(campaign=campaign, query=query)
    return outputs, {"standard_q": query, "standard_total": total, "standard_chosen": chosen}


def _standard_search(
    request: HttpRequest, form_kwargs: dict[str, Any], outputs: list[Output], initial: Any
) -> CriterionForm:
    """The criterion form as posted, unsaved and unchecked, listing the search's outputs
    (the search button of a page without JavaScript posts the whole form)."""
    posted = {
        **initial,
        **request.POST.dict(),
        "content_checks": request.POST.getlist("content_checks"),
    }
    return CriterionForm(None, outputs=outputs, initial=posted, **form_kwargs)


def _standard_partial(
    request: HttpRequest,
    campaign: Campaign,
    outputs: list[Output],
    extra: dict[str, Any],
    **kw: Any,
) -> HttpResponse:
    """The picker alone (htmx search): the select, and how many outputs match."""
    form = CriterionForm(
        None, outputs=outputs, initial={"standard_output": extra["standard_chosen"]}, **kw
    )
    context = _context(request, campaign, form=form, outputs=outputs, **extra)
    return render(request, "annotations/designer/_criterion_fields.html#standard-picker", context)


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def criteria(request: HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    """The criteria and the form to add one. ``?preset=`` fills the form from a preset
    (a plain GET without JavaScript; with htmx only the form is swapped); nothing is
    saved until the filled form, as shown, is posted. The standard picker searches all
    outputs (``standard_q``: with htmx only the picker is swapped; without JavaScript
    the search button posts the form, which comes back as typed, unsaved)."""
    outputs, picker = _standard_picker(request, campaign)
    if request.htmx and request.method == "GET" and "standard_q" in request.GET:
        return _standard_partial(request, campaign, outputs, picker)
    preset_form = CriterionPresetForm(request.GET or None)
    preset = request.GET.get("preset", "") if preset_form.is_valid() else ""
    form = CriterionForm(
        request.POST or None, outputs=outputs, initial=CriterionForm.initial_for_preset(preset)
    )
    searching = request.method == "POST" and request.POST.get("action") == STANDARD_SEARCH
    if searching:
        form = _standard_search(request, {}, outputs, {})
    if request.method == "POST" and not searching:
        campaign_check(request.user, campaign, Role.DESIGNER, denied="Viewers cannot add criteria.")
        if form.is_valid():
            try:
                criterion = criteria_services.criterion_define(
                    campaign=campaign, fields=form.service_fields(), **form.rankme_fields()
                )
            except DomainError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, f"Criterion “{criterion.name}” added.")
                return redirect("annotations:designer-criteria", slug=campaign.slug)
    context = _context(
        request,
        campaign,
        form=form,
        preset_form=preset_form,
        preset=preset,
        outputs=outputs,
        **picker,
    )
    if request.htmx and request.method == "GET":
        return render(request, "annotations/designer/criteria.html#criterion-form", context)
    context["criteria"] = campaign.criteria.annotate(
        has_tasks=Exists(Task.objects.filter(criterion=OuterRef("pk")))
    )
    return render(request, "annotations/designer/criteria.html", context)


@campaign_view(Role.DESIGNER)
@require_http_methods(["GET", "POST"])
def criterion_edit(request: HtmxHttpRequest, campaign: Campaign, pk: int) -> HttpResponse:
    criterion = get_object_or_404(Criterion, campaign=campaign, pk=pk)
    outputs, picker = _standard_picker(request, campaign, criterion.standard_output_id)
    if request.htmx and request.method == "GET" and "standard_q" in request.GET:
        return _standard_partial(request, campaign, outputs, picker, editing=True)
    form = CriterionForm(
        request.POST or None,
        editing=True,
        outputs=outputs,
        initial=CriterionForm.initial_for(criterion),
    )
    searching = request.method == "POST" and request.POST.get("action") == STANDARD_SEARCH
    if searching:
        form = _standard_search(
            request, {"editing": True}, outputs, CriterionForm.initial_for(criterion)
        )
    if request.method == "POST" and not searching and form.is_valid():
        try:
            criteria_services.criterion_define(
                campaign=campaign,
                criterion=criterion,
                fields=form.service_fields(criterion),
                **form.rankme_fields(),
            )
        except DomainError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"Criterion “{criterion.name}” saved.")
            return redirect("annotations:designer-criteria", slug=campaign.slug)
    return render(
        request,
        "annotations/designer/criterion_edit.html",
        _context(request, campaign, form=form, criterion=criterion, outputs=outputs, **picker),
    )


@campaign_view(Role.DESIGNER)
@require_POST
def criterion_delete(request: HttpRequest, campaign: Campaign, pk: int) -> HttpResponse:
    criterion = get_object_or_404(Criterion, campaign=campaign, pk=pk)
    _act(
        request,
        lambda: criteria_services.criterion_delete(criterion=criterion),
        done=f"Criterion “{criterion.name}” removed.",
    )
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
    context["criteria_problems"] = criteria_services.criterion_launch_problems(campaign=campaign)
    context["consent_missing"] = campaign_services.campaign_consent_missing(campaign=campaign)
    context["translations_missing"] = [
        status
        for status in language_selectors.translations_needed(campaign=campaign)
        if status.missing
    ]
    template = "annotations/designer/plan.html"
    if request.htmx:
        template += "#plan-result"
    return render(request, template, context)


def _counted(n: int, noun: str) -> str:
    """``"1 new system"``, ``"2 new systems"`` (the templates' ``pluralize``)."""
    return f"{n} {noun}{pluralize(n)}"


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
        _error(request, exc)
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


@campaign_view(Role.OWNER)
@require_http_methods(["GET", "POST"])
def campaign_delete(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """A page that states what deleting loses (and offers archiving instead), then deletes."""
    if request.method == "POST":
        if request.POST.get("confirm_slug", "").strip() != campaign.slug:
            messages.error(request, f"Type the campaign's slug, {campaign.slug}, to delete it.")
            return redirect("annotations:designer-delete", slug=campaign.slug)
        name = campaign.name
        try:
            campaign_services.campaign_delete(campaign=campaign)
        except DomainError as exc:
            _error(request, exc)
            return redirect("annotations:designer-campaign", slug=campaign.slug)
        messages.success(request, f"Campaign “{name}” deleted with everything it held.")
        return redirect("annotations:home")
    return render(
        request,
        "annotations/designer/delete.html",
        _context(
            request,
            campaign,
            contents=campaign_selectors.campaign_contents(campaign=campaign),
            deletable=campaign.status in campaign_services.DELETABLE,
        ),
    )


@campaign_view(Role.DESIGNER)
@require_http_methods(["GET", "POST"])
def campaign_clone(request: AuthenticatedHttpRequest, campaign: Campaign) -> HttpResponse:
    """A second round: a new draft with this campaign's settings, criteria and outputs."""
    form = CampaignCloneForm(
        request.POST or None,
        initial={"name": f"{campaign.name} (round 2)", "slug": f"{campaign.slug}-2"[:64]},
    )
    if request.method == "POST" and form.is_valid():
        try:
            clone = campaign_services.campaign_clone(
                campaign=campaign, user=request.user, **form.cleaned_data
            )
        except DomainError as exc:
            form.add_error("slug", str(exc))
        else:
            messages.success(
                request,
                f"Campaign “{clone.name}” created from “{campaign.name}”: check the design, "
                "then build its tasks.",
            )
            return redirect("annotations:designer-campaign", slug=clone.slug)
    return render(
        request,
        "annotations/designer/clone.html",
        _context(
            request,
            campaign,
            form=form,
            contents=campaign_selectors.campaign_contents(campaign=campaign),
        ),
    )


@campaign_view(Role.VIEWER)
def campaign_preview_intro(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """The worker's consent and instructions page as workers see it. Records nothing;
    its Start button leads to the task preview (which works before tasks are built)."""
    from annotations.forms import ConsentForm

    return render(
        request,
        "annotations/worker/consent.html",
        {
            "campaign": campaign,
            "form": ConsentForm(),
            "preview": True,
            "progress": None,
            "criteria": list(campaign.criteria.order_by("position", "name")),
        },
    )


# Monitoring ----------------------------------------------------------------------------------


@campaign_view(Role.VIEWER)
def campaign_monitor(request: HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    """Progress (polled every few seconds while the campaign can still change), then the
    comparison matrix, agreement and worker table, computed once per page load: they read
    every judgement of the campaign, too much to redo on each poll."""
    throughput = monitoring.campaign_throughput(campaign=campaign)
    progress = monitoring.campaign_progress(campaign=campaign)
    context = _context(
        request,
        campaign,
        progress=progress,
        totals=monitoring.progress_totals(progress=progress),
        languages=(
            language_selectors.language_progress(campaign=campaign)
            if len(campaign.languages or []) > 1
            else []
        ),
        throughput=throughput,
        peak=max((n for _, n in throughput), default=0),
        poll=campaign.status not in (Campaign.Status.CLOSED, Campaign.Status.ARCHIVED),
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
        slices=monitoring.agreement_by_slice(campaign=campaign, judgements=judgements),
    )
    return render(request, "annotations/designer/monitor.html", context)


@campaign_view(Role.DESIGNER)
@require_POST
def worker_mark(request: HtmxHttpRequest, campaign: Campaign, pk: int) -> HttpResponse:
    worker = get_object_or_404(Worker, campaign=campaign, pk=pk)
    action = request.POST.get("action", "")
    changes: dict[str, Callable[[], Worker]] = {
        "flag": lambda: worker_services.worker_mark(worker=worker, flagged=True),
        "unflag": lambda: worker_services.worker_mark(worker=worker, flagged=False),
        "exclude": lambda: worker_services.worker_exclude(
            worker=worker, reason=request.POST.get("reason", "")
        ),
        "include": lambda: worker_services.worker_include(worker=worker),
        "expert": lambda: worker_services.worker_mark(worker=worker, expert=True),
        "unexpert": lambda: worker_services.worker_mark(worker=worker, expert=False),
    }
    if action not in changes:
        return HttpResponse(
            "Unknown action; use flag, unflag, exclude, include, expert or unexpert.", status=400
        )
    error = ""
    try:
        changes[action]()
    except DomainError as exc:
        error = str(exc)
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
            _context(request, campaign, w=row, row_error=error),
        )
    if error:
        messages.error(request, f"Worker {worker.external_id}: {error}")
    else:
        done = {
            "flag": "flagged",
            "unflag": "unflagged",
            "exclude": "excluded",
            "expert": "marked an expert",
            "unexpert": "no longer an expert",
        }
        messages.success(request, f"Worker {worker.external_id}: {done.get(action, 'included')}.")
    return redirect(reverse("annotations:designer-monitor", args=[campaign.slug]) + "#workers")


# Members -------------------------------------------------------------------------------------


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def campaign_members(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    # The least power by default: adding someone should not make them an owner by accident.
    form = MemberForm(request.POST or None, initial={"role": Role.VIEWER})
    if request.method == "POST":
        campaign_check(request.user, campaign, Role.OWNER, denied="Only owners manage members.")
        if form.is_valid():
            try:
                membership_services.membership_set(campaign=campaign, **form.cleaned_data)
            except DomainError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, "Member saved.")
                return redirect("annotations:designer-members", slug=campaign.slug)
    return _members_page(request, campaign, form=form)


def _members_page(
    request: HttpRequest,
    campaign: Campaign,
    *,
    form: MemberForm | None = None,
    invite_form: InvitationForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The members page: members with their roles, what each role may do, invitations."""
    is_owner = has_role(request.user, campaign, Role.OWNER)
    context = _context(
        request,
        campaign,
        form=form or MemberForm(initial={"role": Role.VIEWER}),
        invite_form=invite_form or InvitationForm(initial={"role": Role.VIEWER}),
        memberships=member_selectors.campaign_members(campaign=campaign),
        invitations=member_selectors.invitations_pending(campaign=campaign) if is_owner else [],
        role_powers=[(Role(r).label, text) for r, text in ROLE_POWERS.items()],
        now=timezone.now(),
        max_age_days=settings.INVITATION_MAX_AGE_DAYS,
    )
    return render(request, "annotations/designer/members.html", context, status=status)


@campaign_view(Role.OWNER)
@require_POST
def member_invite(request: AuthenticatedHttpRequest, campaign: Campaign) -> HttpResponse:
    """Email an invitation link (the console shows it unless email is configured)."""
    form = InvitationForm(request.POST)
    if form.is_valid():
        try:
            invitation = membership_services.invitation_create(
                campaign=campaign,
                invited_by=request.user,
                link_for=lambda token: request.build_absolute_uri(
                    reverse("annotations:invitation", args=[token])
                ),
                **form.cleaned_data,
            )
        except DomainError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(
                request,
                f"Invitation sent to {invitation.email} as {role_label(invitation.role).lower()}.",
            )
            return redirect("annotations:designer-members", slug=campaign.slug)
    return _members_page(request, campaign, invite_form=form, status=400)


@campaign_view(Role.OWNER)
@require_POST
def invitation_revoke(request: HttpRequest, campaign: Campaign, pk: int) -> HttpResponse:
    invitation = get_object_or_404(CampaignInvitation, campaign=campaign, pk=pk)
    _act(
        request,
        lambda: membership_services.invitation_revoke(invitation=invitation),
        done=f"Invitation of {invitation.email} withdrawn.",
    )
    return redirect("annotations:designer-members", slug=campaign.slug)


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The link of an invitation email: accept signed in, or sign up and accept.

    Forged, used and expired links get a page saying so (404 / 410), never a member.
    """
    try:
        found = membership_services.invitation_for_token(token=token)
    except membership_services.InvitationRefused as exc:
        status = 404 if exc.reason == "forged" else 410
        return render(
            request,
            "annotations/designer/invitation.html",
            {"refused": str(exc), "reason": exc.reason},
            status=status,
        )
    signup = None
    refusal = None
    if not request.user.is_authenticated:
        signup = SignUpForm(request.POST or None, email=found.email)
        if request.method == "POST" and signup.is_valid():
            user = signup.save(commit=False)
            membership_services.invitation_sign_up(token=token, user=user)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request,
                f"Welcome, {user.get_username()}: you are now "
                f"{role_label(found.role).lower()} of this campaign.",
            )
            return redirect("annotations:designer-campaign", slug=found.campaign.slug)
    elif not membership_services.invitation_is_for(invitation=found, user=request.user):  # type: ignore[arg-type]
        # Another account than the invited address's: said before anything is offered.
        refusal = membership_services.invitation_refusal_for(
            invitation=found,
            user=request.user,  # type: ignore[arg-type]
        )
    elif request.method == "POST":
        try:
            membership = membership_services.invitation_accept(
                token=token,
                user=request.user,  # type: ignore[arg-type]
            )
        except DomainError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request, f"You are now {role_label(membership.role).lower()} of this campaign."
            )
            return redirect("annotations:designer-campaign", slug=found.campaign.slug)
    status = 200
    if refusal is not None:
        status = 403
    elif signup is not None and signup.is_bound:
        status = 400
    return render(
        request,
        "annotations/designer/invitation.html",
        {
            "invitation": found,
            "invited": membership_services.email_hint(found.email),
            "other_account": str(refusal) if refusal is not None else "",
            "role_label": role_label(found.role),
            "signup": signup,
            "expires_at": membership_services.invitation_expires_at(found),
        },
        status=status,
    )


# Payments ------------------------------------------------------------------------------------


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def campaign_payments(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """Per worker: the quality checks' suggestion, the organizer's decision and bonus,
    and the platforms' bulk files. Viewers read; editors decide."""
    rows = payment_selectors.payment_rows(campaign=campaign)
    form = PaymentDecisionsForm(request.POST or None, workers=[r.worker for r in rows])
    status = 200
    if request.method == "POST":
        campaign_check(
            request.user, campaign, Role.DESIGNER, denied="Viewers cannot decide payments."
        )
        if request.POST.get("action") == "accept-suggestions":
            n = payment_services.workers_review_accept_suggestions(
                campaign=campaign, overwrite=request.POST.get("overwrite") == "1"
            )
            messages.success(
                request, f"Suggestions accepted: {n} decision{'s' if n != 1 else ''} changed."
            )
            return redirect("annotations:designer-payments", slug=campaign.slug)
        if form.is_valid():
            try:
                n = payment_services.workers_review_update(
                    campaign=campaign, decisions=form.decisions()
                )
            except DomainError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, f"Saved: {n} worker{'s' if n != 1 else ''} changed.")
                return redirect("annotations:designer-payments", slug=campaign.slug)
        status = 400
    context = _context(
        request,
        campaign,
        rows=[(r, form[f"review_{r.worker.pk}"], form[f"bonus_{r.worker.pk}"]) for r in rows],
        form=form,
        summary=payment_selectors.payment_summary(rows=rows),
        has_prolific=any(r.worker.platform == Worker.Platform.PROLIFIC for r in rows),
        has_mturk=any(r.worker.platform == Worker.Platform.MTURK for r in rows),
        mturk_unreviewable=payment_selectors.mturk_unreviewable(campaign=campaign),
    )
    return render(request, "annotations/designer/payments.html", context, status=status)


@campaign_view(Role.VIEWER)
def campaign_payments_export(request: HttpRequest, campaign: Campaign, fmt: str) -> HttpResponse:
    if fmt not in payment_selectors.FORMATS:
        raise Http404("No such payment export.")
    content_type, suffix = payment_selectors.FORMATS[fmt]
    body = payment_selectors.payment_export(campaign=campaign, fmt=fmt)
    return file_response(body, content_type=content_type, filename=f"{campaign.slug}-{suffix}")


@campaign_view(Role.OWNER)
@require_POST
def member_remove(request: HttpRequest, campaign: Campaign, pk: int) -> HttpResponse:
    membership = get_object_or_404(CampaignMembership, campaign=campaign, pk=pk)
    _act(request, lambda: membership_services.membership_remove(membership=membership))
    return redirect("annotations:designer-members", slug=campaign.slug)


# Exports -------------------------------------------------------------------------------------


@campaign_view(Role.VIEWER)
def campaign_export(request: HttpRequest, campaign: Campaign) -> HttpResponseBase:
    criterion = campaign.criteria.filter(name=request.GET.get("criterion", "")).first()
    if criterion is None:
        raise Http404("No such criterion in this campaign.")
    fmt = request.GET.get("format", "csv")
    include_excluded = request.GET.get("include_excluded", "1") not in ("0", "false", "")
    try:
        where = parse_where(request.GET.getlist("where"))
        lines = exports.export_lines(
            criterion=criterion, fmt=fmt, include_excluded=include_excluded, where=where
        )
    except (DomainError, SliceError) as exc:  # an unknown format or slice
        return HttpResponse(str(exc), status=400, content_type="text/plain")
    return streamed_file_response(
        lines,
        content_type=exports.FORMATS[fmt][0],
        filename=exports.export_filename(criterion=criterion, fmt=fmt),
    )


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
