"""Imports of WMT relative rankings as finished judgements."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils import timezone

from annotations.importing.parsers.wmt import ParsedWMT, WMTRanking, parse_wmt_csv
from annotations.models import Campaign, Criterion, Item, Judgement, Output, System
from annotations.selectors.criteria import criterion_by_name
from annotations.services.bulk import BATCH_SIZE, bulk_insert, gc_paused
from annotations.services.campaigns import campaign_get_or_create
from annotations.services.criteria import CRITERION_PRESETS, criterion_create_imported
from annotations.services.finished_judgements import (
    FinishedJudgement,
    FinishedScore,
    judgements_refuse_if_archived,
    judgements_store_finished,
)
from annotations.services.languages import campaign_languages_add
from common.errors import DomainError, ImportFileError
from common.queries import row_lock

# --------------------------------------------------------------------------------------
# WMT relative ranking


WMT_QUESTION = "Rank the translations from best to worst (ties allowed)."


@dataclass(frozen=True)
class WMTImported:
    file: str
    criterion: str
    judgements: int
    skipped_unranked: int
    items_created: int
    systems_created: int
    outputs_created: int
    workers: int


def _wmt_criterion(*, campaign: Campaign, name: str, k: int) -> Criterion:
    """The campaign's criterion of that name, else a new one (through the criteria
    service, under its rules): the preset of that name, else a Likert scale over the k
    ranks."""
    criterion = criterion_by_name(campaign, name)
    if criterion is not None:
        return criterion
    try:
        if name in CRITERION_PRESETS:
            return criterion_create_imported(campaign=campaign, preset=name)
        levels = [
            {
                "value": k + 1 - rank,
                "label": str(k + 1 - rank),
                "descriptor": f"ranked {rank} of {k}",
            }
            for rank in range(k, 0, -1)
        ]
        return criterion_create_imported(
            campaign=campaign,
            name=name,
            question=WMT_QUESTION,
            show_input=True,
            scale=Criterion.Scale.LIKERT,
            scale_settings={"levels": levels, "source": Criterion.RANKS_SOURCE},
        )
    except DomainError as exc:
        raise DomainError(f"Criterion '{name}': {exc}") from exc


def _wmt_ids(r: WMTRanking) -> dict[str, Any]:
    """The WMT file's own ids and source language, kept with the judgement (under the
    WMT column names) so that the WMT export writes them back; none when not given."""
    ids: dict[str, Any] = {}
    if r.source_language:
        ids["srclang"] = r.source_language
    if r.src_index:
        ids["srcIndex"] = r.src_index
    if r.document_id:
        ids["documentId"] = r.document_id
    if r.system_numbers:  # by system: the task's slots may be in another order
        ids["systemNumbers"] = {
            system: number
            for system, number in zip(r.systems, r.system_numbers, strict=True)
            if number
        }
    return ids


def _wmt_store(
    *, campaign: Campaign, criterion_name: str, parsed: ParsedWMT, experts: bool = False
) -> WMTImported:
    source = Path(parsed.file).name
    row_lock(Campaign, campaign.pk)  # one import into a campaign at a time (see mapped)
    judgements_refuse_if_archived(campaign)  # before the criterion, items and outputs
    criterion = _wmt_criterion(campaign=campaign, name=criterion_name, k=parsed.systems_per_row)
    if Judgement.objects.filter(criterion=criterion, metadata__wmt_file=source).exists():
        raise ImportFileError(
            f"criterion '{criterion.name}' of campaign '{campaign.slug}' already holds the "
            "rankings of a file with this name (imported before?); nothing was written.",
            file=parsed.file,
        )
    # Placeholders: WMT files carry no texts, so items and outputs are created empty.
    items = dict(campaign.items.values_list("external_id", "id"))
    systems = dict(campaign.systems.values_list("label", "id"))
    have = set(
        Output.objects.filter(item__campaign=campaign).values_list(
            "item__external_id", "system__label"
        )
    )
    # The outputs' language per segment: the file's trglang, else the campaign's first.
    default = campaign.default_language
    language_of: dict[str, str] = {}
    for r in parsed.rankings:
        language_of.setdefault(r.segment_id, r.language or default)
    new_items = [segment for segment in language_of if segment not in items]
    new_systems = [
        System(campaign=campaign, label=label)
        for label in dict.fromkeys(label for r in parsed.rankings for label in r.systems)
        if label not in systems
    ]
    item_ids = bulk_insert(
        model=Item,
        fields=("campaign", "external_id", "input", "position", "language"),
        rows=[
            (campaign.pk, segment, "", len(items) + n, language_of[segment])
            for n, segment in enumerate(new_items)
        ],
    )
    campaign_languages_add(campaign=campaign, languages=language_of.values(), first=not items)
    System.objects.bulk_create(new_systems, batch_size=BATCH_SIZE)
    items.update(zip(new_items, item_ids, strict=True))
    systems.update({s.label: s.pk for s in new_systems})
    new_outputs: list[tuple[int, int, str, str]] = []
    for r in parsed.rankings:
        for label in r.systems:
            if (r.segment_id, label) not in have:
                have.add((r.segment_id, label))
                new_outputs.append(
                    (items[r.segment_id], systems[label], "", language_of[r.segment_id])
                )
    bulk_insert(
        model=Output, fields=("item", "system", "text", "language"), rows=new_outputs, ids=False
    )
    # Scores: k + 1 - rank, so that higher is better as for every other criterion.
    k = parsed.systems_per_row
    # Files without times get the import's, to the second (as exports write times), so
    # that an export re-imports to the same judgements.
    now = timezone.now().replace(microsecond=0)
    # One (immutable) score per system and rank: a large file has half a million scores
    # but a few dozen distinct ones.
    scores: dict[tuple[str, int], FinishedScore] = {}
    for label in systems:
        for rank in range(1, k + 1):
            scores[label, rank] = FinishedScore(label, float(k + 1 - rank), float(rank))
    finished = [
        FinishedJudgement(
            item_id=r.segment_id,
            worker_id=r.judge_id,
            scores=tuple(map(scores.__getitem__, zip(r.systems, r.ranks, strict=True))),
            started_at=now,
            submitted_at=now,
            metadata={
                "wmt_file": source,
                "line": r.line,
                **({"rankingID": r.ranking_id} if r.ranking_id else {}),
                **({"ranks_written": list(r.ranks_written)} if r.ranks_written else {}),
                **_wmt_ids(r),
            },
        )
        for r in parsed.rankings
    ]
    count = judgements_store_finished(
        campaign=campaign, criterion=criterion, judgements=finished, experts=experts
    )
    return WMTImported(
        file=parsed.file,
        criterion=criterion.name,
        judgements=count,
        skipped_unranked=parsed.skipped_unranked,
        items_created=len(new_items),
        systems_created=len(new_systems),
        outputs_created=len(new_outputs),
        workers=len({r.judge_id for r in parsed.rankings}),
    )


@transaction.atomic
def wmt_import(
    *, campaign: Campaign, path: Path, criterion_name: str = "ranking", experts: bool = False
) -> WMTImported:
    """Import a WMT relative-ranking CSV as finished judgements.

    Ranked rows of the same segment and systems share a task (kind ``imported``, blank
    external id), judged by the workers ``judgeId`` (platform ``imported``; experts
    with ``experts``: the reference the crowd is compared with). ``rank`` is stored
    as given (1 = best) and ``score = k + 1 - rank`` so that higher is better. Items
    (external id ``segmentId``, input "") and outputs (text "") are created as
    placeholders when missing, since the files carry no texts; the judgement times are
    the import time (the files carry none). Rows with a rank of -1 are skipped and
    counted. The file's ``srclang`` (as BCP 47), ``srcIndex``, ``documentId`` and
    ``system{i}Number`` are kept in each judgement's metadata (when given: ``-1`` is
    WMT's "none") and written back by the WMT export. The criterion is created when missing (a preset when ``criterion_name``
    names one, else a Likert scale over the k ranks). A file name imported before
    under the criterion is refused.
    """
    with gc_paused():
        parsed = parse_wmt_csv(Path(path))
        return _wmt_store(
            campaign=campaign, criterion_name=criterion_name, parsed=parsed, experts=experts
        )


@transaction.atomic
def wmt_import_into(
    *, campaign_slug: str, path: Path, criterion_name: str = "ranking", experts: bool = False
) -> tuple[Campaign, bool, WMTImported]:
    """:func:`wmt_import` into the campaign of that slug, created as a draft when there is
    none, in one transaction: on a bad file nothing is written, not even the campaign.
    Returns the campaign, whether it was created, and the summary."""
    campaign, created = campaign_get_or_create(slug=campaign_slug)
    summary = wmt_import(
        campaign=campaign, path=path, criterion_name=criterion_name, experts=experts
    )
    return campaign, created, summary
