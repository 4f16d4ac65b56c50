"""Systems, items and outputs written in bulk (``outputs_store``), and the outputs of an
item that share a text (``outputs_detect_identical``): the importers
(``annotations.importing``, above) and the demo campaigns call them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from annotations.core.outputs import OutputRow
from annotations.models import Campaign, Item, Output, System
from annotations.services.languages import campaign_languages_add
from common.errors import DomainError


@dataclass(frozen=True)
class OutputsStored:
    systems: int
    items: int
    outputs: int
    identical_groups: int


def _systems_add(campaign: Campaign, rows: list[OutputRow], systems: dict[str, System]) -> int:
    """Create the rows' systems the campaign lacks and add them to ``systems`` (by label);
    returns how many were new."""
    new_systems = [
        System(campaign=campaign, label=lbl)
        for lbl in dict.fromkeys(r.system for r in rows)
        if lbl not in systems
    ]
    System.objects.bulk_create(new_systems)
    systems.update(
        {s.label: s for s in campaign.systems.filter(label__in=[s.label for s in new_systems])}
    )
    return len(new_systems)


def _items_new(
    campaign: Campaign,
    rows: list[OutputRow],
    items: dict[str, Item],
    attributes: dict[str, dict[str, str]],
    item_language: dict[str, str],
) -> list[Item]:
    """The rows' items the campaign does not have yet (unsaved), in the rows' order,
    placed after its existing ones."""
    next_pos = len(items)
    new_items: list[Item] = []
    new_item_ids: set[str] = set()  # a set, not a scan of new_items: linear imports
    for r in rows:
        if r.item_id not in items and r.item_id not in new_item_ids:
            new_item_ids.add(r.item_id)
            new_items.append(
                Item(
                    campaign=campaign,
                    external_id=r.item_id,
                    input=r.input,
                    position=next_pos,
                    attributes=attributes.get(r.item_id, {}),
                    language=item_language[r.item_id],
                )
            )
            next_pos += 1
    return new_items


def _items_gaining_attributes(
    items: dict[str, Item], attributes: dict[str, dict[str, str]]
) -> list[Item]:
    """Items that exist already, with the attributes they lack added (unsaved); a
    different value for one they have is an error (the import is then rolled back)."""
    changed_items: list[Item] = []
    for item_id, attrs in attributes.items():
        item = items.get(item_id)
        if item is None:
            continue
        clash = next(
            (k for k, v in attrs.items() if k in item.attributes and item.attributes[k] != v),
            None,
        )
        if clash is not None:
            raise DomainError(
                f"Item '{item_id}' already has {clash} '{item.attributes[clash]}', not "
                f"'{attrs[clash]}'."
            )
        if any(k not in item.attributes for k in attrs):
            item.attributes = {**item.attributes, **attrs}
            changed_items.append(item)
    return changed_items


def _outputs_new(
    campaign: Campaign,
    rows: list[OutputRow],
    items: dict[str, Item],
    systems: dict[str, System],
    default: str,
) -> list[Output]:
    """The rows' outputs (unsaved); one the campaign has already, or two of one item and
    system, is an error."""
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
        outputs.append(
            Output(
                item=items[r.item_id],
                system=systems[r.system],
                text=r.text,
                language=r.language or default,
            )
        )
    return outputs


def outputs_store(*, campaign: Campaign, rows: Iterable[OutputRow]) -> OutputsStored:
    """Add systems, items and outputs to a campaign in bulk (call inside a transaction).

    Existing systems and items are reused; an output that exists already is an error,
    so importing the same file twice cannot silently double anything.
    """
    rows = list(rows)
    systems = {s.label: s for s in campaign.systems.all()}
    items = {i.external_id: i for i in campaign.items.all()}
    # Languages: the row's, else the campaign's first; an item's is its first output's.
    # The campaign holds every language brought.
    default = campaign.default_language
    campaign_languages_add(
        campaign=campaign, languages=[r.language or default for r in rows], first=not items
    )
    item_language: dict[str, str] = {}
    for r in rows:
        item_language.setdefault(r.item_id, r.language or default)
    n_new_systems = _systems_add(campaign, rows, systems)
    # Attributes per item, merged over its rows (the parsers made them consistent).
    attributes: dict[str, dict[str, str]] = {}
    for r in rows:
        if r.attributes:
            attributes.setdefault(r.item_id, {}).update(r.attributes)
    new_items = _items_new(campaign, rows, items, attributes, item_language)
    Item.objects.bulk_update(
        _items_gaining_attributes(items, attributes), ["attributes"], batch_size=2000
    )
    Item.objects.bulk_create(new_items)
    items.update(
        {
            i.external_id: i
            for i in campaign.items.filter(external_id__in=[i.external_id for i in new_items])
        }
    )
    outputs = _outputs_new(campaign, rows, items, systems, default)
    Output.objects.bulk_create(outputs, batch_size=2000)
    groups = outputs_detect_identical(campaign=campaign)
    return OutputsStored(
        systems=n_new_systems,
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
