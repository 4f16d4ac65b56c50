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


def mapping_parse(data: Any, *, field: str = "mapping") -> Mapping:
    """A mapping from its JSON form (a dict, or JSON text); a wrong one is a DomainError
    naming the input ``field`` that held it and the setting at fault (``mapping.worker``:
    the API lists it under ``fields``)."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise DomainError(
                f"The mapping is not valid JSON ({exc.msg}, line {exc.lineno}).", field=field
            ) from exc
        except RecursionError as exc:
            raise DomainError(
                "The mapping is not valid JSON (nested too deeply).", field=field
            ) from exc
    try:
        return mapping_from_dict(data)
    except MappingError as exc:
        at = field if exc.field == "mapping" else f"{field}.{exc.field}"
        raise DomainError(f"The {exc}", field=at) from exc


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


#: the most presets one campaign saves (each is bounded: ``parsers.mapped.mapping``)
SAVED_MAPPINGS_MAX = 50


@transaction.atomic
def rating_mapping_save(
    *, campaign: Campaign, name: str, mapping: Mapping, user: Any = None
) -> RatingMapping:
    """Save ``mapping`` under ``name`` in the campaign (replacing one of that name).

    A built-in preset's name is refused: the saved one would hide it.
    """
    name = name.strip()
    # ASCII only, as the page's form takes it: 'wmт' (a Cyrillic т) passed the API and
    # listed beside the built-in 'wmt'.
    if (
        not name
        or len(name) > 64
        or not all(c.isascii() and (c.isalnum() or c in "-_") for c in name)
    ):
        raise DomainError(
            "A preset name uses the letters a-z and A-Z, digits, - and _ (at most 64).",
            field="name",
        )
    if name in PRESETS:
        raise DomainError(
            f"'{name}' is the name of a built-in preset; choose another.", field="name"
        )
    saved_names = RatingMapping.objects.filter(campaign=campaign).values_list("name", flat=True)
    if name not in saved_names and len(saved_names) >= SAVED_MAPPINGS_MAX:
        raise DomainError(
            f"A campaign keeps at most {SAVED_MAPPINGS_MAX} saved presets: save this one "
            "under the name of one it replaces.",
            field="name",
        )
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
