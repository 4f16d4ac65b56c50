"""Systems, items and outputs written in bulk (``outputs_store``), items given their
input (``items_inputs_fill``), systems named (``systems_describe``), the outputs of an
item that share a text (``outputs_detect_identical``), and a draft's uploads removed
(``outputs_remove_all``): the importers (``annotations.importing``, above), the upload
pages and API, and the demo campaigns call them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from django.db import transaction

from annotations.core.languages import directions_unlike
from annotations.core.outputs import OutputRow
from annotations.models import Assignment, Campaign, Item, Judgement, Output, System, Task
from annotations.services.bulk import BATCH_SIZE, bulk_insert
from annotations.services.languages import campaign_languages_add
from common.errors import DomainError
from common.queries import row_lock


@dataclass(frozen=True)
class OutputsStored:
    systems: int
    items: int
    outputs: int
    identical_groups: int
    #: the labels of the systems created, in the rows' order
    systems_new: tuple[str, ...] = ()
    #: outputs written the other way than their language: ``{(language, the texts'
    #: direction): count}`` (``annotations.core.languages.directions_unlike``)
    directions_unlike: dict[tuple[str, str], int] = field(default_factory=dict)


def _outputs_check(campaign: Campaign, rows: Sequence[OutputRow]) -> None:
    """An output the campaign has already, or two of one item and system, is an error."""
    existing = set(
        Output.objects.filter(item__campaign=campaign).values_list(
            "item__external_id", "system__label"
        )
    )
    for r in rows:
        key = (r.item_id, r.system)
        if key in existing:
            raise DomainError(f"System '{r.system}' already has an output for item '{r.item_id}'.")
        existing.add(key)


def _items_gaining_attributes(
    campaign: Campaign, attributes: dict[str, dict[str, str]], new: Iterable[str]
) -> list[Item]:
    """Items the campaign had, with the attributes they lack added (unsaved); a different
    value for one they have is an error (the import is then rolled back)."""
    changed_items: list[Item] = []
    for item in campaign.items.filter(external_id__in=[i for i in attributes if i not in new]):
        attrs = attributes[item.external_id]
        clash = next(
            (k for k, v in attrs.items() if k in item.attributes and item.attributes[k] != v),
            None,
        )
        if clash is not None:
            raise DomainError(
                f"Item '{item.external_id}' already has {clash} '{item.attributes[clash]}', not "
                f"'{attrs[clash]}'."
            )
        if any(k not in item.attributes for k in attrs):
            item.attributes = {**item.attributes, **attrs}
            changed_items.append(item)
    return changed_items


@transaction.atomic
def outputs_store(
    *,
    campaign: Campaign,
    rows: Iterable[OutputRow],
    language: str = "",
    progress: Callable[[int, int], None] | None = None,
) -> OutputsStored:
    """Add systems, items and outputs to a campaign in bulk, then mark identical outputs.

    Existing systems and items are reused (an item keeps its input; it gains the
    attributes it lacks, a different value for one it has is an error); an output that
    exists already, or twice in ``rows``, is an error, so importing the same file twice
    cannot silently double anything. A row's language, else ``language``, else the
    campaign's first; a new item's is its input's language where one of its rows gives
    it, else its first output's; the campaign holds every output language brought. Written by the raw bulk inserter (``annotations.services.bulk``): the
    statements do not grow with the rows. ``progress(outputs written, outputs to
    write)`` after each chunk.
    """
    rows = list(rows)
    # The campaign's row lock: two uploads at once (two tabs, a retried job) add their
    # systems and items one after the other, so the second finds the first's instead of
    # inserting them again (a unique constraint's refusal, a failed import).
    row_lock(Campaign, campaign.pk)
    _outputs_check(campaign, rows)
    systems = dict(campaign.systems.values_list("label", "id"))
    new_systems = [
        System(campaign=campaign, label=label)
        for label in dict.fromkeys(r.system for r in rows)
        if label not in systems
    ]
    System.objects.bulk_create(new_systems, batch_size=BATCH_SIZE)
    systems.update({s.label: s.pk for s in new_systems})
    items = dict(campaign.items.values_list("external_id", "id"))
    new_items: dict[str, str] = {}
    for r in rows:
        if r.item_id not in items:
            new_items.setdefault(r.item_id, r.input)
    default = language or campaign.default_language
    item_language: dict[str, str] = {}
    for r in rows:
        item_language.setdefault(r.item_id, r.language or default)
    # The input's language where any of its rows gives it (the parsers made them agree).
    item_language.update({r.item_id: r.input_language for r in reversed(rows) if r.input_language})
    campaign_languages_add(
        campaign=campaign, languages=[r.language or default for r in rows], first=not items
    )
    # Attributes per item, merged over its rows (the parsers made them consistent).
    attributes: dict[str, dict[str, str]] = {}
    for r in rows:
        if r.attributes:
            attributes.setdefault(r.item_id, {}).update(r.attributes)
    Item.objects.bulk_update(
        _items_gaining_attributes(campaign, attributes, new_items),
        ["attributes"],
        batch_size=BATCH_SIZE,
    )
    item_ids = bulk_insert(
        model=Item,
        fields=("campaign", "external_id", "input", "position", "attributes", "language"),
        rows=[
            (
                campaign.pk,
                external_id,
                text,
                len(items) + n,
                attributes.get(external_id, {}),
                item_language[external_id],
            )
            for n, (external_id, text) in enumerate(new_items.items())
        ],
    )
    items.update(zip(new_items, item_ids, strict=True))
    done = 0

    def advance(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(done, len(rows))

    bulk_insert(
        model=Output,
        fields=("item", "system", "text", "language"),
        rows=[(items[r.item_id], systems[r.system], r.text, r.language or default) for r in rows],
        progress=advance,
        ids=False,  # nothing refers to them yet: PostgreSQL numbers them as they arrive
    )
    return OutputsStored(
        systems=len(new_systems),
        items=len(new_items),
        outputs=len(rows),
        identical_groups=outputs_detect_identical(campaign=campaign),
        systems_new=tuple(s.label for s in new_systems),
        # Only outputs whose language nobody gave (no column, no language for the file):
        # a language given is the designer's word, whatever the script looks like.
        directions_unlike=directions_unlike(
            (r.text, default) for r in rows if not r.language and not language
        ),
    )


@transaction.atomic
def items_inputs_fill(
    *,
    campaign: Campaign,
    inputs: Mapping[str, str],
    languages: Mapping[str, str] | None = None,
) -> int:
    """Give the campaign's items that have no input the one ``inputs`` has for their
    external id (an item with an input keeps it), and the input's language where
    ``languages`` gives it (by external id); returns how many were filled."""
    languages = languages or {}
    filled = list(campaign.items.filter(external_id__in=list(inputs), input=""))
    for item in filled:
        item.input = inputs[item.external_id]
        item.language = languages.get(item.external_id) or item.language
    Item.objects.bulk_update(filled, ["input", "language"], batch_size=BATCH_SIZE)
    return len(filled)


@transaction.atomic
def systems_describe(
    *, campaign: Campaign, describe: Callable[[str], tuple[str, dict[str, str]] | None]
) -> int:
    """Name the campaign's systems: ``describe(label)`` gives a system's name and the
    metadata to add to its own (None leaves it as it is); returns how many were named."""
    named: list[System] = []
    for system in campaign.systems.all():
        described = describe(system.label)
        if described is None:
            continue
        system.name, metadata = described
        system.metadata = {**system.metadata, **metadata}
        named.append(system)
    System.objects.bulk_update(named, ["name", "metadata"], batch_size=BATCH_SIZE)
    return len(named)


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


@dataclass(frozen=True)
class OutputsRemoved:
    outputs: int
    items: int
    systems: int
    tasks: int


@transaction.atomic
def outputs_remove_all(*, campaign: Campaign) -> OutputsRemoved:
    """Remove every uploaded output of a draft campaign, with its items and systems (and
    the tasks built from them), so that a wrong upload is undone without deleting the
    campaign. Refused once the campaign is launched, or once any task was handed out or
    judged (a preview hands nothing out). A standard picked from an uploaded output keeps
    its text, now written in."""
    row_lock(Campaign, campaign.pk)
    campaign.refresh_from_db(fields=["status"])
    if campaign.status != Campaign.Status.DRAFT:
        raise DomainError(
            "Uploaded outputs can be removed only while the campaign is a draft; clone it "
            "for a new round with other outputs."
        )
    if Judgement.objects.filter(criterion__campaign=campaign).exists():
        raise DomainError("The campaign holds judgements of these outputs: they stay.")
    if Assignment.objects.filter(task__campaign=campaign).exists():
        raise DomainError("Tasks built from these outputs were handed out: they stay.")
    # what each delete removed, by model, is what the answer counts
    tasks = Task.objects.filter(campaign=campaign).delete()[1]
    items = Item.objects.filter(campaign=campaign).delete()[1]  # their outputs with them
    systems = System.objects.filter(campaign=campaign).delete()[1]
    return OutputsRemoved(
        outputs=items.get(Output._meta.label, 0),
        items=items.get(Item._meta.label, 0),
        systems=systems.get(System._meta.label, 0),
        tasks=tasks.get(Task._meta.label, 0),
    )
