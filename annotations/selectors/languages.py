"""Reads about a campaign's languages: workers, tasks and judgements per language."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q

from annotations.models import Campaign, Task, Worker
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
        .values("language")
        .annotate(n=Count("id"))
        .values_list("language", "n")
    )
    quotas = campaign.language_quotas or {}
    languages = list(campaign.languages or ["en"])
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
