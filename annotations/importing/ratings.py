"""Imports of finished E2E RankME ratings, and of a whole E2E folder."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.db import transaction

from annotations.core.outputs import OutputRow
from annotations.importing.outputs import outputs_check_against, systems_name
from annotations.importing.parsers.common import collapse_whitespace
from annotations.importing.parsers.e2e_outputs import (
    PARTICIPANTS_FILE,
    parse_e2e_outputs,
    parse_participants,
)
from annotations.importing.parsers.e2e_ratings import ParsedRatings, parse_e2e_ratings
from annotations.importing.parsers.mapped.cells import RANKME_CHECKS
from annotations.models import Campaign, Criterion, Judgement, Output, Task, Worker
from annotations.services.campaigns import campaign_get_or_create
from annotations.services.criteria import criterion_from_preset
from annotations.services.finished_judgements import (
    FinishedJudgement,
    FinishedScore,
    judgements_store_finished,
)
from annotations.services.outputs import outputs_store
from common.errors import DomainError, ImportFileError
from common.queries import row_lock

E2E_RATING_FILES = {"quality": "quality.csv", "naturalness": "naturalness.csv"}

# --------------------------------------------------------------------------------------
# E2E ratings


@dataclass(frozen=True)
class RatingsImported:
    file: str
    criterion: str
    judgements: int
    scores: int
    tasks: int
    workers: int
    new_workers: int
    items_created: int
    outputs_created: int
    texts_differing: int
    texts_differing_whitespace_only: int
    twin_pairs: int
    twin_pairs_equal_scores: int


def _ratings_store(
    *, campaign: Campaign, criterion: Criterion, parsed: ParsedRatings
) -> RatingsImported:
    row_lock(Campaign, campaign.pk)  # one import into a campaign at a time (see mapped)
    file = parsed.file
    first_line_of_unit: dict[str, int] = {}
    for j in parsed.judgements:
        first_line_of_unit.setdefault(j.unit_id, j.line)
    clash = (
        Task.objects.filter(criterion=criterion, external_id__in=list(first_line_of_unit))
        .values_list("external_id", flat=True)
        .first()
    )
    if clash is not None:
        raise ImportFileError(
            f"criterion '{criterion.name}' of campaign '{campaign.slug}' already holds unit "
            f"{clash} (this file was imported before?); nothing was written.",
            file=file,
            line=first_line_of_unit[clash],
            field="_unit_id",
        )

    # Link every shown text to the output of its system for its MR; create what is missing.
    items = {ext: inp for ext, inp in campaign.items.values_list("external_id", "input")}
    outputs = {
        (ext, label): text
        for ext, label, text in Output.objects.filter(item__campaign=campaign).values_list(
            "item__external_id", "system__label", "text"
        )
    }
    missing: dict[tuple[str, str], OutputRow] = {}
    items_created: set[str] = set()
    for j in parsed.judgements:
        item_id = str(j.mr_id)
        known = items.get(item_id)
        if known is None:
            items[item_id] = j.mr
            items_created.add(item_id)
        elif collapse_whitespace(known) != collapse_whitespace(j.mr):
            raise ImportFileError(
                f"mr_id {j.mr_id} is '{known[:100]}' in the campaign, not this MR.",
                file=file,
                line=j.line,
                field="mr",
            )
        for system, text in zip(j.systems, j.texts, strict=True):
            if (item_id, system) not in outputs and (item_id, system) not in missing:
                missing[(item_id, system)] = OutputRow(
                    item_id=item_id, input=items[item_id], system=system, text=text
                )
    if missing:
        outputs_store(campaign=campaign, rows=list(missing.values()))
        outputs.update({(r.item_id, r.system): r.text for r in missing.values()})

    differing = differing_ws = twin_pairs = twin_equal = 0
    finished: list[FinishedJudgement] = []
    for j in parsed.judgements:
        item_id = str(j.mr_id)
        scores = []
        for slot, (system, text) in enumerate(zip(j.systems, j.texts, strict=True)):
            stored_text = outputs[(item_id, system)]
            if text != stored_text:
                differing += 1
                differing_ws += collapse_whitespace(text) == collapse_whitespace(stored_text)
            for twin in j.twins[slot]:
                twin_pairs += 1
                twin_equal += j.scores[slot] == j.scores[twin]
            scores.append(
                FinishedScore(
                    system=system,
                    score=j.scores[slot],
                    coverage=j.coverage[slot],
                    text=text,
                    # RankME's answer is also the content checks the quality question
                    # asked (as the e2e-quality preset reads it): the checks table read
                    # 0% of every check for an E2E folder imported so
                    checks=_e2e_checks(j.coverage[slot]),
                )
            )
        meta: dict[str, Any] = {"_id": j.judgement_id}
        if "_trust" in j.worker_metadata:
            meta["_trust"] = j.worker_metadata["_trust"]
        if any(j.twins):
            meta["dupl_ref"] = [[t + 1 for t in twins] for twins in j.twins]
        finished.append(
            FinishedJudgement(
                item_id=item_id,
                worker_id=j.worker_id,
                scores=tuple(scores),
                started_at=j.started_at,
                submitted_at=j.submitted_at,
                task_external_id=j.unit_id,
                worker_metadata=j.worker_metadata,
                metadata=meta,
            )
        )
    worker_ids = {j.worker_id for j in parsed.judgements}
    known_workers = set(
        campaign.workers.filter(
            platform=Worker.Platform.IMPORTED, external_id__in=list(worker_ids)
        ).values_list("external_id", flat=True)
    )
    count = judgements_store_finished(campaign=campaign, criterion=criterion, judgements=finished)
    return RatingsImported(
        file=file,
        criterion=criterion.name,
        judgements=count,
        scores=sum(len(f.scores) for f in finished),
        tasks=len(first_line_of_unit),
        workers=len(worker_ids),
        new_workers=len(worker_ids - known_workers),
        items_created=len(items_created),
        outputs_created=len(missing),
        texts_differing=differing,
        texts_differing_whitespace_only=differing_ws,
        twin_pairs=twin_pairs,
        twin_pairs_equal_scores=twin_equal,
    )


@transaction.atomic
def ratings_import(*, campaign: Campaign, criterion: Criterion, path: Path) -> RatingsImported:
    """Import a raw E2E RankME export (``quality.csv`` or ``naturalness.csv``).

    Tasks are rebuilt from the units (kind ``imported``, external id = ``_unit_id``,
    one slot per shown output in the file's order); each shown text is linked to its
    system's output for the MR (``mr_id`` is the item's external id). An output the
    campaign lacks is created from the shown text; a shown text that differs from the
    stored output is kept in ``TaskOutput.text``. Twins (``dupl_ref``) keep a slot each.
    Importing a file twice fails: its units exist already.
    """
    parsed = parse_e2e_ratings(Path(path))
    return _ratings_store(campaign=campaign, criterion=criterion, parsed=parsed)


# --------------------------------------------------------------------------------------
# A whole E2E folder


@dataclass(frozen=True)
class E2EImported:
    campaign: str
    campaign_created: bool
    systems: int
    items: int
    outputs: int
    identical_groups: int
    systems_named: int
    criteria: int
    ratings: tuple[RatingsImported, ...]
    workers: int
    seconds: float

    @property
    def judgements(self) -> int:
        return sum(r.judgements for r in self.ratings)

    @property
    def tasks(self) -> int:
        return sum(r.tasks for r in self.ratings)

    @property
    def scores(self) -> int:
        return sum(r.scores for r in self.ratings)


def _e2e_checks(label: str) -> tuple[str, ...]:
    """An E2E coverage label (``check{i}``) as the content checks it answers, as the
    ``e2e-quality`` preset reads it (``RANKME_CHECKS``: ``ok`` is perfect, ``both`` added
    and missing); none for no label."""
    return RANKME_CHECKS.get(label, (label,)) if label else ()


def e2e_import(*, campaign_slug: str, folder: Path) -> E2EImported:
    """Import an E2E folder: outputs, participants, both criteria and their ratings.

    ``folder`` holds ``system_outputs/<label>.tsv`` (or the TSVs themselves),
    optionally ``participants.tsv``, ``quality.csv`` and ``naturalness.csv``. The
    campaign is created (closed: its judgements are finished) when missing. The
    criteria ``quality`` and ``naturalness`` come from the presets of the same name
    (the E2E question wordings). All files are parsed before anything is written;
    then one transaction writes everything or nothing. A campaign that already holds
    these outputs is refused.
    """
    start = time.perf_counter()
    folder = Path(folder)
    parsed_outputs = parse_e2e_outputs(folder)
    parsed_ratings = {}
    for preset, name in E2E_RATING_FILES.items():
        path = folder / name
        if path.is_file():
            parsed = parse_e2e_ratings(path)
            if parsed.criterion != preset:
                raise ImportFileError(
                    f"{name} should hold {preset} scores but holds {parsed.criterion} scores.",
                    file=str(path),
                    line=1,
                    field=f"{'quality' if preset == 'quality' else 'natur'}1",
                )
            parsed_ratings[preset] = parsed
    if (folder / PARTICIPANTS_FILE).is_file():
        parse_participants(folder / PARTICIPANTS_FILE)  # fail before writing anything
    with transaction.atomic():
        campaign, created = campaign_get_or_create(
            slug=campaign_slug,
            name="E2E NLG Challenge (imported)",
            status=Campaign.Status.CLOSED,
        )
        if (
            not created
            and Judgement.objects.filter(
                criterion__campaign=campaign,
                criterion__name__in=list(E2E_RATING_FILES),
                task__kind=Task.Kind.IMPORTED,
            ).exists()
        ):
            raise DomainError(
                f"Campaign '{campaign.slug}' already holds imported E2E judgements; "
                "nothing was written (import into a new campaign)."
            )
        outputs_check_against(campaign, parsed_outputs)
        stored = outputs_store(campaign=campaign, rows=parsed_outputs.rows)
        named = systems_name(campaign, folder)
        criteria = {
            preset: criterion_from_preset(campaign=campaign, preset=preset)
            for preset in E2E_RATING_FILES
        }
        ratings = tuple(
            _ratings_store(campaign=campaign, criterion=criteria[preset], parsed=parsed)
            for preset, parsed in parsed_ratings.items()
        )
        workers = len({j.worker_id for p in parsed_ratings.values() for j in p.judgements})
    return E2EImported(
        campaign=campaign.slug,
        campaign_created=created,
        systems=stored.systems,
        items=stored.items,
        outputs=stored.outputs,
        identical_groups=stored.identical_groups,
        systems_named=named,
        criteria=len(criteria),
        ratings=ratings,
        workers=workers,
        seconds=time.perf_counter() - start,
    )
