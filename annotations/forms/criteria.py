"""Forms of criteria: a preset, or one written in."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from annotations.models import Criterion, Output
from annotations.services.criteria import CONTENT_CHECKS, CRITERION_PRESETS

PRESET_CHOICES = [("", "— choose a preset —")] + [(k, k.title()) for k in CRITERION_PRESETS]
WRITE_IN = ""


class CriterionPresetForm(forms.Form):
    """The preset a new criterion's form is filled from (a GET: nothing is saved)."""

    preset = forms.ChoiceField(
        choices=PRESET_CHOICES,
        required=False,
        help_text=(
            "E2E quality / naturalness and RankME informativeness (magnitude estimation "
            "against a standard), or MTG's grammar / fluency / relevance (1-5)."
        ),
    )


def _levels_text(levels: list[dict[str, Any]]) -> str:
    return "\n".join(
        f"{lv.get('value')} | {lv.get('label', '')} | {lv.get('descriptor', '')}" for lv in levels
    )


def _excerpt(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


#: a level written "1 - Very unclear" (or "1: ...", "1) ...", "1. ..."): value and label
_DASHED_LEVEL = re.compile(r"^\s*(-?[0-9]+)\s*(?:[-\u2013\u2014:)]|\.(?!\d))\s*(.+)$")


class CriterionForm(forms.Form):
    """A criterion as the designer sees it: question, scale, and for magnitude estimation
    the standard workers relate their scores to; the per-output content checks.

    A preset only fills this form (``initial_for_preset``); what is saved is what the
    form shows, so a preset's scale can never be overridden by a field left at its
    default. ``standard_output`` lists uploaded outputs with their item's input; choosing
    one copies it, "write it in" uses the two text fields.
    """

    preset = forms.CharField(
        required=False, widget=forms.HiddenInput(attrs={"id": "criterion-preset"})
    )
    name = forms.SlugField(
        max_length=64,
        required=False,
        help_text="Short name, e.g. quality. A preset's name if empty.",
    )
    question = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))
    show_input = forms.BooleanField(required=False, label="Show the input")
    scale = forms.ChoiceField(choices=Criterion.Scale.choices)
    levels = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 5}),
        label="Likert levels",
        help_text="Likert: one level a line, 'value | label | descriptor' (or 'value - label').",
    )
    standard = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=999999,
        label="Standard's value",
        help_text="Magnitude estimation: the score the standard stands for (RankME: 100).",
    )
    standard_output = forms.ChoiceField(
        required=False,
        label="Standard: an uploaded output",
        help_text=(
            "Workers see this output (and its input, if the input is shown) above every "
            "task of the criterion, with its value. Or write one in below."
        ),
    )
    standard_input = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Standard's input (written in)",
        help_text="Used when no uploaded output is chosen above.",
    )
    standard_text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Standard's text (written in)",
        help_text="Used when no uploaded output is chosen above.",
    )
    example = forms.CharField(
        required=False,
        max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 4}),
        label="Worked example",
        help_text=(
            "Shown under the criterion on the workers' instructions (Markdown). Leave it "
            "empty for the example generated from the standard, as shown on the campaign's "
            "worker preview."
        ),
    )
    content_checks = forms.MultipleChoiceField(
        required=False,
        choices=list(CONTENT_CHECKS.items()),
        widget=forms.CheckboxSelectMultiple,
        label="Content checks under each output",
        help_text="Workers tick the statements that apply to each output (RankME).",
    )

    def __init__(
        self,
        data: Any = None,
        *args: Any,
        editing: bool = False,
        outputs: list[Output] | None = None,
        **kwargs: Any,
    ) -> None:
        preset = data.get("preset", "") if data is not None and not editing else ""
        if preset in CRITERION_PRESETS and not {"question", "scale"} & set(data):
            # A post naming only a preset (a script, a test): the preset's fields as the
            # filled form would send them, so it is saved exactly as the form shows it.
            filled = self.initial_for_preset(preset)
            data = {
                **{k: v for k, v in filled.items() if v not in (None, False)},
                **{k: v for k, v in data.items() if k != "content_checks"},
            }
        super().__init__(data, *args, **kwargs)
        self.editing = editing
        self.outputs = {str(o.pk): o for o in outputs or []}
        groups: dict[int, tuple[str, list[tuple[str, str]]]] = {}
        for o in outputs or []:
            label = f"Item {o.item.external_id}: {_excerpt(o.item.input, 90)}"
            groups.setdefault(o.item_id, (label, []))[1].append(
                (str(o.pk), f"{o.system.label}, item {o.item.external_id}: {_excerpt(o.text, 100)}")
            )
        self.fields["standard_output"].choices = [  # type: ignore[attr-defined]
            (WRITE_IN, "— none: write it in below —"),
            *groups.values(),
        ]
        if editing:
            del self.fields["preset"]

    def clean_levels(self) -> list[dict[str, Any]] | None:
        text = self.cleaned_data.get("levels") or ""
        if not text.strip():
            return None
        levels = []
        for n, line in enumerate(text.strip().splitlines(), start=1):
            parts = [p.strip() for p in line.split("|")]
            dashed = _DASHED_LEVEL.match(line) if len(parts) == 1 else None
            if dashed:  # "1 - Very unclear", "2: Unclear", "3) Fair": value and label
                parts = [dashed.group(1), dashed.group(2).strip()]
            try:
                value = int(parts[0])
            except ValueError as exc:
                raise forms.ValidationError(
                    f"Line {n}: '{line.strip()[:60]}' does not start with the level's whole "
                    "number. Write one level a line as value | label | descriptor, e.g. "
                    "1 | Very unclear | The text cannot be understood."
                ) from exc
            label = parts[1] if len(parts) > 1 and parts[1] else str(value)
            descriptor = parts[2] if len(parts) > 2 else ""
            levels.append({"value": value, "label": label, "descriptor": descriptor})
        return levels

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if not self.editing and not data.get("name"):
            if data.get("preset") in CRITERION_PRESETS:
                data["name"] = data["preset"]
            else:
                self.add_error("name", "Give the criterion a short name, e.g. quality.")
        likert = data.get("scale") == Criterion.Scale.LIKERT
        if likert and not data.get("levels") and "levels" not in self.errors:
            self.add_error("levels", "A Likert scale needs its levels, one a line.")
        if data.get("scale") == Criterion.Scale.MAGNITUDE:
            self._refuse_both_standards(data)
        return data

    def _refuse_both_standards(self, data: dict[str, Any]) -> None:
        """An uploaded output chosen as the standard *and* a standard typed in: the typed
        one was dropped without a word. Text that is the chosen output's own, or still
        what the form showed (the edit form fills in the current standard), is no
        choice of the designer's and is left alone."""
        output = self.outputs.get(data.get("standard_output") or WRITE_IN)
        if output is None:
            return
        own = {"standard_text": output.text, "standard_input": output.item.input}
        for field, text in own.items():
            typed = (data.get(field) or "").strip()
            shown = str(self.initial.get(field) or "").strip()
            if typed and typed not in (text.strip(), shown):
                self.add_error(
                    field,
                    "An uploaded output is chosen as the standard: clear this written-in "
                    "text to use that output, or choose “none: write it in below” to use "
                    "this text.",
                )

    def service_fields(self, criterion: Criterion | None = None) -> dict[str, Any]:
        """The fields to hand to criterion_create / criterion_update: exactly the form's."""
        data = self.cleaned_data
        fields: dict[str, Any] = {
            "question": data["question"],
            "show_input": bool(data.get("show_input")),
            "scale": data["scale"],
            "example": data.get("example") or "",
        }
        if not self.editing:
            fields["name"] = data["name"]
        kept = (
            dict(criterion.scale_settings) if criterion and criterion.scale == data["scale"] else {}
        )
        if data["scale"] == Criterion.Scale.MAGNITUDE:
            kept.pop("levels", None)
            fields["scale_settings"] = {
                **kept,
                "standard": data.get("standard") or Criterion.MAGNITUDE_STANDARD,
                "max_digits": kept.get("max_digits", Criterion.MAGNITUDE_MAX_DIGITS),
            }
        elif data["scale"] == Criterion.Scale.LIKERT:
            fields["scale_settings"] = {"levels": data["levels"]}
        else:
            fields["scale_settings"] = {}
        return fields

    def rankme_fields(self) -> dict[str, Any]:
        """The standard and the content checks, for ``criterion_define``."""
        data = self.cleaned_data
        fields: dict[str, Any] = {"content_checks": list(data.get("content_checks") or [])}
        if data["scale"] != Criterion.Scale.MAGNITUDE:
            return fields
        chosen = data.get("standard_output") or WRITE_IN
        if chosen != WRITE_IN:
            fields["standard_output"] = self.outputs[chosen]
        else:
            fields["standard_input"] = data.get("standard_input") or ""
            fields["standard_text"] = data.get("standard_text") or ""
        return fields

    @staticmethod
    def initial_for(criterion: Criterion) -> dict[str, Any]:
        return {
            "name": criterion.name,
            "question": criterion.question,
            "show_input": criterion.show_input,
            "scale": criterion.scale,
            "standard": criterion.standard,
            "levels": _levels_text(criterion.likert_levels),
            "standard_output": str(criterion.standard_output_id or WRITE_IN),
            "standard_input": criterion.standard_input,
            "standard_text": criterion.standard_text,
            "content_checks": list(criterion.content_checks or []),
            "example": criterion.example,
        }

    @staticmethod
    def initial_for_preset(preset: str) -> dict[str, Any]:
        """The form filled from a preset (empty but for the defaults when unknown)."""
        fields = CRITERION_PRESETS.get(preset)
        if fields is None:
            return {
                "show_input": True,
                "scale": Criterion.Scale.MAGNITUDE,
                "standard": Criterion.MAGNITUDE_STANDARD,
            }
        settings = fields.get("scale_settings", {})
        return {
            "preset": preset,
            "name": preset,
            "question": fields["question"],
            "show_input": fields.get("show_input", True),
            "scale": fields["scale"],
            "standard": settings.get("standard", Criterion.MAGNITUDE_STANDARD),
            "levels": _levels_text(settings.get("levels", [])),
            "content_checks": list(fields.get("content_checks", [])),
        }
