"""Writes about the languages workers judge in: enrolment in a language, its quota."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.db import transaction
from django.utils.text import capfirst

from annotations.core.languages import (
    CAMPAIGN_TEXTS,
    LanguageError,
    language_check,
    languages_check,
)
from annotations.models import Campaign, Criterion, Item, Output, Worker
from common.errors import DomainError
from common.queries import row_lock


class LanguageQuotaFull(DomainError):
    """The campaign admits no more workers in this language."""


def campaign_language_for(*, campaign: Campaign, language: str = "") -> str:
    """``language`` if the campaign has it (normalised), else the campaign's first language."""
    languages = campaign.languages_or_default
    if language:
        try:
            tag = language_check(language)
        except LanguageError:
            return languages[0]
        if tag in languages:
            return tag
    return languages[0]


def language_quota_full(*, campaign: Campaign, language: str) -> bool:
    """True when the campaign's quota for ``language`` is reached by consented workers."""
    quota = (campaign.language_quotas or {}).get(language)
    if quota is None:
        return False
    taken = (
        Worker.objects.filter(campaign=campaign, language=language, consented_at__isnull=False)
        .exclude(metadata__has_key=Worker.RELEASED_ID_KEY)  # a freed id gives its place back
        .count()
    )
    return taken >= int(quota)


@contextmanager
def language_quota_held(
    *, campaign: Campaign, language: str, platform: str, external_id: str
) -> Iterator[None]:
    """Enrol inside this block: ``LanguageQuotaFull`` if ``language`` admits no more workers.

    A worker who already consented is never refused. Costs nothing unless the language
    has a quota; then the block is one transaction holding the campaign row, so two
    enrolments cannot both take the last place, and a refusal writes nothing.
    """
    if language not in (campaign.language_quotas or {}):
        yield
        return
    with transaction.atomic():
        row_lock(Campaign, campaign.pk)
        known = Worker.objects.filter(
            campaign=campaign,
            platform=platform,
            external_id=external_id.strip(),
            consented_at__isnull=False,
        ).exists()
        if not known and language_quota_full(campaign=campaign, language=language):
            raise LanguageQuotaFull(f"All places for workers in '{language}' are taken.")
        yield


def campaign_languages_add(
    *, campaign: Campaign, languages: Iterable[str], first: bool = False
) -> list[str]:
    """The campaign holds every language an import brings (after its own, in order).

    ``first``: the campaign had no items before; its untouched default (English) then
    gives way to the imported languages when they have no English. Returns the
    campaign's languages."""
    brought = [tag for tag in dict.fromkeys(languages) if tag]
    held = list(campaign.languages or [])
    if first and held == ["en"] and brought and "en" not in brought:
        held = []
    added = [tag for tag in brought if tag not in held]
    if added or held != list(campaign.languages or []):
        campaign.languages = held + added
        campaign.save(update_fields=["languages"])
    return list(campaign.languages)


def _not_ended(campaign: Campaign) -> None:
    if campaign.has_ended:
        raise DomainError(
            f"The campaign is {campaign.get_status_display().lower()}: its languages and "
            "texts can no longer change."
        )


@transaction.atomic
def campaign_languages_update(
    *, campaign: Campaign, languages: Iterable[object], quotas: Mapping[str, object]
) -> Campaign:
    """Set the campaign's languages (the first is the one its texts are written in) and
    the workers admitted per language (``quotas``; a language without one admits any).

    Every language the items or outputs have stays, and the first is one of them (the
    fallback of workers whose language the campaign lacks); a quota names one of the
    languages and is a whole number. ``DomainError`` names the field at fault; nothing is saved.
    """
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    _not_ended(campaign)
    try:
        tags = languages_check(languages)
    except LanguageError as exc:
        raise DomainError(capfirst(str(exc)), field="languages") from None
    used = set(
        Output.objects.filter(item__campaign=campaign).values_list("language", flat=True).distinct()
    ) | set(Item.objects.filter(campaign=campaign).values_list("language", flat=True).distinct())
    dropped = sorted(used - set(tags))
    if dropped:
        raise DomainError(
            f"The campaign's outputs are in {', '.join(dropped)}; keep every language its "
            "outputs have.",
            field="languages",
        )
    first = campaign.default_language
    if tags[0] != first:
        translated = bool(campaign.translations) or any(
            Criterion.objects.filter(campaign=campaign)
            .exclude(translations={})
            .values_list("pk", flat=True)[:1]
        )
        if campaign.status != Campaign.Status.DRAFT or translated:
            why = (
                "the campaign is no longer a draft"
                if campaign.status != Campaign.Status.DRAFT
                else "its texts are translated from it"
            )
            raise DomainError(
                f"'{first}' must stay first (the language the texts are written in): {why}. "
                "Add or reorder the other languages after it.",
                field="languages",
            )
    if used and tags[0] not in used:
        raise DomainError(
            f"No output is in '{tags[0]}', the first language, yet workers whose language "
            "the campaign lacks judge in the first one and would get no task; put one of "
            f"{', '.join(sorted(used))} first.",
            field="languages",
        )
    checked: dict[str, int] = {}
    for code, value in quotas.items():
        try:
            tag = language_check(code)
        except LanguageError as exc:
            raise DomainError(capfirst(str(exc)), field="quotas") from None
        if tag not in tags:
            raise DomainError(
                f"A quota is given for '{tag}', which is not one of the campaign's languages.",
                field=f"quotas.{tag}",
            )
        if value in (None, ""):
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise DomainError(
                f"The quota for '{tag}' must be a whole number of workers (0 or more).",
                field=f"quotas.{tag}",
            )
        checked[tag] = value
    campaign.languages = tags
    campaign.language_quotas = checked
    campaign.save(update_fields=["languages", "language_quotas", "updated_at"])
    return campaign


