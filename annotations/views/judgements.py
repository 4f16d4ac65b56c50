"""The task page of a worker's session: one task, or every criterion of a page together
(set-up 1), and the submit that records its scores once.

The session's page (``annotations.views.sessions.session``) shows the task handed out
with :func:`task_in_hand`; the designer's preview (``annotations.views.preview``) shows
the same page, unrecorded, with :func:`render_task` and :func:`render_together`. Posts
carry no CSRF cookie: see ``annotations.access.workers.worker_form_view``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from annotations.access.workers import worker_form_view, worker_session_url, worker_session_view
from annotations.forms.judgements import SLIDER_START, ScoresForm
from annotations.models import Assignment, Campaign, Criterion, TaskOutput, Worker
from annotations.selectors import judgements as judgement_selectors
from annotations.selectors import sessions as session_selectors
from annotations.services import drafts as draft_services
from annotations.services import judgements as judgement_services
from annotations.services.judgements import max_magnitude
from common.errors import DomainError
from common.http import HtmxHttpRequest

# The forms of a set-up 1 page, one per criterion: its assignment (None in a preview),
# the criterion's part of the page, and the form.
PageForms = Sequence[tuple[Assignment | None, judgement_selectors.TaskPage, ScoresForm]]

ALREADY_SUBMITTED = gettext_lazy(
    "This task was already submitted (here or in another tab or window), so this answer "
    "was not recorded again. Here is your next task."
)

NEW_CRITERION = gettext_lazy(
    "New question from this task on: the question below is not the one you have been "
    "answering. Read it, and how to score it, before you start."
)

UNKNOWN_TASK = gettext_lazy(
    "That address is not one of your tasks (it may have been changed), so nothing was "
    "recorded from it. Here is your current task."
)


def task_in_hand(
    request: HtmxHttpRequest,
    campaign: Campaign,
    token: str,
    assignment: Assignment,
    task_outputs: list[TaskOutput] | None,
    progress: session_selectors.Progress,
) -> HttpResponse:
    """The page of the assignment handed out (``page_next_for``), its autosaved answers
    filled in, with the notice the session's query asks for (a task already submitted, an
    unknown task, a new criterion)."""
    assignment.task.campaign = campaign
    action = reverse("annotations:worker-submit", args=[campaign.slug, token, assignment.pk])
    extra: dict[str, Any] = {
        "draft_url": _draft_url(campaign, token, assignment),
        "notice": (
            str(ALREADY_SUBMITTED)
            if request.GET.get("already")
            else str(UNKNOWN_TASK)
            if request.GET.get("unknown")
            else str(NEW_CRITERION)
            if request.GET.get("after", str(assignment.criterion_id))
            != str(assignment.criterion_id)
            else ""
        ),
    }
    siblings = judgement_selectors.page_assignments(assignment=assignment)
    if len(siblings) > 1:
        # The page autosaves onto its first assignment (the one the form posts to).
        forms = [_page_form(a, None, initial=True, draft=assignment) for a in siblings]
        return render_together(request, forms, progress, action=action, **extra)
    page = judgement_selectors.task_page_for(assignment=assignment, task_outputs=task_outputs)
    form = ScoresForm(
        criterion=page.criterion, letters=page.letters, initial=_draft_initial(assignment)
    )
    return render_task(request, page, form, progress, action=action, **extra)


def _task_context(
    page: judgement_selectors.TaskPage,
    form: ScoresForm,
    progress: session_selectors.Progress | None,
    **extra: Any,
) -> dict[str, Any]:
    slider = page.criterion.scale == Criterion.Scale.SLIDER
    # Each output's title, written once per output here rather than by a
    # ``blocktranslate`` every time the page names it (the slider's "same score as"
    # lists name every other output).
    titles = {s.slot: gettext("Output %(letter)s") % {"letter": s.letter} for s in page.slots}
    slots = []
    focused = False
    for s in page.slots:
        bound = form[f"score_{s.slot}"]
        tie_errors = form[f"tie_{s.slot}"].errors if slider else []
        # The first field in error gets ``autofocus``, which works without JavaScript
        # (a full page) and with htmx (which focuses [autofocus] in swapped content).
        check_name = f"check_{s.slot}"
        check_errors = form[check_name].errors if check_name in form.fields else []
        focus = ""
        if not focused and (bound.errors or tie_errors or check_errors):
            focus = "score" if bound.errors else "tie" if tie_errors else "check"
            focused = True
        slots.append(
            {
                # Slot numbers as text: the page writes each some ten times, and a
                # number would be localised every time.
                "slot": str(s.slot),
                "letter": s.letter,
                "title": titles[s.slot],
                "score_label": gettext("Score for output %(letter)s") % {"letter": s.letter},
                "text": s.text,
                "value": bound.value() or "",
                "errors": bound.errors,
                "touched": form[f"touched_{s.slot}"].value() if slider else "",
                "tie": form[f"tie_{s.slot}"].value() if slider else "",
                "tie_errors": tie_errors,
                "keep": bool(form[f"keep_{s.slot}"].value()) if slider else False,
                "offer_keep": slider
                and (s.slot in form.untouched or form[f"keep_{s.slot}"].value()),
                "others": [
                    {"slot": str(o.slot), "letter": o.letter, "title": titles[o.slot]}
                    for o in page.slots
                    if o.slot != s.slot
                ],
                "focus": focus,
                **_checks_context(form, s.slot),
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


def _checks_context(form: ScoresForm, slot: int) -> dict[str, Any]:
    """The content checklist of one output (RankME): the boxes offered, ticked, errors."""
    name = f"check_{slot}"
    if name not in form.fields:
        return {"checks": [], "check_errors": []}
    ticked = set(form[name].value() or [])
    return {
        "checks": [
            {"key": key, "label": label, "ticked": key in ticked}
            for key, label in form.fields[name].choices  # type: ignore[attr-defined]
        ],
        "check_errors": form[name].errors,
    }


def render_task(
    request: HtmxHttpRequest,
    page: judgement_selectors.TaskPage,
    form: ScoresForm,
    progress: session_selectors.Progress | None,
    *,
    action: str,
    status: int = 200,
    **extra: Any,
) -> HttpResponse:
    """The task page (one criterion), or only its form for htmx; ``action``: where it posts."""
    context = _task_context(page, form, progress, action=action, **extra)
    template = "annotations/judgements/task.html"
    if request.htmx:
        template += "#task-form"
    return render(request, template, context, status=status)


def _draft_url(campaign: Campaign, token: str, assignment: Assignment) -> str:
    """Where the page autosaves its answers (``autosave.js``): the task page, and the same
    page shown again with errors, so that corrections typed then survive a reload too."""
    return reverse("annotations:worker-draft", args=[campaign.slug, token, assignment.pk])


def _to_session(request: HtmxHttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url, status=303)


@worker_form_view
@require_http_methods(["GET", "POST"])
@worker_session_view(live_only=False)
def submit(
    request: HtmxHttpRequest, campaign: Campaign, worker: Worker, token: str, assignment_id: int
) -> HttpResponse:
    """Validate the scores (inline errors keep what was entered) and record them once.

    One transaction: the worker and the assignment are locked first (as
    ``judgement_submit`` needs), so the assignment is read once; a refused answer
    writes nothing. A GET (the address bar after a page shown again with errors
    without JavaScript, reloaded) is sent on to the session, which shows the task in
    hand with its autosaved answers, rather than a bare 405."""
    session_url = worker_session_url(campaign, worker)
    if request.method == "GET":
        return redirect(session_url)
    with transaction.atomic():
        assignment = judgement_services.assignment_to_submit(
            worker=worker, assignment_id=assignment_id
        )
        if assignment is None:
            # Not a task of this worker (an address edited by hand, a stale bookmark of
            # someone else's): nothing recorded, and the worker is told that, not that
            # the task was already submitted.
            return _to_session(request, f"{session_url}?unknown=1")
        if assignment.state == Assignment.State.SUBMITTED:
            # Already recorded (a second tab, a double click, a retry): whatever was
            # posted this time, the worker moves on to their current page and is told why.
            return _to_session(request, f"{session_url}?already=1")
        draft_url = _draft_url(campaign, token, assignment)
        siblings = judgement_selectors.page_assignments(assignment=assignment)
        if len(siblings) > 1:
            return _submit_together(request, campaign, siblings, session_url, draft_url)
        refused = _record_scores(request, campaign, worker, assignment, session_url, draft_url)
        if refused is not None:
            transaction.set_rollback(True)
    if refused is not None:
        # Nothing recorded, but what was entered is kept as the draft (a reload or
        # another device brings it back, as autosave would), after the rollback.
        draft_services.assignment_draft_save(
            assignment=assignment,
            answers={name: request.POST.getlist(name) for name in request.POST},
        )
        return refused
    # The criterion just judged goes with the worker to the next page, which announces a
    # change of criterion (set-up 2: naturalness tasks, then quality) without a query.
    return _to_session(request, f"{session_url}?after={assignment.criterion_id}")


def _record_scores(
    request: HtmxHttpRequest,
    campaign: Campaign,
    worker: Worker,
    assignment: Assignment,
    session_url: str,
    draft_url: str,
) -> HttpResponse | None:
    """``submit`` of one task, its assignment locked: None when the judgement is
    recorded, else the page that says why not."""
    page = judgement_selectors.task_page_for(assignment=assignment)
    form = ScoresForm(request.POST, criterion=page.criterion, letters=page.letters)
    bad = 200 if request.htmx else 400

    def again(**extra: Any) -> HttpResponse:
        # The page again with what was entered; progress is read only then.
        progress = session_selectors.worker_progress(worker=worker, campaign=campaign)
        return render_task(
            request,
            page,
            form,
            progress,
            action=request.path,
            status=bad,
            draft_url=draft_url,
            **extra,
        )

    if not form.is_valid():
        return again()
    try:
        judgement_services.judgement_submit(
            assignment=assignment,
            scores=form.cleaned_scores,
            acknowledge_too_fast=form.cleaned_data.get("acknowledge_too_fast", False),
            checks=form.cleaned_checks,
            metadata={"js": bool(form.cleaned_data.get("js"))},
            task_outputs=page.task_outputs or None,
            task=assignment.task,
            already_locked=True,
        )
    except judgement_services.TooFast as error:
        return again(too_fast=error)
    except judgement_services.InvalidScores as error:
        for slot, message in error.errors.items():
            if f"score_{slot}" in form.fields:
                form.add_error(f"score_{slot}", message)
        return again()
    except judgement_services.AssignmentExpired as error:
        return render(
            request,
            "annotations/shared/problem.html",
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
            "annotations/shared/problem.html",
            {
                "kind": "refused",
                "campaign": campaign,
                "message": str(error),
                "next_url": session_url,
            },
            status=409 if not request.htmx else 200,
        )
    return None


def _draft_initial(assignment: Assignment, prefix: str = "") -> dict[str, Any]:
    """The answers autosaved on the page (``Assignment.draft``) as a form's initial values."""
    lead = f"{prefix}-" if prefix else ""
    return {
        name[len(lead) :]: value
        for name, value in (assignment.draft or {}).items()
        if name.startswith(lead) and (prefix or "-" not in name)
    }


