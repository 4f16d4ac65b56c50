"""Crowd-worker pages: entry from Prolific, MTurk or a link; consent; tasks; completion.

A worker's pages live under ``/w/<slug>/s/<token>/``, the token being the signed worker
id: the pages then work inside MTurk's iframe (where cookies may be blocked) and in
any browser the worker opens them in. Link workers are recognised by a signed cookie.
"""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from annotations import permissions
from annotations.errors import DomainError
from annotations.forms import SLIDER_START, ConsentForm, ScoresForm
from annotations.http import HtmxHttpRequest
from annotations.models import Assignment, Campaign, Criterion, Worker
from annotations.selectors import worker as worker_selectors
from annotations.services import assignment as assignment_services
from annotations.services import judgements as judgement_services
from annotations.services.judgements import max_magnitude

_TOKEN_SALT = "humaneval.worker.session"
_LINK_COOKIE_SALT = "humaneval.worker.link"
PROLIFIC_COMPLETE = "https://app.prolific.com/submissions/complete"
MTURK_NOT_ACCEPTED = "ASSIGNMENT_ID_NOT_AVAILABLE"
MTURK_SUBMIT_HOSTS = {"www.mturk.com", "workersandbox.mturk.com"}


def worker_token(worker: Worker) -> str:
    return signing.Signer(salt=_TOKEN_SALT).sign(str(worker.pk))


def _worker_from_token(campaign: Campaign, token: str) -> Worker | None:
    try:
        worker_id = int(signing.Signer(salt=_TOKEN_SALT).unsign(token))
    except (signing.BadSignature, ValueError):
        return None
    return Worker.objects.filter(pk=worker_id, campaign=campaign).first()


def _session_url(campaign: Campaign, worker: Worker) -> str:
    return reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)])


def _problem(
    request: HttpRequest, kind: str, campaign: Campaign | None = None, status: int = 200
) -> HttpResponse:
    return render(
        request,
        "annotations/worker/problem.html",
        {"kind": kind, "campaign": campaign},
        status=status,
    )


def _open_campaign(request: HttpRequest, slug: str) -> tuple[Campaign | None, HttpResponse | None]:
    campaign = Campaign.objects.filter(slug=slug).first()
    if campaign is None:
        return None, _problem(request, "unknown", status=404)
    if campaign.status != Campaign.Status.LIVE:
        kind = {"paused": "paused", "closed": "closed"}.get(campaign.status, "not-open")
        return None, _problem(request, kind, campaign)
    return campaign, None


def _mturk_submit_url(turk_submit_to: str) -> str:
    parts = urlsplit(turk_submit_to or "")
    host = (
        parts.hostname if parts.scheme == "https" and parts.hostname in MTURK_SUBMIT_HOSTS else None
    )
    return f"https://{host or 'www.mturk.com'}/mturk/externalSubmit"


