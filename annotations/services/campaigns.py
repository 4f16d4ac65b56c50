"""Campaigns, criteria, systems, items and outputs: the writes every importer shares."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from annotations.errors import DomainError
from annotations.models import Campaign, CampaignMembership, Criterion, Item, Output, System

E2E_QUALITY_QUESTION = (
    "How do you judge the overall quality of the utterance in terms of its grammatical "
    "correctness, fluency, adequacy and other important factors?"
)
E2E_NATURALNESS_QUESTION = "Could the utterance have been produced by a native speaker?"
RANKME_INFORMATIVENESS_QUESTION = "How informative is the utterance, relative to the standard?"


def _likert(descriptors: list[str]) -> dict[str, Any]:
    return {
        "levels": [
            {"value": i + 1, "label": str(i + 1), "descriptor": d}
            for i, d in enumerate(descriptors)
        ]
    }


# Criterion presets: name -> fields of a Criterion. MTG's 1-5 scales follow the
# grammaticality / fluency / relevance descriptors common in meaning-to-text evaluation.
CRITERION_PRESETS: dict[str, dict[str, Any]] = {
    "quality": {
        "question": E2E_QUALITY_QUESTION,
        "show_input": True,
        "scale": Criterion.Scale.MAGNITUDE,
        "scale_settings": {"standard": 100, "max_digits": 6},
    },
    "naturalness": {
        "question": E2E_NATURALNESS_QUESTION,
        "show_input": False,
        "scale": Criterion.Scale.MAGNITUDE,
        "scale_settings": {"standard": 100, "max_digits": 6},
    },
    # RankME's third criterion (Novikova, Dusek and Rieser 2018), with its checklist.
    "informativeness": {
        "question": RANKME_INFORMATIVENESS_QUESTION,
        "show_input": True,
        "scale": Criterion.Scale.MAGNITUDE,
        "scale_settings": {"standard": 100, "max_digits": 6},
        "content_checks": ["added", "missing", "perfect"],
    },
    "grammar": {
        "question": "How grammatical is the text?",
        "show_input": False,
        "scale": Criterion.Scale.LIKERT,
        "scale_settings": _likert(
            [
                "Incomprehensible: grammar errors make it unreadable",
                "Many serious errors",
                "Several errors, meaning still clear",
                "Minor errors only",
                "Perfectly grammatical",
            ]
        ),
    },
    "fluency": {
        "question": "How fluent and natural does the text read?",
        "show_input": False,
        "scale": Criterion.Scale.LIKERT,
        "scale_settings": _likert(
            [
                "Not fluent at all",
                "Awkward in most places",
                "Understandable but clumsy",
                "Mostly fluent",
                "Completely fluent, as a native speaker would write",
            ]
        ),
    },
    "relevance": {
        "question": "How well does the text express the input, without omissions or additions?",
        "show_input": True,
        "scale": Criterion.Scale.LIKERT,
        "scale_settings": _likert(
            [
                "Unrelated to the input",
                "Expresses little of the input",
                "Expresses about half of the input",
                "Expresses most of the input",
                "Expresses all of the input and nothing else",
            ]
        ),
    },
}


class CampaignSettingsError(DomainError):
    """Settings that cannot work together; ``problems`` maps each field to its reason.

    The message names every field in words, so the API and the CLI can show it as it
    is; forms put each reason next to its field.
    """

    def __init__(self, problems: dict[str, str]) -> None:
        self.problems = problems
        super().__init__(
            " ".join(f"{SETTING_NAMES.get(f, f)}: {reason}" for f, reason in problems.items())
        )


# Settings as the design page names them (for messages outside the form).
SETTING_NAMES: dict[str, str] = {
    "outputs_per_task": "Outputs per task",
    "judgements_per_task": "Judgements per task",
    "tasks_per_worker": "Tasks per worker",
    "assignment_timeout_minutes": "Time allowed for a task",
    "min_seconds_per_task": "Minimum seconds per task",
    "attention_check_rate": "Share of attention checks",
    "repeat_rate": "Share of repeated tasks",
    "quality_threshold": "Lowest attention-check pass rate",
    "accept_prolific": "Platforms",
}


def campaign_settings_problems(*, campaign: Campaign) -> dict[str, str]:
    """What makes the campaign's settings impossible, by field (empty when they work).

    Checked on every save and again before building and launching (systems and
    criteria may have been added since): a task cannot show more outputs than there are
    systems; one output per task is plain magnitude estimation (PlainME) and needs
    magnitude-estimation criteria; a worker needs a platform to arrive from, at least
    one task, and real tasks among the checks and repeats; and a task's time limit must
    leave the minimum time per task.
    """
    problems: dict[str, str] = {}
    k = campaign.outputs_per_task
    n_systems = campaign.systems.count() if campaign.pk else 0
    if k is None or k < 1:
        problems["outputs_per_task"] = "must be at least 1."
    elif n_systems and k > n_systems:
        problems["outputs_per_task"] = (
            f"{k} is more than the {n_systems} systems with outputs; choose at most {n_systems}."
        )
    elif k == 1 and campaign.pk:
        others = list(
            campaign.criteria.exclude(scale=Criterion.Scale.MAGNITUDE).values_list(
                "name", flat=True
            )
        )
        if others:
            problems["outputs_per_task"] = (
                "1 output per task (plain magnitude estimation) needs magnitude-estimation "
                f"criteria; {', '.join(others)} use{'s' if len(others) == 1 else ''} another "
                "scale. Choose 2 or more, or change the scale."
            )
    if campaign.judgements_per_task is None or campaign.judgements_per_task < 1:
        problems["judgements_per_task"] = "must be at least 1: every task needs a judge."
    tasks = campaign.tasks_per_worker
    if tasks is None or tasks < 1:
        problems["tasks_per_worker"] = "must be at least 1: a worker needs a task to do."
    for name in ("attention_check_rate", "repeat_rate", "quality_threshold"):
        value = getattr(campaign, name)
        if value is None or not 0 <= value <= 1:
            problems[name] = "must be between 0 and 1 (a share: 0.1 is one task in ten)."
    checks, repeats = campaign.attention_check_rate or 0, campaign.repeat_rate or 0
    if "attention_check_rate" not in problems and "repeat_rate" not in problems:
        real = 1 - checks - repeats
        if real <= 1e-9:
            problems["repeat_rate"] = (
                f"attention checks ({checks:.0%}) and repeats ({repeats:.0%}) together take "
                "every task: no real task would be left. Keep their sum below 100%."
            )
        elif tasks and tasks >= 1 and tasks * real < 1:
            problems["repeat_rate"] = (
                f"with {tasks} task{'s' if tasks != 1 else ''} per worker, attention checks "
                f"({checks:.0%}) and repeats ({repeats:.0%}) leave no real task for a worker. "
                "Lower the shares or give workers more tasks."
            )
    if not (campaign.accept_prolific or campaign.accept_mturk or campaign.accept_link):
        problems["accept_prolific"] = (
            "accept at least one platform (Prolific, MTurk or the plain link): "
            "otherwise no worker can start."
        )
    timeout = campaign.assignment_timeout_minutes
    if timeout is None or timeout < 1:
        problems["assignment_timeout_minutes"] = "must be at least 1 minute."
    elif campaign.min_seconds_per_task and timeout * 60 < campaign.min_seconds_per_task:
        problems["assignment_timeout_minutes"] = (
            f"{timeout} minute{'s' if timeout != 1 else ''} is shorter than the minimum time "
            f"per task ({campaign.min_seconds_per_task} s): no worker could submit in time."
        )
    return problems


def campaign_settings_check(*, campaign: Campaign) -> None:
    """Raise ``CampaignSettingsError`` naming every impossible setting."""
    problems = campaign_settings_problems(campaign=campaign)
    if problems:
        raise CampaignSettingsError(problems)


@transaction.atomic
def campaign_create(
    *,
    slug: str,
    name: str = "",
    owner: User | None = None,
    **fields: Any,
) -> Campaign:
    """Create a campaign (draft); its owner gets an owner membership."""
    if Campaign.objects.filter(slug=slug).exists():
        raise DomainError(f"A campaign with the slug '{slug}' already exists.")
    campaign = Campaign(slug=slug, name=name or slug, owner=owner, **fields)
    campaign_settings_check(campaign=campaign)
    campaign.full_clean()
    campaign.save()
    if owner is not None:
        CampaignMembership.objects.create(
            campaign=campaign, user=owner, role=CampaignMembership.Role.OWNER
        )
    return campaign


def campaign_get_or_create(*, slug: str, name: str = "", **fields: Any) -> tuple[Campaign, bool]:
    """The campaign with this slug, created as a draft when there is none."""
    campaign = Campaign.objects.filter(slug=slug).first()
    if campaign is not None:
        return campaign, False
    return campaign_create(slug=slug, name=name, **fields), True


def criterion_from_preset(*, campaign: Campaign, preset: str, name: str = "") -> Criterion:
    """The campaign's criterion made from a preset (updated in place when it exists)."""
    if preset not in CRITERION_PRESETS:
        raise DomainError(
            f"Unknown criterion preset '{preset}'; choose one of {', '.join(CRITERION_PRESETS)}."
        )
    fields = dict(CRITERION_PRESETS[preset])
    criterion, _ = Criterion.objects.update_or_create(
        campaign=campaign,
        name=name or preset,
        defaults={**fields, "position": campaign.criteria.count()},
    )
    return criterion


