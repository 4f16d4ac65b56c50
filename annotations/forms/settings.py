"""The campaign settings form, with its labels and groups (every setting in exactly one group)."""

from __future__ import annotations

import copy
from typing import Any

from django import forms
from django.core.validators import MinValueValidator

from annotations.models import Campaign
from annotations.selectors.campaigns import AT_LEAST_ONE, SETTINGS_ON_PAGE
from annotations.services.campaigns import campaign_fixed_check, campaign_settings_problems
from common.errors import DomainError

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
    (
        "The campaign",
        "Workers see the name and the description: they head the worker's instructions.",
        ["name", "description"],
    ),
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
        # The service says why these must be at least 1 ("every task needs a judge"): a
        # negative number gets its words too, not the column's "greater than or equal
        # to 0" (which suggested 0 would do).
        for name in AT_LEAST_ONE & set(self.fields):
            field = self.fields[name]
            field.validators = [v for v in field.validators if not isinstance(v, MinValueValidator)]
            field.widget.attrs["min"] = "1"
        # Each input carries the value the page showed (a hidden "initial-" twin), so that
        # a save changes only what was changed on this page: a second tab opened before
        # another tab's save no longer writes its stale values back over that save.
        for field in self.fields.values():
            field.show_hidden_initial = True

    def groups(self) -> list[tuple[str, str, list[forms.BoundField]]]:
        """The fields as the page shows them: (title, note, bound fields) per group.

        Every field of the form is in exactly one group (``tests/annotations/
        forms/test_settings.py`` checks it): a field the page left out would come back
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
        # a script) is refused out loud rather than dropped, by the service's rule.
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
                    tried.append(name)
        try:
            campaign_fixed_check(campaign=self.instance, changed=tried)
        except DomainError as exc:
            self.add_error(None, str(exc))
        candidate = copy.copy(self.instance)
        for name, value in data.items():
            if name in self.fields and value is not None:
                setattr(candidate, name, value)
        for name, reason in campaign_settings_problems(campaign=candidate).items():
            target = name if name in self.fields and not self.fields[name].disabled else None
            if target is None or target not in self.errors:
                self.add_error(target, reason[:1].upper() + reason[1:])
        return data
