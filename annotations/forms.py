"""Forms: the shape of input (the 400s). Domain rules stay in the services."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django import forms

from annotations.models import Criterion
from annotations.services.judgements import max_magnitude

_WHOLE = re.compile(r"^[0-9]+$")


class ConsentForm(forms.Form):
    agree = forms.BooleanField(
        required=True,
        label="I have read the information above and agree to take part.",
        error_messages={"required": "Please tick the box to agree before you start."},
    )


class ScoresForm(forms.Form):
    """One score per slot of a task, on the criterion's scale.

    Fields are named by slot: ``score_<slot>``; sliders add ``touched_<slot>`` (set by
    the page's script when the worker moves the slider) and ``tie_<slot>`` (the slot whose
    value this one takes, "same as"). ``js`` is set by the script: only then can untouched
    sliders be detected. ``cleaned_scores`` maps slot -> score after validation.
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
        for slot in letters:
            self.fields[f"score_{slot}"] = forms.CharField(required=False)
            if criterion.scale == Criterion.Scale.SLIDER:
                self.fields[f"touched_{slot}"] = forms.CharField(required=False)
                self.fields[f"tie_{slot}"] = forms.CharField(required=False)

    def _magnitude(self, raw: str) -> tuple[float | None, str | None]:
        if raw == "":
            return None, "Enter a number (100 = as good as the standard)."
        if not _WHOLE.match(raw):
            return None, "Enter a whole number without signs, decimals or spaces, e.g. 150."
        value = int(raw)
        if value <= 0:
            return None, "Enter a number above 0 (half as good as the standard is 50)."
        if value > max_magnitude(self.criterion):
            digits = len(str(max_magnitude(self.criterion)))
            return None, f"Enter at most {digits} digits."
        return float(value), None

    def _slider(self, raw: str) -> tuple[float | None, str | None]:
        try:
            value = float(raw)
        except ValueError:
            return None, "Move the slider to give this output a score."
        if not 0 <= value <= 100:
            return None, "Move the slider to give this output a score."
        return value, None

    def _likert(self, raw: str) -> tuple[float | None, str | None]:
        values = {
            str(level["value"]): float(level["value"]) for level in self.criterion.likert_levels
        }
        if raw == "":
            return None, "Choose one of the levels for this output."
        if raw not in values:
            return None, "Choose one of the levels shown."
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
                self.add_error(f"score_{slot}", f"Output {letter}: {error}")
            elif value is not None:
                scores[slot] = value
        if scale == Criterion.Scale.SLIDER:
            self._clean_slider(data, scores)
        self.cleaned_scores = scores
        return data

    def _clean_slider(self, data: dict[str, Any], scores: dict[int, float]) -> None:
        ties = {}
        for slot, letter in self.letters.items():
            target = (data.get(f"tie_{slot}") or "").strip()
            if not target:
                continue
            if not target.isdigit() or int(target) not in self.letters or int(target) == slot:
                self.add_error(f"tie_{slot}", f"Output {letter}: choose another output.")
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
                    f"Output {self.letters[slot]}: these outputs point at each other.",
                )
            elif target in scores:
                scores[slot] = scores[target]
        if data.get("js"):
            for slot, letter in self.letters.items():
                touched = data.get(f"touched_{slot}") or slot in ties
                if not touched and f"score_{slot}" not in self.errors:
                    self.add_error(
                        f"score_{slot}",
                        f"Output {letter}: you have not moved this slider yet. "
                        "Move it to where you think this output belongs.",
                    )
                    scores.pop(slot, None)