def _page_form(
    assignment: Assignment, data: Any, *, initial: bool = False, draft: Assignment | None = None
) -> tuple[Assignment, judgement_selectors.TaskPage, ScoresForm]:
    """One criterion's part of a set-up 1 page: its fields are named ``c<criterion id>-``."""
    page = judgement_selectors.task_page_for(assignment=assignment)
    prefix = f"c{assignment.criterion_id}"
    form = ScoresForm(
        data,
        criterion=page.criterion,
        letters=page.letters,
        prefix=prefix,
        initial=_draft_initial(draft or assignment, prefix) if initial else None,
    )
    return assignment, page, form


def _together_context(
    forms: PageForms,
) -> dict[str, Any]:
    """The page of set-up 1: each output once, with one answer per criterion."""
    lead = forms[0][1]
    criteria = [
        {
            "criterion": page.criterion,
            "prefix": form.prefix,
            "levels": page.criterion.likert_levels,
            "max_digits": len(str(max_magnitude(page.criterion))),
        }
        for _, page, form in forms
    ]
    outputs = []
    errors = []
    focused = False
    for s in lead.slots:
        answers = []
        for (_, page, form), c in zip(forms, criteria, strict=True):
            slider = page.criterion.scale == Criterion.Scale.SLIDER
            bound = form[f"score_{s.slot}"]
            focus = bool(bound.errors) and not focused
            focused = focused or focus
            # Several criteria per output: each message names its criterion.
            named = [f"{page.criterion.name.capitalize()}, {e}" for e in bound.errors]
            errors += [(f"{form.prefix}-score-{s.slot}", e) for e in named]
            checks = _checks_context(form, s.slot)
            if checks["check_errors"]:
                first_check = f"{form.prefix}-check-{s.slot}-{checks['checks'][0]['key']}"
                errors += [(first_check, e) for e in checks["check_errors"]]
            answers.append(
                {
                    **c,
                    "id": f"{form.prefix}-score-{s.slot}",
                    "name": f"{form.prefix}-score_{s.slot}",
                    "value": bound.value() or "",
                    "errors": named,
                    "focus": focus,
                    "touched": form[f"touched_{s.slot}"].value() if slider else "",
                    "keep": bool(form[f"keep_{s.slot}"].value()) if slider else False,
                    "offer_keep": slider
                    and (s.slot in form.untouched or bool(form[f"keep_{s.slot}"].value())),
                    **checks,
                }
            )
        outputs.append({"slot": s.slot, "letter": s.letter, "text": s.text, "answers": answers})
    return {
        "page": lead,
        "campaign": lead.campaign,
        "criterion": lead.criterion,
        "together_criteria": criteria,
        "together_standards": _together_standards([page.criterion for _, page, _ in forms]),
        "together_outputs": outputs,
        "together_errors": errors,
        "slider_start": SLIDER_START,
    }