@require_http_methods(["GET"])
def entry(request: HttpRequest, slug: str) -> HttpResponse:
    """``/w/<slug>/``: recognise the worker (Prolific, MTurk or link) and send them on."""
    campaign, problem = _open_campaign(request, slug)
    if problem is not None:
        return problem
    assert campaign is not None
    q = request.GET
    cookie_to_set: str | None = None
    if q.get("PROLIFIC_PID") and campaign.accept_prolific:
        platform, external_id = Worker.Platform.PROLIFIC, q["PROLIFIC_PID"]
        metadata = {"study_id": q.get("STUDY_ID", ""), "session_id": q.get("SESSION_ID", "")}
    elif (q.get("workerId") or q.get("assignmentId")) and campaign.accept_mturk:
        if q.get("assignmentId") == MTURK_NOT_ACCEPTED or not q.get("workerId"):
            return _mturk_preview(request, campaign)
        platform, external_id = Worker.Platform.MTURK, q["workerId"]
        metadata = {
            "assignment_id": q.get("assignmentId", ""),
            "hit_id": q.get("hitId", ""),
            "turk_submit_to": q.get("turkSubmitTo", ""),
        }
    elif campaign.accept_link and not any(
        q.get(name) for name in ("PROLIFIC_PID", "workerId", "assignmentId")
    ):
        # Only a plain link: a Prolific or MTurk link into a campaign that does not take
        # that platform must not silently become an anonymous worker (nor record an MTurk
        # preview).
        cookie_name = f"hew_{campaign.pk}"
        external_id = (
            request.get_signed_cookie(cookie_name, default="", salt=_LINK_COOKIE_SALT) or ""
        )
        if not external_id:
            external_id = cookie_to_set = uuid.uuid4().hex
        platform, metadata = Worker.Platform.LINK, {}
    else:
        return _problem(request, "bad-link", campaign, status=400)
    try:
        worker = assignment_services.worker_get_or_create(
            campaign=campaign, platform=platform, external_id=external_id, metadata=metadata
        )
    except DomainError:
        return _problem(request, "bad-link", campaign, status=400)
    response = redirect(_session_url(campaign, worker))
    if cookie_to_set:
        response.set_signed_cookie(
            f"hew_{campaign.pk}",
            cookie_to_set,
            salt=_LINK_COOKIE_SALT,
            max_age=settings.WORKER_COOKIE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure(),
        )
    return response


