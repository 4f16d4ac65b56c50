"""Forms of the designer pages: they check the shape of input; services decide."""

from __future__ import annotations

import json
from typing import Any

from django import forms

from annotations.models import Campaign, CampaignMembership, Criterion
from annotations.services.campaigns import CRITERION_PRESETS


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    widget = MultipleFileInput

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(d, initial) for d in data]
        return [single(data, initial)]


class CampaignCreateForm(forms.Form):
    name = forms.CharField(max_length=200)
    slug = forms.SlugField(
        max_length=64, help_text="Short name used in links, e.g. e2e-quality-2024."
    )
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)


class UploadForm(forms.Form):
    # The form's metaclass moves declared fields off the class, so ``self.files`` stays
    # the uploaded files; the stubs see only a class attribute shadowing BaseForm.files.
    files = MultipleFileField(  # type: ignore[assignment]
        help_text=(
            "A .csv or .jsonl file of outputs, or the <system>.tsv files of an E2E-style "
            "release (select them all; participants.tsv names the systems)."
        )
    )


class CampaignDesignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = [
            "name",
            "description",
            "outputs_per_task",
            "judgements_per_task",
            "tasks_per_worker",
            "assignment_timeout_minutes",
            "min_seconds_per_task",
            "min_time_policy",
            "merge_identical_outputs",
            "attention_check_rate",
            "repeat_rate",
            "quality_threshold",
            "stop_failed_workers",
            "accept_prolific",
            "accept_mturk",
            "accept_link",
            "completion_code",
            "failed_check_code",
            "consent_text",
            "instructions",
        ]
        widgets = {
            "description": forms.Textarea(attrs={"rows": 2}),
            "consent_text": forms.Textarea(attrs={"rows": 4}),
            "instructions": forms.Textarea(attrs={"rows": 6}),
            "attention_check_rate": forms.NumberInput(attrs={"step": "0.01", "min": 0, "max": 1}),
            "repeat_rate": forms.NumberInput(attrs={"step": "0.01", "min": 0, "max": 1}),
            "quality_threshold": forms.NumberInput(attrs={"step": "0.01", "min": 0, "max": 1}),
        }


PRESET_CHOICES = [("", "— no preset —")] + [(k, k.title()) for k in CRITERION_PRESETS]


class CriterionForm(forms.Form):
    preset = forms.ChoiceField(
        choices=PRESET_CHOICES,
        required=False,
        help_text="E2E quality / naturalness (RankME) or MTG's grammar / fluency / relevance (1-5).",
    )
    name = forms.SlugField(max_length=64, required=False)
    question = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)
    show_input = forms.BooleanField(required=False, initial=True, label="Show the input")
    scale = forms.ChoiceField(choices=Criterion.Scale.choices, required=False)
    standard = forms.IntegerField(
        required=False, min_value=1, help_text="Magnitude estimation: the standard's value."
    )
    levels = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text="Likert: one level a line, 'value | label | descriptor'.",
    )

    def __init__(self, *args: Any, editing: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.editing = editing
        if editing:
            del self.fields["preset"]

    def clean_levels(self) -> list[dict[str, Any]] | None:
        text = self.cleaned_data.get("levels") or ""
        if not text.strip():
            return None
        levels = []
        for n, line in enumerate(text.strip().splitlines(), start=1):
            parts = [p.strip() for p in line.split("|")]
            try:
                value = int(parts[0])
            except ValueError as exc:
                raise forms.ValidationError(f"Line {n}: the value must be a whole number.") from exc
            label = parts[1] if len(parts) > 1 and parts[1] else str(value)
            descriptor = parts[2] if len(parts) > 2 else ""
            levels.append({"value": value, "label": label, "descriptor": descriptor})
        return levels

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if not self.editing and not data.get("preset"):
            for required in ("name", "question", "scale"):
                if not data.get(required):
                    self.add_error(required, "Needed when no preset is chosen.")
        return data

    def service_fields(self, criterion: Criterion | None = None) -> dict[str, Any]:
        """The fields to hand to criterion_create / criterion_update."""
        data = self.cleaned_data
        fields: dict[str, Any] = {}
        for key in ("name", "question", "scale"):
            if data.get(key):
                fields[key] = data[key]
        if self.editing or not data.get("preset"):
            fields["show_input"] = data.get("show_input", False)
        scale = data.get("scale") or (criterion.scale if criterion else "")
        settings = dict(criterion.scale_settings) if criterion else {}
        if scale == Criterion.Scale.MAGNITUDE and data.get("standard"):
            settings = {**settings, "standard": data["standard"]}
            settings.setdefault("max_digits", 6)
            fields["scale_settings"] = settings
        elif scale == Criterion.Scale.LIKERT and data.get("levels"):
            fields["scale_settings"] = {**settings, "levels": data["levels"]}
        elif scale and (criterion is None or scale != criterion.scale):
            fields["scale_settings"] = (
                {"standard": 100, "max_digits": 6} if scale == Criterion.Scale.MAGNITUDE else {}
            )
        return fields

    @staticmethod
    def initial_for(criterion: Criterion) -> dict[str, Any]:
        levels = "\n".join(
            f"{lv.get('value')} | {lv.get('label', '')} | {lv.get('descriptor', '')}"
            for lv in criterion.likert_levels
        )
        return {
            "name": criterion.name,
            "question": criterion.question,
            "show_input": criterion.show_input,
            "scale": criterion.scale,
            "standard": criterion.scale_settings.get("standard"),
            "levels": levels,
        }


class PlanForm(forms.Form):
    pay_per_hour = forms.DecimalField(
        min_value=0, decimal_places=2, initial=12, label="Pay per hour", required=False
    )
    seconds_per_task = forms.IntegerField(
        min_value=1, label="Expected seconds per task", required=False
    )


class MemberForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=CampaignMembership.Role.choices)


class WorkerMarkForm(forms.Form):
    flagged = forms.NullBooleanField(required=False)
    excluded = forms.NullBooleanField(required=False)


class ExportForm(forms.Form):
    criterion = forms.CharField()
    format = forms.ChoiceField(choices=[("csv", "CSV"), ("jsonl", "JSONL"), ("wmt", "WMT")])
    include_excluded = forms.BooleanField(required=False, initial=True)


def pretty_json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)