def _text(value: object, what: str, field: str) -> str:
    """A translated text (``what``: the text in words, ``field``: its API name)."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise DomainError(f"Give {what} as text.", field=field)
    if "\x00" in value:
        raise DomainError(f"{capfirst(what)} holds a NUL character.", field=field)
    return value.replace("\r\n", "\n").replace("\r", "\n").strip()


@transaction.atomic
def campaign_translations_update(
    *,
    campaign: Campaign,
    language: str,
    texts: Mapping[str, object],
    criteria: Mapping[int, Mapping[str, Any]],
) -> Campaign:
    """Save what workers judging in ``language`` read: the campaign's ``texts``
    (description, instructions, consent_text) and, per criterion id, its ``question``,
    ``standard_text``, ``example`` and ``levels`` (one descriptor per Likert level). A blank text
    removes a translation (workers then read the original). Refused for the campaign's
    first language (its texts are the originals), a language the campaign lacks, an
    ended campaign, a criterion of another campaign or a wrong number of levels;
    ``DomainError`` says which, and nothing is saved.
    """
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    _not_ended(campaign)
    try:
        tag = language_check(language)
    except LanguageError as exc:
        raise DomainError(capfirst(str(exc)), field="language") from None
    languages = list(campaign.languages or [])
    if tag not in languages:
        raise DomainError(f"'{tag}' is not one of the campaign's languages.", field="language")
    if tag == languages[0]:
        raise DomainError(
            f"'{tag}' is the campaign's first language; its texts are the originals.",
            field="language",
        )
    unknown = sorted(set(texts) - set(CAMPAIGN_TEXTS))
    if unknown:
        raise DomainError(f"Unknown campaign texts: {', '.join(unknown)}.", field="campaign")
    mine = {
        name: _text(value, f"the {name.replace('_', ' ')}", f"campaign.{name}")
        for name, value in texts.items()
    }
    given = dict(campaign.translations or {})
    merged = {**given.get(tag, {}), **mine}
    merged = {k: v for k, v in merged.items() if v}
    if merged:
        given[tag] = merged
    else:
        given.pop(tag, None)
    campaign.translations = given
    campaign.save(update_fields=["translations", "updated_at"])

    by_id = {c.pk: c for c in Criterion.objects.filter(campaign=campaign, pk__in=list(criteria))}
    missing = sorted(set(criteria) - set(by_id))
    if missing:
        raise DomainError(
            f"Criterion {missing[0]} is not one of this campaign's.", field="criteria"
        )
    for pk, fields in criteria.items():
        criterion = by_id[pk]
        _criterion_translation_set(criterion, tag, fields)
    return campaign


def _criterion_translation_set(criterion: Criterion, tag: str, fields: Mapping[str, Any]) -> None:
    where = criterion.name
    unknown = sorted(set(fields) - {"question", "standard_text", "example", "levels"})
    if unknown:
        raise DomainError(
            f"Criterion '{where}' has no texts named {', '.join(unknown)}.",
            field=f"criteria.{where}",
        )
    given = dict(criterion.translations or {})
    mine = dict(given.get(tag, {}))
    for name in ("question", "standard_text", "example"):
        if name in fields:
            mine[name] = _text(
                fields[name],
                f"the {name.replace('_', ' ')} of criterion '{where}'",
                f"criteria.{where}.{name}",
            )
    if "levels" in fields:
        mine["levels"] = _levels(criterion, list(mine.get("levels") or []), fields["levels"])
    mine = {k: v for k, v in mine.items() if v}
    if mine:
        given[tag] = mine
    else:
        given.pop(tag, None)
    if given != (criterion.translations or {}):
        criterion.translations = given
        criterion.save(update_fields=["translations"])


def _levels(criterion: Criterion, old: list[Any], levels: Any) -> list[Any]:
    """The criterion's translated descriptors: ``levels`` is a list (one per level) or a
    mapping of level number (1-based) to descriptor, changing only those levels."""
    where = criterion.name
    scale = criterion.likert_levels
    if criterion.scale != Criterion.Scale.LIKERT:
        raise DomainError(
            f"Criterion '{where}' is not on a Likert scale, so it has no level descriptors.",
            field=f"criteria.{where}.levels",
        )
    if isinstance(levels, Mapping):
        given = dict(levels)
        if any(not isinstance(i, int) or not 1 <= i <= len(scale) for i in given):
            raise DomainError(
                f"Criterion '{where}' has levels 1 to {len(scale)}.",
                field=f"criteria.{where}.levels",
            )
        levels = [given.get(i + 1, old[i] if i < len(old) else "") for i in range(len(scale))]
    levels = list(levels or [])
    if len(levels) != len(scale):
        raise DomainError(
            f"Criterion '{where}' has {len(scale)} levels; {len(levels)} level descriptors "
            "were given.",
            field=f"criteria.{where}.levels",
        )
    kept: list[Any] = []
    for i, value in enumerate(levels):
        before = old[i] if i < len(old) else None
        if isinstance(value, dict):
            value = value.get("descriptor")
        text = _text(
            value,
            f"the descriptor of level {i + 1} of criterion '{where}'",
            f"criteria.{where}.levels",
        )
        if isinstance(before, dict) and before.get("label"):
            kept.append({"label": before["label"], "descriptor": text})
        else:
            kept.append(text)
    return kept if any(_level_given(v) for v in kept) else []


def _level_given(value: Any) -> bool:
    return bool(value.get("descriptor") if isinstance(value, dict) else value)


@transaction.atomic
def campaign_languages_set(
    *,
    campaign: Campaign,
    languages: Iterable[object] | None = None,
    quotas: Mapping[str, object] | None = None,
    translations: Mapping[str, Any] | None = None,
) -> Campaign:
    """The API's one write: languages and quotas (``campaign_languages_update``; what is
    not given stays), then per language ``{"campaign": {...}, "criteria": {name: {...}}}``
    (``campaign_translations_update``). All or nothing."""
    if languages is not None or quotas is not None:
        campaign = campaign_languages_update(
            campaign=campaign,
            languages=list(languages) if languages is not None else list(campaign.languages),
            quotas=dict(quotas) if quotas is not None else dict(campaign.language_quotas or {}),
        )
    if not isinstance(translations, Mapping | None):
        raise DomainError(
            'Give translations as {"de": {"campaign": {...}, "criteria": {...}}}.',
            field="translations",
        )
    by_name = {c.name: c.pk for c in Criterion.objects.filter(campaign=campaign)}
    for tag, given in (translations or {}).items():
        if not isinstance(given, Mapping) or set(given) - {"campaign", "criteria"}:
            raise DomainError(
                f"The translations into '{tag}' may hold only campaign and criteria.",
                field="translations",
            )
        texts = given.get("campaign") or {}
        criteria = given.get("criteria") or {}
        if not isinstance(texts, Mapping) or not isinstance(criteria, Mapping):
            raise DomainError(
                f"In the translations into '{tag}', campaign and criteria must be objects.",
                field="translations",
            )
        unknown = sorted(set(criteria) - set(by_name))
        if unknown:
            raise DomainError(
                f"The translations into '{tag}' name a criterion the campaign does not have: "
                f"'{unknown[0]}'.",
                field="translations",
            )
        for name, fields in criteria.items():
            if not isinstance(fields, Mapping):
                raise DomainError(
                    f"In the translations into '{tag}', give criterion '{name}' an object "
                    "of texts.",
                    field="translations",
                )
        campaign = campaign_translations_update(
            campaign=campaign,
            language=str(tag),
            texts=texts,
            criteria={by_name[name]: fields for name, fields in criteria.items()},
        )
    return campaign
