"""Reads about a campaign's languages: workers, tasks and judgements per language."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q

from annotations.core.languages import CAMPAIGN_TEXTS
from annotations.models import Campaign, Criterion, Task, Worker
from annotations.selectors.criteria import criteria_in_order
from annotations.selectors.judgements import judgements_counted


@dataclass(frozen=True)
class LanguageProgress:
    language: str
    workers: int  # consented workers judging in it
    quota: int | None  # most workers admitted (None: no limit)
    tasks: int  # regular tasks in it
    collected: int  # judgements that count
    needed: int  # tasks x judgements per task

    @property
    def percent(self) -> float:
        return 100.0 * min(self.collected / self.needed, 1.0) if self.needed else 0.0

    @property
    def full(self) -> bool:
        return self.quota is not None and self.workers >= self.quota


def language_progress(*, campaign: Campaign) -> list[LanguageProgress]:
    """Per language of the campaign (its order, then any other its tasks have): consented
    workers against the quota, and judgements collected against needed. Three queries."""
    tasks = dict(
        Task.objects.filter(campaign=campaign, kind=Task.Kind.REGULAR)
        .values("language")
        .annotate(n=Count("id"))
        .values_list("language", "n")
    )
    collected = dict(
        judgements_counted(campaign=campaign)
        .values("task__language")
        .annotate(n=Count("id"))
        .values_list("task__language", "n")
    )
    workers = dict(
        Worker.objects.filter(Q(campaign=campaign) & Q(consented_at__isnull=False))
        .exclude(metadata__has_key=Worker.RELEASED_ID_KEY)
        .values("language")
        .annotate(n=Count("id"))
        .values_list("language", "n")
    )
    quotas = campaign.language_quotas or {}
    languages = campaign.languages_or_default
    languages += sorted(set(tasks) - set(languages))
    jpt = campaign.judgements_per_task
    return [
        LanguageProgress(
            language=tag,
            workers=workers.get(tag, 0),
            quota=int(quotas[tag]) if tag in quotas else None,
            tasks=tasks.get(tag, 0),
            collected=collected.get(tag, 0),
            needed=tasks.get(tag, 0) * jpt,
        )
        for tag in languages
    ]


# Translations ---------------------------------------------------------------------------

CAMPAIGN_TEXT_NAMES = {
    "name": "Name (the page header)",
    "description": "Description",
    "instructions": "Instructions",
    "consent_text": "Consent text",
}


@dataclass(frozen=True)
class TranslationText:
    """One text a worker reads, in the campaign's first language and in ``language``."""

    key: str  # the form field: description, c12-question, c12-level3, ...
    label: str  # what it is, for people: "fluency: level 3 descriptor"
    original: str
    translated: str


@dataclass(frozen=True)
class TranslationStatus:
    """What a worker judging in ``language`` reads translated, and what is missing."""

    language: str
    texts: list[TranslationText] = field(default_factory=list)

    @property
    def missing(self) -> list[TranslationText]:
        return [t for t in self.texts if not t.translated.strip()]

    @property
    def done(self) -> int:
        return len(self.texts) - len(self.missing)


def _level_text(level: Any) -> str:
    if isinstance(level, dict):
        return str(level.get("descriptor") or "")
    return str(level or "")


def criterion_texts(criterion: Criterion) -> list[tuple[str, str, str]]:
    """(key, label, original) of each text of ``criterion`` a worker reads."""
    texts = [(f"c{criterion.pk}-question", f"{criterion.name}: question", criterion.question)]
    if criterion.scale == Criterion.Scale.MAGNITUDE and criterion.standard_text.strip():
        texts.append(
            (
                f"c{criterion.pk}-standard_text",
                f"{criterion.name}: standard",
                criterion.standard_text,
            )
        )
    if criterion.example.strip():
        texts.append(
            (f"c{criterion.pk}-example", f"{criterion.name}: worked example", criterion.example)
        )
    if criterion.scale == Criterion.Scale.LIKERT:
        for i, level in enumerate(criterion.likert_levels, start=1):
            described = _level_text(level)
            if described.strip():
                label = f"{criterion.name}: level {level.get('label') or i} descriptor"
                texts.append((f"c{criterion.pk}-level{i}", label, described))
    return texts


def translation_status(
    *, campaign: Campaign, language: str, criteria: list[Criterion] | None = None
) -> TranslationStatus:
    """Every worker-facing text the designer wrote (those with words) beside its
    translation into ``language`` ("" where missing). One query (the criteria) unless
    they are given."""
    if criteria is None:
        criteria = criteria_in_order(campaign=campaign)
    given = (campaign.translations or {}).get(language) or {}
    texts = [
        TranslationText(name, CAMPAIGN_TEXT_NAMES[name], original, str(given.get(name) or ""))
        for name in CAMPAIGN_TEXTS
        if (original := str(getattr(campaign, name) or "")).strip()
    ]
    for criterion in criteria:
        mine = (criterion.translations or {}).get(language) or {}
        levels = mine.get("levels") or []
        for key, label, original in criterion_texts(criterion):
            part = key.split("-", 1)[1]
            if part.startswith("level"):
                i = int(part[5:]) - 1
                translated = _level_text(levels[i]) if i < len(levels) else ""
            else:
                translated = str(mine.get(part) or "")
            texts.append(TranslationText(key, label, original, translated))
    return TranslationStatus(language=language, texts=texts)


def translations_needed(*, campaign: Campaign) -> list[TranslationStatus]:
    """Per language after the campaign's first (the one the designer writes in): what is
    translated and what is missing. Empty for a one-language campaign. One query."""
    languages = list(campaign.languages or [])[1:]
    if not languages:
        return []
    criteria = criteria_in_order(campaign=campaign)
    return [
        translation_status(campaign=campaign, language=tag, criteria=criteria) for tag in languages
    ]
