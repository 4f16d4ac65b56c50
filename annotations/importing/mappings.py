"""Column mappings of rating imports: a mapping from its JSON form, the built-in presets
(``annotations.importing.parsers.presets``) and the ones a campaign saved
(``RatingMapping``): the list a campaign offers, one by name, and saving one."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from annotations.importing.parsers.mapped.mapping import Mapping, MappingError, mapping_from_dict
from annotations.importing.parsers.presets import PRESETS, preset_mapping
from annotations.models import Campaign, RatingMapping
from common.errors import DomainError


def mapping_parse(data: Any) -> Mapping:
    """A mapping from its JSON form (a dict, or JSON text); a wrong one is a DomainError."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise DomainError(
                f"The mapping is not valid JSON ({exc.msg}, line {exc.lineno})."
            ) from exc
        except RecursionError as exc:
            raise DomainError("The mapping is not valid JSON (nested too deeply).") from exc
    try:
        return mapping_from_dict(data)
    except MappingError as exc:
        raise DomainError(f"The {exc}") from exc


def mapping_resolve(*, campaign: Campaign | None, name: str) -> Mapping:
    """The mapping called ``name``: one the campaign saved, else a built-in preset."""
    if campaign is not None:
        saved = campaign.rating_mappings.filter(name=name).first()
        if saved is not None:
            return mapping_parse(saved.mapping)
    if name in PRESETS:
        return preset_mapping(name)
    known = sorted(PRESETS)
    if campaign is not None:
        known += list(campaign.rating_mappings.values_list("name", flat=True))
    raise DomainError(f"There is no mapping '{name}'; known: {', '.join(known)}.")


@transaction.atomic
def rating_mapping_save(
    *, campaign: Campaign, name: str, mapping: Mapping, user: Any = None
) -> RatingMapping:
    """Save ``mapping`` under ``name`` in the campaign (replacing one of that name).

    A built-in preset's name is refused: the saved one would hide it.
    """
    name = name.strip()
    if not name or len(name) > 64 or not all(c.isalnum() or c in "-_" for c in name):
        raise DomainError("A preset name uses letters, digits, - and _ (at most 64).")
    if name in PRESETS:
        raise DomainError(f"'{name}' is the name of a built-in preset; choose another.")
    saved, _ = RatingMapping.objects.update_or_create(
        campaign=campaign,
        name=name,
        defaults={
            "mapping": mapping.to_dict(),
            "created_by": user if user is not None and user.is_authenticated else None,
        },
    )
    return saved


@dataclass(frozen=True)
class MappingOffered:
    """A mapping a campaign offers: a built-in preset, or one the campaign saved (its
    title is its name)."""

    name: str
    title: str
    builtin: bool
    #: the mapping's JSON form
    mapping: dict[str, Any]


def mappings_offered(*, campaign: Campaign) -> list[MappingOffered]:
    """The mappings usable in the campaign: the built-in presets, then the saved ones by
    name (the import page's choice and the mappings API list them alike).

    A read, kept beside the presets rather than in ``annotations/selectors/``: the
    presets are the importing layer's (``parsers/presets.py``), which a selector, below
    it, may not import."""
    return [
        MappingOffered(name=name, title=title, builtin=True, mapping=mapping)
        for name, (title, mapping) in PRESETS.items()
    ] + [
        MappingOffered(name=m.name, title=m.name, builtin=False, mapping=m.mapping)
        for m in campaign.rating_mappings.all()
    ]
