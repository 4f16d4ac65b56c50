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
    for r in rows:
        if r.item_id not in items and all(i.external_id != r.item_id for i in new_items):
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