def _together_standards(criteria: Sequence[Criterion]) -> list[dict[str, Any]]:
    """The standards of a set-up 1 page, each shown once (RankME: one standard with its
    value per criterion): the magnitude criteria that have a standard, grouped by its
    text, each group with the criteria and values it stands for, and its input when any
    of those criteria shows the input (a page of quality and naturalness shows one
    standard, not one with its input and one without)."""
    groups: dict[str, dict[str, Any]] = {}
    for criterion in criteria:
        if criterion.scale != Criterion.Scale.MAGNITUDE or not criterion.standard_text:
            continue
        group = groups.setdefault(
            criterion.standard_text, {"input": "", "text": criterion.standard_text, "values": []}
        )
        if criterion.show_input and not group["input"]:
            group["input"] = criterion.standard_input
        group["values"].append({"criterion": criterion, "standard": criterion.standard})
    return list(groups.values())


def render_together(
    request: HtmxHttpRequest,
    forms: PageForms,
    progress: session_selectors.Progress | None,
    *,
    action: str,
    status: int = 200,
    **extra: Any,
) -> HttpResponse:
    """The set-up 1 page (every criterion of ``forms``), or only its form for htmx."""
    context = {**_together_context(forms), "progress": progress, "action": action, **extra}
    template = "annotations/judgements/task_together.html"
    if request.htmx:
        template += "#together-form"
    return render(request, template, context, status=status)


