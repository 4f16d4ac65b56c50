"""The submit of a worker's task page: one task, or every criterion of a page together
(set-up 1), its scores recorded once.

The page itself is shown by the session's page (``annotations.views.sessions``) and, as
a designer previews it, by ``annotations.views.preview``; all three render it through
``annotations.forms.judgements.task_page``. Posts carry no CSRF cookie: see
``annotations.access.workers.worker_form_view``.
"""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from annotations.access.workers import (
    worker_draft_url,
    worker_form_view,
    worker_session_url,
    worker_session_view,
)
from annotations.forms.judgements import (
    ScoresForm,
    page_answers,
    page_forms,
    score_errors_add,
    task_page,
)
from annotations.models import Assignment, Campaign, Worker
from annotations.selectors import sessions as session_selectors
from annotations.selectors.judgements import TaskPage
from annotations.services import judgements as judgement_services
from annotations.services.judgements import PageAnswers, SubmitOutcome, Submitted
from common.http import HtmxHttpRequest


def _to_session(request: HtmxHttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url, status=303)


@worker_form_view
@require_http_methods(["GET", "POST"])
@worker_session_view(live_only=False)
def unknown_task(
    request: HtmxHttpRequest, campaign: Campaign, worker: Worker, token: str, other: str
) -> HttpResponse:
    """A task address that is no number (edited by hand, cut short): nothing is recorded,
    and the worker's session says so, as for a number that is none of their tasks."""
    return _to_session(request, f"{worker_session_url(campaign, worker)}?unknown=1")


@worker_form_view
@require_http_methods(["GET", "POST"])
@worker_session_view(live_only=False)
def submit(
    request: HtmxHttpRequest, campaign: Campaign, worker: Worker, token: str, assignment_id: int
) -> HttpResponse:
    """Validate the scores (inline errors keep what was entered) and record them once
    (``judgement_services.assignment_submit``: the locks, the rollback of a refused answer
    and the draft it leaves). A GET (the address bar after a page shown again with errors
    without JavaScript, reloaded) is sent on to the session, which shows the task in hand
    with its autosaved answers, rather than a bare 405."""
    session_url = worker_session_url(campaign, worker)
    if request.method == "GET":
        return redirect(session_url)
    forms: list[tuple[Assignment, TaskPage, ScoresForm]] = []

    def answers(parts: list[tuple[Assignment, TaskPage]]) -> PageAnswers | None:
        forms.extend(page_forms(parts, request.POST))
        return page_answers(forms, request.POST)

    submitted = judgement_services.assignment_submit(
        worker=worker,
        assignment_id=assignment_id,
        answers=answers,
        entered={name: request.POST.getlist(name) for name in request.POST},
    )
    if submitted.outcome == SubmitOutcome.UNKNOWN:
        # Not a task of this worker (an address edited by hand, a stale bookmark of
        # someone else's): nothing recorded, and the worker is told that, not that the
        # task was already submitted.
        return _to_session(request, f"{session_url}?unknown=1")
    if submitted.outcome == SubmitOutcome.ALREADY:
        # Already recorded (a second tab, a double click, a retry): whatever was posted
        # this time, the worker moves on to their current page and is told why.
        return _to_session(request, f"{session_url}?already=1")
    if submitted.outcome == SubmitOutcome.RECORDED:
        if submitted.together:
            return _to_session(request, session_url)
        # The criterion just judged goes with the worker to the next page, which
        # announces a change of criterion (set-up 2: naturalness tasks, then quality)
        # without a query.
        assert submitted.assignment is not None
        return _to_session(request, f"{session_url}?after={submitted.assignment.criterion_id}")
    return _refused(request, campaign, worker, token, submitted, forms, session_url)


def _refused(
    request: HtmxHttpRequest,
    campaign: Campaign,
    worker: Worker,
    token: str,
    submitted: Submitted,
    forms: list[tuple[Assignment, TaskPage, ScoresForm]],
    session_url: str,
) -> HttpResponse:
    """A refused submit: the page again with what was entered and why (its shape, scores
    the rules refuse, too fast), or the problem page when the answer cannot be given
    here (the task's time ran out and its place went to someone else, the campaign
    closed)."""
    error = submitted.error
    if isinstance(error, judgement_services.InvalidPageScores):
        score_errors_add(forms, error.errors)
    elif isinstance(error, judgement_services.InvalidScores) and not submitted.together:
        score_errors_add(forms, {forms[0][1].criterion.pk: error.errors})
    elif error is not None and not isinstance(error, judgement_services.TooFast):
        expired = isinstance(error, judgement_services.AssignmentExpired)
        return render(
            request,
            "annotations/shared/problem.html",
            {
                "kind": "expired" if expired else "refused",
                "campaign": campaign,
                "message": str(error),
                "next_url": session_url,
            },
            status=409 if not request.htmx else 200,
        )
    assert submitted.assignment is not None
    # The page again with what was entered; progress is read only then.
    progress = session_selectors.worker_progress(worker=worker, campaign=campaign)
    too_fast = {"too_fast": error} if isinstance(error, judgement_services.TooFast) else {}
    template, context = task_page(
        request,
        forms,
        progress,
        action=request.path,
        draft_url=worker_draft_url(campaign, token, submitted.assignment.pk),
        **too_fast,
    )
    return render(request, template, context, status=200 if request.htmx else 400)
