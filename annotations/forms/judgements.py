"""The task page's form: the scores of a task (the 400s). Domain rules stay in the services."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from annotations.models import Criterion
from annotations.services.criteria import CONTENT_CHECKS, checklist_problem
from annotations.services.judgements import max_magnitude

_WHOLE = re.compile(r"^[0-9]+$")

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
        if not _WHOLE.fullmatch(raw):
            return None, gettext(
                "“%(raw)s” is not a whole number: use digits only, without signs, "
                "decimals, spaces or exponents, e.g. %(example)s."
            ) % {"raw": raw[:20], "example": standard + standard // 2}
        if len(raw) > digits:
            return None, gettext(
                "%(raw)s has %(length)s digits; enter a whole number of at most %(digits)s digits."
            ) % {"raw": raw, "length": len(raw), "digits": digits}
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
            if not target.isdigit() or int(target) not in self.letters or int(target) == slot:
                self.add_error(
                    f"tie_{slot}",
                    gettext("Output %(letter)s: choose another output.") % {"letter": letter},
                )
                continue
            ties[slot] = int(target)
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
