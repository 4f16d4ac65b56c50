"""The content checks of a ranking's judgements: per system, how often workers ticked
each check the criterion enables, with Wilson intervals (the run's page and its result
API both show them)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from annotations.models import Criterion
from annotations.selectors.judgements import scores_counted
from ranking import stats
from ranking.models import RankingRun
from ranking.selectors.runs import DEFAULT_CONFIDENCE


@dataclass(frozen=True)
class CheckCounts:
    """How often each content check was ticked for each system's outputs."""

    checks: list[str]
    systems: list[str]
    outputs: list[int]  # outputs judged per system (the trials)
    ticked: list[list[int]]  # [system][check]


def content_check_counts(
    *,
    criterion: Criterion,
    exclude_excluded_workers: bool = True,
    where: Mapping[str, str] | None = None,
) -> CheckCounts | None:
    """Per system: outputs judged with their checks recorded, and how many times each
    enabled content check was ticked.

    None when the criterion has no content checks, or when its judgements recorded none
    (files imported without check columns: counting their outputs as ticking nothing read
    0% of every check, with an interval). Uses the judgements a ranking uses.
    """
    checks = [str(c) for c in (criterion.content_checks or [])]
    if not checks:
        return None
    qs = scores_counted(
        criterion=criterion, exclude_excluded_workers=exclude_excluded_workers, where=where
    )
    outputs: Counter[str] = Counter()
    ticked: Counter[tuple[str, str]] = Counter()
    for label, ticks in qs.values_list("output__system__label", "checks").iterator():
        outputs[label] += 1
        for key in set(ticks or []):
            ticked[(label, str(key))] += 1
    if not ticked:
        return None  # nothing recorded: no table rather than 0% of everything
    systems = sorted(outputs)
    return CheckCounts(
        checks=checks,
        systems=systems,
        outputs=[outputs[s] for s in systems],
        ticked=[[ticked[(s, c)] for c in checks] for s in systems],
    )


@dataclass(frozen=True)
class CheckCell:
    """How often one content check was ticked on one system's outputs: the share and its
    Wilson interval."""

    ticked: int
    rate: float
    lo: float
    hi: float


@dataclass(frozen=True)
class CheckRow:
    system: str
    outputs: int  # outputs judged (the trials)
    cells: list[CheckCell]  # one per check, in ``CheckSummary.checks`` order


@dataclass(frozen=True)
class CheckSummary:
    """A run's content checks per system, as its result page (and API) show them."""

    checks: list[str]
    confidence: float
    rows: list[CheckRow]


def content_check_summary(
    *, run: RankingRun, confidence: float = DEFAULT_CONFIDENCE
) -> CheckSummary | None:
    """Per system, the share of its outputs on which workers ticked each content check,
    with a Wilson interval (``ranking.stats.wilson_interval``, 95% by default), on the
    judgements the run ranks (its slice, its exclusions); None when the criterion has no
    content checks or its judgements recorded none (:func:`content_check_counts`)."""
    counts = content_check_counts(
        criterion=run.criterion, exclude_excluded_workers=run.exclude_flagged, where=run.where
    )
    if counts is None:
        return None
    trials = np.asarray(counts.outputs, dtype=np.int64)
    ticked = np.asarray(counts.ticked, dtype=np.int64).reshape(len(counts.systems), -1)
    rows = []
    for i, system in enumerate(counts.systems):
        lo, hi = stats.wilson_interval(
            ticked[i], np.full(ticked.shape[1], trials[i]), confidence=confidence
        )
        rows.append(
            CheckRow(
                system=system,
                outputs=int(trials[i]),
                cells=[
                    CheckCell(
                        ticked=int(ticked[i, j]),
                        rate=float(ticked[i, j] / trials[i]),
                        lo=float(lo[j]),
                        hi=float(hi[j]),
                    )
                    for j in range(ticked.shape[1])
                ],
            )
        )
    return CheckSummary(checks=counts.checks, confidence=confidence, rows=rows)
