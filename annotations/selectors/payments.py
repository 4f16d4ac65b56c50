"""Reads for the payment step: a suggestion per worker, and what the platforms' bulk
files list (``annotations.exports.payments`` writes them).

The suggestion reuses what the quality checks already decided, never a rule of its own:
whether the worker is below the campaign's ``quality_threshold`` is
``selectors.quality.quality_verdict`` over the worker's ``WorkerCheck`` rows (the rule
that flags workers and that the monitor shows); ``flagged`` and ``stopped`` are set by
``services.quality.worker_quality_update`` (or by the organizer); ``excluded`` is the
organizer's; tasks done are the monitor's (``selectors.monitor.worker_table``).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from annotations.models import Campaign, Worker
from annotations.selectors import monitor as monitor_selectors
from annotations.selectors.quality import WorkerChecks, quality_verdict, worker_checks

# A suggestion is a decision the organizer could make; UNDECIDED: none, they decide.
Review = Worker.Review

# Shown to MTurk workers when their assignment is rejected without a stated reason.
DEFAULT_REJECT_REASON = "The answers did not pass the study's quality checks."


@dataclass(frozen=True)
class PaymentRow:
    """One worker on the payment page. Check counts are the worker's ``WorkerCheck``
    rows (what ``services.quality`` decided); ``tasks_done`` is the monitor's."""

    worker: Worker
    tasks_done: int
    attention_checks: int
    attention_passed: int
    checks: int
    checks_failed: int
    failed_kinds: tuple[str, ...]
    suggestion: str
    reason: str
    #: the monitor's page counts (``selectors.monitor.WorkerRow``)
    pages: int = 0
    counted_pages: int = 0
    attention_pages: int = 0
    repeat_pages: int = 0

    @property
    def attention_pass_rate(self) -> float | None:
        return self.attention_passed / self.attention_checks if self.attention_checks else None

    @property
    def decided(self) -> bool:
        return bool(self.worker.review)

    @property
    def agrees(self) -> bool:
        return self.worker.review == self.suggestion


#: the fewest checks of a kind whose pass rate may suggest a rejection on its own: with
#: one attention check and one repeat per worker (10% each of 10 tasks), a single slip
#: would otherwise suggest rejecting nearly everyone
MIN_CHECKS_TO_REJECT = 2


def _one_check_decides(checks: WorkerChecks, threshold: float) -> bool:
    """Whether every kind below ``threshold`` rests on fewer than
    :data:`MIN_CHECKS_TO_REJECT` checks (uniform scoring always counts)."""
    if checks.uniform:
        return False
    below = [
        n
        for passed, n in (
            (checks.attention_passed, checks.attention),
            (checks.repeats_passed, checks.repeats),
        )
        if n and passed / n < threshold
    ]
    return bool(below) and max(below) < MIN_CHECKS_TO_REJECT


def _suggest(
    worker: Worker, tasks_done: int, checks: WorkerChecks, threshold: float
) -> tuple[str, str]:
    if worker.excluded:
        return Review.REJECTED, "Excluded" + (
            f": {worker.exclusion_reason}" if worker.exclusion_reason else "."
        )
    verdict = quality_verdict(checks, threshold=threshold)
    if worker.stopped:
        if not verdict.checked:
            return Review.REJECTED, "Stopped by hand (no quality checks)."
        return (
            Review.REJECTED,
            f"Stopped by the quality checks ({checks.failed} of {checks.n} failed).",
        )
    if verdict.below:
        if _one_check_decides(checks, threshold):
            return (
                Review.UNDECIDED,
                f"{verdict.reason} One check alone decides nothing: look at it.",
            )
        return Review.REJECTED, verdict.reason
    if worker.flagged:
        if not verdict.checked:
            return Review.REJECTED, "Flagged by hand (no quality checks)."
        return Review.REJECTED, f"Flagged ({checks.failed} of {checks.n} quality checks failed)."
    if tasks_done == 0:
        return Review.UNDECIDED, "No task finished: decide by hand."
    if not verdict.checked:
        # Nothing was checked, so nothing was passed: a person decides.
        return Review.UNDECIDED, verdict.reason
    return Review.APPROVED, verdict.reason