def _submit_together(
    request: HtmxHttpRequest,
    campaign: Campaign,
    siblings: list[Assignment],
    session_url: str,
    draft_url: str,
) -> HttpResponse:
    """Set-up 1: every criterion's answers of the page, recorded together or not at all."""
    forms = [_page_form(a, request.POST) for a in siblings]
    progress = session_selectors.worker_progress(worker=siblings[0].worker, campaign=campaign)
    bad = 200 if request.htmx else 400
    if not all([form.is_valid() for _, _, form in forms]):  # every form, for every error
        return render_together(
            request, forms, progress, action=request.path, draft_url=draft_url, status=bad
        )
    try:
        judgement_services.judgements_submit_page(
            assignments=siblings,
            scores={a.criterion_id: form.cleaned_scores for a, _, form in forms},
            checks={a.criterion_id: form.cleaned_checks for a, _, form in forms},
            acknowledge_too_fast=request.POST.get("acknowledge_too_fast") == "1",
            metadata={"js": bool(request.POST.get("js")), "setup": "together"},
        )
    except judgement_services.TooFast as error:
        return render_together(
            request,
            forms,
            progress,
            action=request.path,
            draft_url=draft_url,
            status=bad,
            too_fast=error,
        )
    except judgement_services.InvalidPageScores as error:
        for _, page, form in forms:
            for slot, message in error.errors.get(page.criterion.pk, {}).items():
                if f"score_{slot}" in form.fields:
                    form.add_error(f"score_{slot}", message)
        return render_together(
            request, forms, progress, action=request.path, draft_url=draft_url, status=bad
        )
    except DomainError as error:
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
    return _to_session(request, session_url)
