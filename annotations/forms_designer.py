"""Forms of the designer pages: they check the shape of input; services decide."""

from __future__ import annotations

import copy
from typing import Any

from django import forms
from django.conf import settings as django_settings

from annotations.models import Campaign, CampaignMembership, Criterion, Output
from annotations.services.campaigns import SETTINGS_ON_PAGE, campaign_settings_problems
from annotations.services.criteria import CONTENT_CHECKS, CRITERION_PRESETS
from common.forms import SiteLabels


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    widget = MultipleFileInput

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(d, initial) for d in data]
        return [single(data, initial)]


def _slug_from_name(help_text: str) -> forms.SlugField:
    """A campaign's slug, suggested from its ``name`` field as the name is typed, until
    the slug is edited (``data-slug-from`` in static/js/humaneval.js)."""
    return forms.SlugField(
        max_length=64,
        help_text=help_text,
        widget=forms.TextInput(attrs={"data-slug-from": "id_name"}),
    )


class CampaignCloneForm(SiteLabels, forms.Form):
    name = forms.CharField(max_length=200)
    slug = _slug_from_name("Short name used in links; a new one for the new round.")


class CampaignCreateForm(SiteLabels, forms.Form):
    name = forms.CharField(max_length=200)
    slug = _slug_from_name("Short name used in links, e.g. e2e-quality-2024.")
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)


class UploadForm(SiteLabels, forms.Form):
    # The form's metaclass moves declared fields off the class, so ``self.files`` stays
    # the uploaded files; the stubs see only a class attribute shadowing BaseForm.files.
    files = MultipleFileField(  # type: ignore[assignment]
        help_text=(
            # Django writes a help text as HTML: no angle brackets here.
            "A .csv or .jsonl file of outputs, or the .tsv files of an E2E-style release, "
            "one per system (select them all; participants.tsv names the systems)."
        )
    )


# The design form's fields as an organizer reads them: grouped, in plain words.
SETTINGS_LABELS: dict[str, tuple[str, str]] = {
    "setup": (
        "Criteria on a page",
        "RankME set-up 1 shows every criterion of an item on one page (one score per output "
        "and criterion); set-up 2 gives each criterion its own tasks. Each criterion keeps "
        "its own comparisons and ranking either way.",
    ),
    "outputs_per_task": (
        "Outputs per task",
        "How many system outputs a worker scores side by side (RankME: 5).",
    ),
    "judgements_per_task": ("Judgements per task", "How many different workers judge each task."),
    "tasks_per_worker": (
        "Tasks per worker",
        "At most this many pages for one worker, checks included: a page is one task in"
        " set-up 2 and one item with every criterion in set-up 1 (the plan, the monitor and"
        " payments count pages).",
    ),
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
        "Workers below it are flagged (and stopped, if chosen below). Repeated tasks are "
        "rated against it on their own, never pooled with attention checks.",
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
    "screened_out_code": (
        "Screened-out code",
        "Shown to workers turned away before any task (none left for them, or all taken).",
    ),
    "consent_text": (
        "Consent text",
        "Shown before the first task; workers tick a box to agree. Markdown: **bold**, "
        "lists, [links](https://example.org); HTML is cleaned.",
    ),
    "instructions": (
        "Instructions",
        "Shown before the first task and in MTurk previews, in Markdown (headings with #, "
        "lists with -, links). Each criterion's scale is explained below them.",
    ),
}
SETTINGS_GROUPS: list[tuple[str, str, list[str]]] = [
    ("The campaign", "", ["name", "description"]),
    (
        "Task design",
        "Fixed once tasks are built.",
        [
            "setup",
            "outputs_per_task",
            "judgements_per_task",
            "tasks_per_worker",
            "merge_identical_outputs",
        ],
    ),
    (
        "Quality control",
        "Check and repeat shares are fixed once tasks are built.",
        ["attention_check_rate", "repeat_rate", "quality_threshold", "stop_failed_workers"],
    ),
    (
        "Adaptive design",
        "After the built tasks, more tasks in batches where the ranks are undecided; the "
        "Rankings page's Adaptive design view shows each batch and when the clusters are "
        "stable.",
        ["adaptive_design", "adaptive_batch_tasks"],
    ),
    (
        "Timing",
        "",
        ["assignment_timeout_minutes", "min_seconds_per_task", "min_time_policy"],
    ),
    (
        "Where workers come from",
        "",
        [
            "accept_prolific",
            "accept_mturk",
            "accept_link",
            "completion_code",
            "failed_check_code",
            "screened_out_code",
        ],
    ),
    ("What workers read", "", ["consent_text", "instructions"]),
]


class SettingsPageIncomplete(Exception):
    """A setting of the form is in no group of the page (a programming error)."""


class CampaignDesignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = list(SETTINGS_ON_PAGE)
        widgets = {
            "description": forms.Textarea(attrs={"rows": 2}),
            "consent_text": forms.Textarea(attrs={"rows": 4}),
            "instructions": forms.Textarea(attrs={"rows": 6}),
            "attention_check_rate": forms.NumberInput(attrs={"step": "0.01", "min": 0, "max": 1}),
            "repeat_rate": forms.NumberInput(attrs={"step": "0.01", "min": 0, "max": 1}),
            "quality_threshold": forms.NumberInput(attrs={"step": "0.01", "min": 0, "max": 1}),
        }

    def __init__(self, *args: Any, fixed: frozenset[str] = frozenset(), **kwargs: Any) -> None:
        """``fixed``: settings that can no longer change (``campaign_fixed_fields``); they
        are disabled, so a posted value is never read, and the page shows them as text."""
        super().__init__(*args, **kwargs)
        for name, (label, help_text) in SETTINGS_LABELS.items():
            self.fields[name].label = label
            self.fields[name].help_text = help_text or self.fields[name].help_text
        for name in fixed & set(self.fields):
            self.fields[name].disabled = True
            self.fields[name].required = False

    def groups(self) -> list[tuple[str, str, list[forms.BoundField]]]:
        """The fields as the page shows them: (title, note, bound fields) per group.

        Every field of the form is in exactly one group (``tests/annotations/
        test_forms_designer.py`` checks it): a field the page left out would come back
        empty from the browser and be reset on save."""
        missing = set(self.fields) - {name for _, _, names in SETTINGS_GROUPS for name in names}
        if missing:
            raise SettingsPageIncomplete(
                f"settings in no group of the page (they would be reset on save): {sorted(missing)}"
            )
        return [
            (title, note, [self[name] for name in names]) for title, note, names in SETTINGS_GROUPS
        ]

    def clean(self) -> dict[str, Any]:
        """The service's checks of the settings together, each reason on its field.

        A field in error is left out of the model's own constraint checks, so the page
        never shows a database constraint's name.
        """
        data = super().clean() or {}
        # A fixed setting has no input on the page; a value posted anyway (an old page,
        # a script) is refused out loud rather than dropped.
        tried = []
        for name, field in self.fields.items():
            raw = self.data.get(self.add_prefix(name)) if field.disabled else None
            if raw is not None:
                value = field.widget.value_from_datadict(
                    self.data, self.files, self.add_prefix(name)
                )
                try:
                    posted = field.to_python(value)
                except forms.ValidationError:
                    posted = raw
                if posted != self.get_initial_for_field(field, name):
                    tried.append(str(field.label or name).lower())
        if tried:
            self.add_error(
                None,
                f"These settings can no longer change: {', '.join(tried)}. "
                "Clone the campaign to run a new round with other settings.",
            )
        candidate = copy.copy(self.instance)
        for name, value in data.items():
            if name in self.fields and value is not None:
                setattr(candidate, name, value)
        for name, reason in campaign_settings_problems(campaign=candidate).items():
            target = name if name in self.fields and not self.fields[name].disabled else None
            if target is None or target not in self.errors:
                self.add_error(target, reason[:1].upper() + reason[1:])
        return data


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
        help_text="Likert: one level a line, 'value | label | descriptor'.",
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
                (str(o.pk), f"{o.system.label}: {_excerpt(o.text, 100)}")
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
        if not self.editing and not data.get("name"):
            if data.get("preset") in CRITERION_PRESETS:
                data["name"] = data["preset"]
            else:
                self.add_error("name", "Give the criterion a short name, e.g. quality.")
        likert = data.get("scale") == Criterion.Scale.LIKERT
        if likert and not data.get("levels") and "levels" not in self.errors:
            self.add_error("levels", "A Likert scale needs its levels, one a line.")
        return data

    def service_fields(self, criterion: Criterion | None = None) -> dict[str, Any]:
        """The fields to hand to criterion_create / criterion_update: exactly the form's."""
        data = self.cleaned_data
        fields: dict[str, Any] = {
            "question": data["question"],
            "show_input": bool(data.get("show_input")),
            "scale": data["scale"],
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
                "standard": data.get("standard") or 100,
                "max_digits": kept.get("max_digits", 6),
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
            "standard": criterion.scale_settings.get("standard", 100),
            "levels": _levels_text(criterion.likert_levels),
            "standard_output": str(criterion.standard_output_id or WRITE_IN),
            "standard_input": criterion.standard_input,
            "standard_text": criterion.standard_text,
            "content_checks": list(criterion.content_checks or []),
        }

    @staticmethod
    def initial_for_preset(preset: str) -> dict[str, Any]:
        """The form filled from a preset (empty but for the defaults when unknown)."""
        fields = CRITERION_PRESETS.get(preset)
        if fields is None:
            return {"show_input": True, "scale": Criterion.Scale.MAGNITUDE, "standard": 100}
        settings = fields.get("scale_settings", {})
        return {
            "preset": preset,
            "name": preset,
            "question": fields["question"],
            "show_input": fields.get("show_input", True),
            "scale": fields["scale"],
            "standard": settings.get("standard", 100),
            "levels": _levels_text(settings.get("levels", [])),
            "content_checks": list(fields.get("content_checks", [])),
        }


class PlanForm(forms.Form):
    pay_per_hour = forms.DecimalField(
        min_value=0, decimal_places=2, initial=12, label="Pay per hour", required=False
    )
    seconds_per_task = forms.IntegerField(
        min_value=1, label="Expected seconds per task", required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The platform's currency (settings.PAYMENT_CURRENCY), which the costs are in.
        self.fields["pay_per_hour"].label = f"Pay per hour ({django_settings.PAYMENT_CURRENCY})"


class MemberForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=CampaignMembership.Role.choices)