def payment_rows(*, campaign: Campaign) -> list[PaymentRow]:
    """Every worker of the campaign with the checks' verdict and a suggested decision,
    in the monitor's order (newest first)."""
    checks = worker_checks(campaign=campaign)
    table = monitor_selectors.worker_table(campaign=campaign, checks=checks)
    rows = []
    for row in table:
        worker = row.worker
        c = checks.get(worker.pk) or WorkerChecks()
        suggestion, reason = _suggest(worker, row.tasks_done, c, campaign.quality_threshold)
        rows.append(
            PaymentRow(
                worker=worker,
                tasks_done=row.tasks_done,
                attention_checks=c.attention,
                attention_passed=c.attention_passed,
                checks=c.n,
                checks_failed=c.failed,
                failed_kinds=tuple(sorted(c.failed_kinds)),
                suggestion=suggestion,
                reason=reason,
                pages=row.pages,
                counted_pages=row.counted_pages,
                attention_pages=row.attention_pages,
                repeat_pages=row.repeat_pages,
            )
        )
    return rows


@dataclass(frozen=True)
class PaymentSummary:
    workers: int
    approved: int
    rejected: int
    undecided: int
    bonus_total: Decimal
    disagreeing: int


def payment_summary(*, rows: list[PaymentRow]) -> PaymentSummary:
    return PaymentSummary(
        workers=len(rows),
        approved=sum(r.worker.review == Review.APPROVED for r in rows),
        rejected=sum(r.worker.review == Review.REJECTED for r in rows),
        undecided=sum(not r.worker.review for r in rows),
        bonus_total=sum((r.worker.bonus for r in rows), Decimal(0)),
        disagreeing=sum(
            r.decided and r.suggestion != Review.UNDECIDED and not r.agrees for r in rows
        ),
    )


# What the bulk files list ---------------------------------------------------------------------


def prolific_approved(*, campaign: Campaign) -> list[str]:
    """The participant ids of the Prolific workers the organizer approved, in order."""
    return list(
        campaign.workers.filter(platform=Worker.Platform.PROLIFIC, review=Review.APPROVED)
        .order_by("external_id")
        .values_list("external_id", flat=True)
    )


def prolific_bonuses(*, campaign: Campaign) -> list[tuple[str, Decimal]]:
    """``(participant id, bonus)`` of every Prolific worker with a bonus, in order."""
    return list(
        campaign.workers.filter(platform=Worker.Platform.PROLIFIC, bonus__gt=0)
        .order_by("external_id")
        .values_list("external_id", "bonus")
    )


@dataclass(frozen=True)
class MTurkReview:
    """One decided MTurk assignment: approved, or rejected with the reason the worker
    reads."""

    hit_id: str
    assignment_id: str
    worker_id: str
    approved: bool
    #: "" when approved
    reason: str


def mturk_reviews(
    *, campaign: Campaign, reasons: dict[int, str] | None = None
) -> list[MTurkReview]:
    """Every decided MTurk worker with an assignment id, in order.

    ``reasons`` maps worker ids to the rejection reason (the suggestion's, from
    :func:`mturk_suggested_reasons`); an exclusion reason wins, and a default covers the
    rest. Undecided workers are left out (MTurk keeps their assignments pending).
    """
    reasons = reasons or {}
    reviews = []
    workers = campaign.workers.filter(
        platform=Worker.Platform.MTURK, review__in=[Review.APPROVED, Review.REJECTED]
    ).order_by("external_id")
    for worker in workers:
        assignment_id = str(worker.metadata.get("assignment_id", "") or "")
        if not assignment_id:
            continue
        approved = worker.review == Review.APPROVED
        reviews.append(
            MTurkReview(
                hit_id=str(worker.metadata.get("hit_id", "") or ""),
                assignment_id=assignment_id,
                worker_id=worker.external_id,
                approved=approved,
                reason=""
                if approved
                else worker.exclusion_reason or reasons.get(worker.pk) or DEFAULT_REJECT_REASON,
            )
        )
    return reviews


def mturk_suggested_reasons(*, campaign: Campaign) -> dict[int, str]:
    """The reason of each MTurk worker suggested for rejection (:func:`payment_rows`)."""
    return {
        r.worker.pk: r.reason
        for r in payment_rows(campaign=campaign)
        if r.worker.platform == Worker.Platform.MTURK and r.suggestion == Review.REJECTED
    }


def mturk_unreviewable(*, campaign: Campaign) -> int:
    """Decided MTurk workers without an assignment id (not in the MTurk file)."""
    return sum(
        not w.metadata.get("assignment_id")
        for w in campaign.workers.filter(
            platform=Worker.Platform.MTURK, review__in=[Review.APPROVED, Review.REJECTED]
        ).only("metadata")
    )
