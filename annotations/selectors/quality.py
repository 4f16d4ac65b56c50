"""The quality checks' verdicts, as stored: ``WorkerCheck`` rows written by
``services.quality`` (one per checked assignment and kind).

The monitor's pass rates and self-consistency and the payment page's suggestion read
them here; nothing recomputes a check. :func:`quality_verdict` is the one rule that says
whether a worker fell below the campaign's ``quality_threshold``: the flag
(``services.quality.worker_quality_update``), the monitor, the payment suggestion, the
exports and the API all take their verdict from it.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from annotations.models import Campaign, WorkerCheck


@dataclass
class WorkerChecks:
    """One worker's stored checks, counted."""

    n: int = 0
    failed: int = 0
    attention: int = 0
    attention_passed: int = 0
    repeats: int = 0
    repeats_passed: int = 0
    uniform: int = 0
    failed_kinds: Counter[str] = field(default_factory=Counter)
    # The share of output pairs ordered alike in each repeat (``detail["agreement"]``).
    repeat_agreements: list[float] = field(default_factory=list)

    @property
    def attention_pass_rate(self) -> float | None:
        return self.attention_passed / self.attention if self.attention else None

    @property
    def self_consistency(self) -> float | None:
        return statistics.fmean(self.repeat_agreements) if self.repeat_agreements else None


def worker_checks(
    *, campaign: Campaign, worker_ids: Iterable[int] | None = None
) -> dict[int, WorkerChecks]:
    """The stored checks of the campaign's workers (or of ``worker_ids``), by worker id,
    in one query; a worker without checks is absent."""
    rows = WorkerCheck.objects.filter(worker__campaign=campaign)
    if worker_ids is not None:
        rows = rows.filter(worker_id__in=list(worker_ids))
    checks: dict[int, WorkerChecks] = {}
    for worker_id, kind, passed, detail in rows.values_list(
        "worker_id", "kind", "passed", "detail"
    ):
        c = checks.setdefault(worker_id, WorkerChecks())
        c.n += 1
        if not passed:
            c.failed += 1
            c.failed_kinds[kind] += 1
        if kind == WorkerCheck.Kind.ATTENTION:
            c.attention += 1
            c.attention_passed += bool(passed)
        elif kind == WorkerCheck.Kind.REPEAT:
            c.repeats += 1
            c.repeats_passed += bool(passed)
            if "agreement" in (detail or {}):
                c.repeat_agreements.append(float(detail["agreement"]))
        elif kind == WorkerCheck.Kind.UNIFORM:
            c.uniform += 1 - bool(passed)
    return checks


#: the verdict's reason for a worker without any stored check (imported workers, or
#: none of their tasks checked): not below the threshold, and not passed either
NO_CHECKS = "No quality checks: decide by hand."


@dataclass(frozen=True)
class QualityVerdict:
    """Whether a worker is below the campaign's quality threshold, and why (in words a
    worker may read: the payment page sends the reason to MTurk on a rejection)."""

    below: bool
    reason: str
    #: the stored checks the verdict rests on (0: none, so nothing was passed either)
    checks: int = 0

    @property
    def checked(self) -> bool:
        return self.checks > 0


def quality_verdict(checks: WorkerChecks | None, *, threshold: float) -> QualityVerdict:
    """The one quality rule: a worker is below ``threshold`` (the campaign's "lowest
    attention-check pass rate") when the pass rate of their attention checks is below
    it; each other kind of check is rated on its own the same way (the share of repeats
    ordered alike; uniform-scoring checks are only ever stored failed). Kinds are never
    pooled, so passed repeats cannot hide a failed attention check. No checks: not below,
    and not passed either (:data:`NO_CHECKS`: a person decides).
    """
    c = checks or WorkerChecks()
    for passed, n, kind in (
        (c.attention_passed, c.attention, "attention check"),
        (c.repeats_passed, c.repeats, "repeated task"),
    ):
        if n and passed / n < threshold:
            return QualityVerdict(
                True,
                f"Passed {passed} of {n} {kind}{'' if n == 1 else 's'}, "
                f"below the campaign's {threshold:.0%}.",
                c.n,
            )
    if c.uniform and threshold > 0:
        return QualityVerdict(
            True,
            f"Gave every output the same score in a run of judgements "
            f"({c.uniform} uniform-scoring check{'' if c.uniform == 1 else 's'} failed).",
            c.n,
        )
    if c.n:
        return QualityVerdict(False, f"Passed {c.n - c.failed} of {c.n} quality checks.", c.n)
    return QualityVerdict(False, NO_CHECKS)