def _mturk_preview(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """What an MTurk worker sees before accepting the HIT. Records nothing."""
    task = worker_selectors.preview_task(campaign=campaign)
    page = worker_selectors.task_page_preview(task=task) if task else None
    return render(
        request, "annotations/worker/mturk_preview.html", {"campaign": campaign, "page": page}
    )


def _task_context(
    page: worker_selectors.TaskPage,
    form: ScoresForm,
    progress: worker_selectors.Progress | None,
    **extra: Any,
) -> dict[str, Any]:
    slider = page.criterion.scale == Criterion.Scale.SLIDER
    slots = []
    focused = False
    for s in page.slots:
        bound = form[f"score_{s.slot}"]
        tie_errors = form[f"tie_{s.slot}"].errors if slider else []
        # The first field in error gets ``autofocus``, which works without JavaScript
        # (a full page) and with htmx (which focuses [autofocus] in swapped content).
        focus = ""
        if not focused and (bound.errors or tie_errors):
            focus, focused = ("score" if bound.errors else "tie"), True
        slots.append(
            {
                "slot": s.slot,
                "letter": s.letter,
                "text": s.text,
                "value": bound.value() or "",
                "errors": bound.errors,
                "touched": form[f"touched_{s.slot}"].value() if slider else "",
                "tie": form[f"tie_{s.slot}"].value() if slider else "",
                "tie_errors": tie_errors,
                "keep": bool(form[f"keep_{s.slot}"].value()) if slider else False,
                "offer_keep": slider
                and (s.slot in form.untouched or form[f"keep_{s.slot}"].value()),
                "others": [o for o in page.slots if o.slot != s.slot],
                "focus": focus,
            }
        )
    return {
        "page": page,
        "campaign": page.campaign,
        "criterion": page.criterion,
        "form": form,
        "slots": slots,
        "progress": progress,
        "levels": page.criterion.likert_levels,
        "max_digits": len(str(max_magnitude(page.criterion))),
        "slider_start": SLIDER_START,
        **extra,
    }


def _render_task(
    request: HtmxHttpRequest,
    page: worker_selectors.TaskPage,
    form: ScoresForm,
    progress: worker_selectors.Progress | None,
    *,
    action: str,
    status: int = 200,
    **extra: Any,
) -> HttpResponse:
    context = _task_context(page, form, progress, action=action, **extra)
    template = "annotations/worker/task.html"
    if request.htmx:
        template += "#task-form"
    return render(request, template, context, status=status)


def session(request: HtmxHttpRequest, slug: str, token: str) -> HttpResponse:
    """The worker's current page: consent, the current task, the stop page or the end."""
    campaign, problem = _open_campaign(request, slug)
    if problem is not None:
        return problem
    assert campaign is not None
    worker = _worker_from_token(campaign, token)
    if worker is None:
        return _problem(request, "bad-link", campaign, status=404)
    if worker.stopped:
        return _stopped(request, campaign, worker)
    if worker.consented_at is None:
        return _consent_page(request, campaign, worker, token, ConsentForm())
    assignment = assignment_services.task_next_for(worker=worker, campaign=campaign)
    progress = worker_selectors.worker_progress(worker=worker, campaign=campaign)
    if assignment is None:
        worker.refresh_from_db(fields=["stopped"])
        if worker.stopped:
            return _stopped(request, campaign, worker)
        if progress.done == 0:
            return _problem(request, "full", campaign)
        return _done(request, campaign, worker)
    assignment.task.campaign = campaign
    page = worker_selectors.task_page_for(assignment=assignment)
    form = ScoresForm(criterion=page.criterion, letters=page.letters)
    action = reverse("annotations:worker-submit", args=[slug, token, assignment.pk])
    return _render_task(request, page, form, progress, action=action)


def _consent_page(
    request: HttpRequest,
    campaign: Campaign,
    worker: Worker,
    token: str,
    form: ConsentForm,
    *,
    status: int = 200,
) -> HttpResponse:
    """Consent and instructions, with a worked example of each scale the campaign uses."""
    scales = list(
        dict.fromkeys(campaign.criteria.order_by("position").values_list("scale", flat=True))
    )
    likert = campaign.criteria.filter(scale="likert").order_by("position").first()
    return render(
        request,
        "annotations/worker/consent.html",
        {
            "campaign": campaign,
            "worker": worker,
            "form": form,
            "token": token,
            "progress": worker_selectors.worker_progress(worker=worker, campaign=campaign),
            "scales": scales,
            "likert_example": likert.likert_levels if likert else [],
        },
        status=status,
    )


@require_POST
def consent(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    campaign, problem = _open_campaign(request, slug)
    if problem is not None:
        return problem
    assert campaign is not None
    worker = _worker_from_token(campaign, token)
    if worker is None:
        return _problem(request, "bad-link", campaign, status=404)
    form = ConsentForm(request.POST)
    if not form.is_valid():
        return _consent_page(request, campaign, worker, token, form, status=400)
    assignment_services.worker_consent(worker=worker)
    return redirect(_session_url(campaign, worker))


def _to_session(request: HtmxHttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url, status=303)


@require_POST
def submit(request: HtmxHttpRequest, slug: str, token: str, assignment_id: int) -> HttpResponse:
    """Validate the scores (inline errors keep what was entered) and record them once."""
    campaign = Campaign.objects.filter(slug=slug).first()
    worker = _worker_from_token(campaign, token) if campaign else None
    if campaign is None or worker is None:
        return _problem(request, "bad-link", campaign, status=404)
    session_url = _session_url(campaign, worker)
    assignment = worker_selectors.assignment_for_worker(worker=worker, assignment_id=assignment_id)
    if assignment is None or assignment.state == Assignment.State.SUBMITTED:
        # Already recorded (a double click, a resubmit, a retry, a second tab): whatever
        # was posted this time, the worker simply moves on to their current page.
        return _to_session(request, session_url)
    page = worker_selectors.task_page_for(assignment=assignment)
    form = ScoresForm(request.POST, criterion=page.criterion, letters=page.letters)
    progress = worker_selectors.worker_progress(worker=worker, campaign=campaign)
    action = request.path
    bad = 200 if request.htmx else 400
    if not form.is_valid():
        return _render_task(request, page, form, progress, action=action, status=bad)
    try:
        judgement_services.judgement_submit(
            assignment=assignment,
            scores=form.cleaned_scores,
            acknowledge_too_fast=form.cleaned_data.get("acknowledge_too_fast", False),
            metadata={"js": bool(form.cleaned_data.get("js"))},
        )
    except judgement_services.TooFast as error:
        return _render_task(
            request, page, form, progress, action=action, status=bad, too_fast=error
        )
    except judgement_services.InvalidScores as error:
        for slot, message in error.errors.items():
            if f"score_{slot}" in form.fields:
                form.add_error(f"score_{slot}", message)
        return _render_task(request, page, form, progress, action=action, status=bad)
    except judgement_services.AssignmentExpired as error:
        return render(
            request,
            "annotations/worker/problem.html",
            {
                "kind": "expired",
                "campaign": campaign,
                "message": str(error),
                "next_url": session_url,
            },
            status=409 if not request.htmx else 200,
        )
    except DomainError as error:
        return render(
            request,
            "annotations/worker/problem.html",
            {
                "kind": "refused",
                "campaign": campaign,
                "message": str(error),
                "next_url": session_url,
            },
            status=409 if not request.htmx else 200,
        )
    return _to_session(request, session_url)


def _done(request: HttpRequest, campaign: Campaign, worker: Worker) -> HttpResponse:
    return _final_page(request, campaign, worker, "done.html", campaign.completion_code)


def _stopped(request: HttpRequest, campaign: Campaign, worker: Worker) -> HttpResponse:
    return _final_page(request, campaign, worker, "stopped.html", campaign.failed_check_code)


def _final_page(
    request: HttpRequest, campaign: Campaign, worker: Worker, template: str, code: str
) -> HttpResponse:
    """The completion or stop page with its code and the way back to the worker's platform."""
    prolific_url = None
    if worker.platform == Worker.Platform.PROLIFIC:
        # A page that moves on by itself (meta refresh after 2 s, plus a link) rather than
        # an HTTP 302, deliberately: the worker first sees that the work is saved and the
        # code itself, so if Prolific's page does not load (a blocked redirect, a network
        # hiccup, a privacy extension) they can still enter the code there by hand; and
        # the session URL stays a page a worker can come back to and read the code from.
        # Meta refresh needs no JavaScript. tests/browser/test_worker_session.py checks
        # that the browser really ends up on app.prolific.com with ?cc=<code>.
        prolific_url = f"{PROLIFIC_COMPLETE}?{urlencode({'cc': code})}"
    return render(
        request,
        f"annotations/worker/{template}",
        {
            "campaign": campaign,
            "worker": worker,
            "code": code,
            "progress": worker_selectors.worker_progress(worker=worker, campaign=campaign),
            "mturk_submit_url": _mturk_submit_url(worker.metadata.get("turk_submit_to", "")),
            "mturk_assignment_id": worker.metadata.get("assignment_id", ""),
            "prolific_url": prolific_url,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def preview(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The real task page for a task of the campaign, for designers. Records nothing."""
    campaign = Campaign.objects.filter(slug=slug).first()
    if campaign is None or not permissions.can_view(request.user, campaign):
        return _problem(request, "unknown", status=404)
    raw_id = request.GET.get("task", "")
    task = worker_selectors.preview_task(
        campaign=campaign,
        task_id=int(raw_id) if raw_id.isdigit() else None,
        criterion_name=request.GET.get("criterion") or None,
    )
    if task is None:
        return _problem(request, "no-tasks", campaign)
    page = worker_selectors.task_page_preview(task=task)
    data = request.POST if request.method == "POST" else None
    form = ScoresForm(data, criterion=page.criterion, letters=page.letters)
    checked = data is not None and form.is_valid()
    status = 200 if data is None or checked or request.htmx else 400
    progress = worker_selectors.Progress(done=0, total=campaign.tasks_per_worker)
    return _render_task(
        request,
        page,
        form,
        progress,
        action=request.get_full_path(),
        status=status,
        preview=True,
        preview_ok=checked,
        preview_criteria=list(campaign.criteria.order_by("position", "name")),
    )
