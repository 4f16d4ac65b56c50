"""The task page's form: the scores of a task (the 400s), and the task page it is shown on
(one criterion, or every criterion of a set-up 1 page) as the session's page, the submit
and the designer's preview render it. Domain rules stay in the services."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from annotations.models import Assignment, Criterion
from annotations.selectors.judgements import TaskPage
from annotations.selectors.sessions import Progress
from annotations.services.criteria import CONTENT_CHECKS, checklist_problem
from annotations.services.judgements import PageAnswers, max_magnitude
from common.converters import whole_number
from common.http import HtmxHttpRequest

_WHOLE = re.compile(r"^[0-9]+$")
_NEGATIVE = re.compile(r"^-[0-9]+$")


def _ascii_digits(raw: str) -> str:
    """Every decimal digit of any script as its ASCII digit ("٨٠" -> "80")."""
    return "".join(str(unicodedata.decimal(ch)) if ch.isdecimal() else ch for ch in raw)


# Where every slider starts (the middle); the page renders it, the form checks against it.
SLIDER_START = 50


class ScoresForm(forms.Form):
    """One score per slot of a task, on the criterion's scale.

    Fields are named by slot: ``score_<slot>``; sliders add ``touched_<slot>`` (set by
    the page's script when the worker moves the slider), ``tie_<slot>`` (the slot whose
    value this one takes, "same as") and ``keep_<slot>`` (a box the worker ticks to say
    that a slider left where it started is their answer). ``js`` is set by the script.
    ``cleaned_scores`` maps slot -> score after validation.

    Untouched sliders: every slider starts at ``SLIDER_START``. A slider counts as placed
    when the script saw it moved (``touched``), when its value differs from the start
    (it can only have got there by being moved: this is what detects untouched sliders
    without JavaScript), when it takes another output's value ("same as"), or when the
    worker ticked "keep". Otherwise it is an error, and the page re-rendered with that
    error offers the "keep" box. So a worker without JavaScript who really means the
    middle is asked once and then confirms; nobody is refused forever, and nobody's
    forgotten slider is recorded as a deliberate 50.
    """

    js = forms.CharField(required=False, widget=forms.HiddenInput)
    acknowledge_too_fast = forms.BooleanField(required=False)

    def __init__(
        self, *args: Any, criterion: Criterion, letters: dict[int, str], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.criterion = criterion
        self.letters = letters
        self.cleaned_scores: dict[int, float] = {}
        # Content checks the worker ticked, slot -> keys (only when the criterion asks).
        self.cleaned_checks: dict[int, list[str]] = {}
        # Sliders refused as not moved: their page offers the "keep in the middle" box.
        self.untouched: set[int] = set()
        for slot in letters:
            self.fields[f"score_{slot}"] = forms.CharField(required=False)
            if criterion.scale == Criterion.Scale.SLIDER:
                self.fields[f"touched_{slot}"] = forms.CharField(required=False)
                self.fields[f"tie_{slot}"] = forms.CharField(required=False)
                self.fields[f"keep_{slot}"] = forms.BooleanField(required=False)
            if criterion.content_checks:
                self.fields[f"check_{slot}"] = forms.MultipleChoiceField(
                    required=False,
                    choices=[(k, CONTENT_CHECKS.get(k, k)) for k in criterion.content_checks],
                    error_messages={"invalid_choice": _("Tick only the statements shown.")},
                )

    def _magnitude(self, raw: str) -> tuple[float | None, str | None]:
        """RankME's rule: a whole number above 0 of at most ``max_digits`` digits.

        Nothing is rounded, cut or reinterpreted ("1e3", "12.5" and "1,000" are refused,
        never read as 1000, 12 or 1); only spaces around the number are ignored.
        """
        standard = self.criterion.standard
        if raw == "":
            return None, gettext("Enter a number (%(standard)s = as good as the standard).") % {
                "standard": standard
            }
        digits = len(str(max_magnitude(self.criterion)))
        # Digits of other scripts, as some phone keyboards type them (٨٠, full-width
        # U+FF11 U+FF10 U+FF10): the same number, read as such (static/js/worker.js reads them alike).
        raw = _ascii_digits(raw)
        if _NEGATIVE.fullmatch(raw):
            return None, gettext(
                "Enter a number above 0 (half as good as the standard is %(half)s)."
            ) % {"half": standard // 2 or 1}
        if not _WHOLE.fullmatch(raw):
            return None, gettext(
                "“%(raw)s” is not a whole number: use digits only, without signs, "
                "decimals, spaces or exponents, e.g. %(example)s."
            ) % {"raw": raw[:20], "example": standard + standard // 2}
        if len(raw) > digits:
            return None, gettext(
                "%(raw)s has %(length)s digits; enter a whole number of at most %(digits)s digits."
            ) % {
                "raw": raw[:20] + ("…" if len(raw) > 20 else ""),
                "length": len(raw),
                "digits": digits,
            }
        value = int(raw)
        if value <= 0:
            return None, gettext(
                "Enter a number above 0 (half as good as the standard is %(half)s)."
            ) % {"half": standard // 2 or 1}
        return float(value), None

    def _slider(self, raw: str) -> tuple[float | None, str | None]:
        try:
            value = float(raw)
        except ValueError:
            return None, gettext("Move the slider to give this output a score.")
        if not 0 <= value <= 100:
            return None, gettext("Move the slider to give this output a score.")
        return value, None

    def _likert(self, raw: str) -> tuple[float | None, str | None]:
        values = {
            str(level["value"]): float(level["value"]) for level in self.criterion.likert_levels
        }
        if raw == "":
            return None, gettext("Choose one of the levels for this output.")
        if raw not in values:
            return None, gettext("Choose one of the levels shown.")
        return values[raw], None

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        scale = self.criterion.scale
        parsers: dict[str, Callable[[str], tuple[float | None, str | None]]] = {
            Criterion.Scale.MAGNITUDE: self._magnitude,
            Criterion.Scale.SLIDER: self._slider,
            Criterion.Scale.LIKERT: self._likert,
        }
        parse = parsers[scale]
        scores: dict[int, float] = {}
        for slot, letter in self.letters.items():
            value, error = parse((data.get(f"score_{slot}") or "").strip())
            if error:
                self.add_error(
                    f"score_{slot}",
                    gettext("Output %(letter)s: %(error)s") % {"letter": letter, "error": error},
                )
            elif value is not None:
                scores[slot] = value
        if scale == Criterion.Scale.SLIDER:
            self._clean_slider(data, scores)
        self.cleaned_scores = scores
        if self.criterion.content_checks:
            self.cleaned_checks = {
                slot: list(data.get(f"check_{slot}") or []) for slot in self.letters
            }
            self._clean_checks()
        return data

    def _clean_checks(self) -> None:
        """RankME's checklist rules (``services.criteria.checklist_problem``, which the
        submit service applies too), said here beside the output's boxes."""
        offered = self.criterion.content_checks or []
        for slot, letter in self.letters.items():
            name = f"check_{slot}"
            if self.has_error(name):
                continue
            message = checklist_problem(offered=offered, ticked=self.cleaned_checks.get(slot, []))
            if message:
                self.add_error(
                    name,
                    gettext("Output %(letter)s: %(error)s") % {"letter": letter, "error": message},
                )

    def _clean_slider(self, data: dict[str, Any], scores: dict[int, float]) -> None:
        ties = {}
        for slot, letter in self.letters.items():
            target = (data.get(f"tie_{slot}") or "").strip()
            if not target:
                continue
            target_slot = whole_number(target)
            if target_slot is None or target_slot not in self.letters or target_slot == slot:
                self.add_error(
                    f"tie_{slot}",
                    gettext("Output %(letter)s: choose another output.") % {"letter": letter},
                )
                continue
            ties[slot] = target_slot
        # Follow "same as" links to the output that holds the value; a loop is an error.
        for slot in ties:
            seen, target = {slot}, ties[slot]
            while target in ties and target not in seen:
                seen.add(target)
                target = ties[target]
            if target in seen:
                self.add_error(
                    f"tie_{slot}",
                    gettext("Output %(letter)s: these outputs point at each other.")
                    % {"letter": self.letters[slot]},
                )
            elif target in scores:
                scores[slot] = scores[target]
        for slot, letter in self.letters.items():
            if f"score_{slot}" in self.errors or slot in ties:
                continue
            placed = (
                bool(data.get(f"touched_{slot}"))
                or bool(data.get(f"keep_{slot}"))
                or scores.get(slot) != SLIDER_START
            )
            if not placed:
                self.add_error(
                    f"score_{slot}",
                    gettext(
                        "Output %(letter)s: you have not moved this slider yet. Move it to "
                        "where you think this output belongs, or tick the box below to keep it "
                        "in the middle."
                    )
                    % {"letter": letter},
                )
                scores.pop(slot, None)
                self.untouched.add(slot)


