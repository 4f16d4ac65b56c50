"""The quality checks' verdicts, as stored: ``WorkerCheck`` rows written by
``services.quality`` (one per checked assignment and kind).

The monitor's pass rates and self-consistency and the payment page's suggestion read
them here; nothing recomputes a check.
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
        elif kind == WorkerCheck.Kind.REPEAT and "agreement" in (detail or {}):
            c.repeat_agreements.append(float(detail["agreement"]))
    return checks