@dataclass(frozen=True)
class OutputRow:
    """One output to store: the item's external id and input, the system, the text."""

    item_id: str
    input: str
    system: str
    text: str


@dataclass(frozen=True)
class OutputsStored:
    systems: int
    items: int
    outputs: int
    identical_groups: int


def outputs_store(*, campaign: Campaign, rows: Iterable[OutputRow]) -> OutputsStored:
    """Add systems, items and outputs to a campaign in bulk (call inside a transaction).

    Existing systems and items are reused; an output that exists already is an error,
    so importing the same file twice cannot silently double anything.
    """
    rows = list(rows)
    systems = {s.label: s for s in campaign.systems.all()}
    items = {i.external_id: i for i in campaign.items.all()}
    new_systems = [
        System(campaign=campaign, label=lbl)
        for lbl in dict.fromkeys(r.system for r in rows)
        if lbl not in systems
    ]
    System.objects.bulk_create(new_systems)
    systems.update(
        {s.label: s for s in campaign.systems.filter(label__in=[s.label for s in new_systems])}
    )
    next_pos = len(items)
    new_items: list[Item] = []
    new_item_ids: set[str] = set()  # a set, not a scan of new_items: linear imports
    for r in rows:
        if r.item_id not in items and r.item_id not in new_item_ids:
            new_item_ids.add(r.item_id)
            new_items.append(
                Item(campaign=campaign, external_id=r.item_id, input=r.input, position=next_pos)
            )
            next_pos += 1
    Item.objects.bulk_create(new_items)
    items.update(
        {
            i.external_id: i
            for i in campaign.items.filter(external_id__in=[i.external_id for i in new_items])
        }
    )
    existing = set(
        Output.objects.filter(item__campaign=campaign).values_list(
            "item__external_id", "system__label"
        )
    )
    outputs: list[Output] = []
    for r in rows:
        key = (r.item_id, r.system)
        if key in existing:
            raise DomainError(f"System '{r.system}' already has an output for item '{r.item_id}'.")
        existing.add(key)
        outputs.append(Output(item=items[r.item_id], system=systems[r.system], text=r.text))
    Output.objects.bulk_create(outputs, batch_size=2000)
    groups = outputs_detect_identical(campaign=campaign)
    return OutputsStored(
        systems=len(new_systems),
        items=len(new_items),
        outputs=len(outputs),
        identical_groups=groups,
    )


def normalise_output_text(text: str) -> str:
    """The form in which two outputs count as identical: whitespace collapsed."""
    return " ".join(text.split())


def outputs_detect_identical(*, campaign: Campaign) -> int:
    """Point every output to the first output of its item with the same text.

    Returns the number of groups of identical outputs (of two or more).
    """
    by_text: dict[tuple[int, str], list[Output]] = defaultdict(list)
    changed: list[Output] = []
    outputs = Output.objects.filter(item__campaign=campaign).order_by("item_id", "id")
    for output in outputs:
        if not output.text.strip():  # placeholders (e.g. WMT imports carry no text)
            if output.canonical_id is not None:
                output.canonical_id = None
                changed.append(output)
            continue
        by_text[(output.item_id, normalise_output_text(output.text))].append(output)
    groups = 0
    for group in by_text.values():
        first = group[0]
        groups += len(group) > 1
        for output in group:
            canonical_id = None if output is first else first.pk
            if output.canonical_id != canonical_id:
                output.canonical_id = canonical_id
                changed.append(output)
    Output.objects.bulk_update(changed, ["canonical"], batch_size=2000)
    return groups