# The task page a form is shown on -------------------------------------------------------

# A page's forms, one per criterion: its assignment (None in a designer's preview), the
# criterion's part of the page, and the form.
PageForms = Sequence[tuple[Assignment | None, TaskPage, ScoresForm]]

TASK_TEMPLATE = "annotations/judgements/task.html"
TOGETHER_TEMPLATE = "annotations/judgements/task_together.html"


def page_forms(
    parts: Sequence[tuple[Assignment, TaskPage]],
    data: QueryDict | None,
    *,
    draft: Assignment | None = None,
) -> list[tuple[Assignment, TaskPage, ScoresForm]]:
    """The forms of a page (``selectors.judgements.page_parts``), bound to ``data`` when
    posted; ``draft``: the assignment whose autosaved answers fill them in (a set-up 1
    page autosaves onto its first assignment, the one its form posts to). On a set-up 1
    page each criterion's fields are named ``c<criterion id>-``."""
    if len(parts) == 1:
        ((assignment, page),) = parts
        initial = draft_initial(draft) if draft is not None else None
        form = ScoresForm(data, criterion=page.criterion, letters=page.letters, initial=initial)
        return [(assignment, page, form)]
    found = []
    for assignment, page in parts:
        prefix = f"c{assignment.criterion_id}"
        form = ScoresForm(
            data,
            criterion=page.criterion,
            letters=page.letters,
            prefix=prefix,
            initial=draft_initial(draft, prefix) if draft is not None else None,
        )
        found.append((assignment, page, form))
    return found


def page_answers(
    forms: Sequence[tuple[Assignment, TaskPage, ScoresForm]], data: QueryDict
) -> PageAnswers | None:
    """The answers of a page's forms as ``services.judgements.assignment_submit`` records
    them, or None when a form is not valid (every form is validated, for every error). A
    set-up 1 page's flags are its own fields, not any criterion's."""
    if not all([form.is_valid() for *__, form in forms]):
        return None
    scores = {a.criterion_id: form.cleaned_scores for a, __, form in forms}
    checks = {a.criterion_id: form.cleaned_checks for a, __, form in forms}
    if len(forms) == 1:
        form = forms[0][2]
        return PageAnswers(
            scores=scores,
            checks=checks,
            acknowledge_too_fast=form.cleaned_data.get("acknowledge_too_fast", False),
            metadata={"js": bool(form.cleaned_data.get("js"))},
        )
    return PageAnswers(
        scores=scores,
        checks=checks,
        acknowledge_too_fast=data.get("acknowledge_too_fast") == "1",
        metadata={"js": bool(data.get("js")), "setup": "together"},
    )


def score_errors_add(forms: PageForms, errors: Mapping[int, Mapping[int, str]]) -> None:
    """Put a refusal's messages (criterion id -> slot -> message) beside the outputs they
    name, on the forms of a page."""
    for __, page, form in forms:
        for slot, message in errors.get(page.criterion.pk, {}).items():
            if f"score_{slot}" in form.fields:
                form.add_error(f"score_{slot}", message)


def task_page(
    request: HtmxHttpRequest, forms: PageForms, progress: Progress | None, **extra: Any
) -> tuple[str, dict[str, Any]]:
    """The template and context (what ``render`` takes) of the task page of ``forms``: one
    criterion's page, or with several forms the set-up 1 page; for htmx only its form.
    ``extra`` goes to the template as it is (``action``: where the page posts)."""
    # What only a preview or a refusal sets, named for every page: a name the context
    # lacks costs the template an exception at each use.
    extra = {"preview": False, "preview_ok": False, "too_fast": None, **extra}
    if len(forms) > 1:
        context = {**_together_context(forms), "progress": progress, **extra}
        return TOGETHER_TEMPLATE + ("#together-form" if request.htmx else ""), context
    __, page, form = forms[0]
    context = _task_context(page, form, progress, **extra)
    return TASK_TEMPLATE + ("#task-form" if request.htmx else ""), context


def draft_initial(assignment: Assignment, prefix: str = "") -> dict[str, Any]:
    """The answers autosaved on the page (``Assignment.draft``) as a form's initial values."""
    lead = f"{prefix}-" if prefix else ""
    return {
        name[len(lead) :]: value
        for name, value in (assignment.draft or {}).items()
        if name.startswith(lead) and (prefix or "-" not in name)
    }


def _task_context(
    page: TaskPage,
    form: ScoresForm,
    progress: Progress | None,
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
        if slots[-1]["checks"]:
            slots[-1]["checks_legend"] = gettext("About output %(letter)s: tick all that apply") % {
                "letter": s.letter
            }
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
        for __, page, form in forms
    ]
    outputs = []
    errors = []
    focused = False
    for s in lead.slots:
        answers = []
        for (__, page, form), c in zip(forms, criteria, strict=True):
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
        "together_standards": _together_standards([part[1].criterion for part in forms]),
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
