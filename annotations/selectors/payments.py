"""Reads for the payment step: a suggestion per worker, and the platforms' bulk files.

The suggestion reuses what the quality checks already decided, never a rule of its own:
whether the worker is below the campaign's ``quality_threshold`` is
``selectors.quality.quality_verdict`` over the worker's ``WorkerCheck`` rows (the rule
that flags workers and that the monitor shows); ``flagged`` and ``stopped`` are set by
``services.quality.worker_quality_update`` (or by the organizer); ``excluded`` is the
organizer's; tasks done are the monitor's (``selectors.monitor.worker_table``).

Bulk formats:

* Prolific bulk approve: participant ids, one a line (the web app's "Bulk approve" box).
* Prolific bulk bonus: ``<participant_id>,<amount>`` lines, no header, the amount in the
  study's currency with two decimals (the ``csv_bonuses`` of Prolific's "Set up bonuses").
* MTurk review: the batch results columns MTurk's "Upload CSV" reads back
  (``HITId, AssignmentId, WorkerId, Approve, Reject``): ``x`` under Approve, or the
  reason under Reject (the reason is shown to the worker).

Every cell goes through ``export_safety.csv_cell`` (OWASP CSV injection): worker ids
come from the crowd.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from decimal import Decimal

from annotations.core.export_safety import csv_cell, csv_row
from annotations.models import Campaign, Worker
from annotations.selectors import monitor as monitor_selectors
from annotations.selectors.quality import WorkerChecks, quality_verdict, worker_checks
from common.errors import DomainError

APPROVE = "approved"
REJECT = "rejected"
REVIEW = ""  # no suggestion: the organizer decides

# Shown to MTurk workers when their assignment is rejected without a stated reason.
DEFAULT_REJECT_REASON = "The answers did not pass the study's quality checks."

FORMATS: dict[str, tuple[str, str]] = {
    # name: (content type, file name suffix)
    "prolific-approve": ("text/plain; charset=utf-8", "prolific-approve.txt"),
    "prolific-bonus": ("text/csv; charset=utf-8", "prolific-bonus.csv"),
    "mturk-review": ("text/csv; charset=utf-8", "mturk-review.csv"),
}


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
        return REJECT, "Excluded" + (
            f": {worker.exclusion_reason}" if worker.exclusion_reason else "."
        )
    verdict = quality_verdict(checks, threshold=threshold)
    if worker.stopped:
        if not verdict.checked:
            return REJECT, "Stopped by hand (no quality checks)."
        return REJECT, f"Stopped by the quality checks ({checks.failed} of {checks.n} failed)."
    if verdict.below:
        if _one_check_decides(checks, threshold):
            return REVIEW, f"{verdict.reason} One check alone decides nothing: look at it."
        return REJECT, verdict.reason
    if worker.flagged:
        if not verdict.checked:
            return REJECT, "Flagged by hand (no quality checks)."
        return REJECT, f"Flagged ({checks.failed} of {checks.n} quality checks failed)."
    if tasks_done == 0:
        return REVIEW, "No task finished: decide by hand."
    if not verdict.checked:
        # Nothing was checked, so nothing was passed: a person decides.
        return REVIEW, verdict.reason
    return APPROVE, verdict.reason


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
        approved=sum(r.worker.review == APPROVE for r in rows),
        rejected=sum(r.worker.review == REJECT for r in rows),
        undecided=sum(not r.worker.review for r in rows),
        bonus_total=sum((r.worker.bonus for r in rows), Decimal(0)),
        disagreeing=sum(r.decided and r.suggestion != REVIEW and not r.agrees for r in rows),
    )


# Bulk files ---------------------------------------------------------------------------------


def _amount(value: Decimal) -> str:
    return f"{value.quantize(Decimal('0.01'))}"


def prolific_approve_text(*, campaign: Campaign) -> str:
    """Prolific participant ids the organizer approved, one a line."""
    ids = (
        campaign.workers.filter(platform=Worker.Platform.PROLIFIC, review=APPROVE)
        .order_by("external_id")
        .values_list("external_id", flat=True)
    )
    return "".join(f"{csv_cell(pid)}\n" for pid in ids)


def prolific_bonus_csv(*, campaign: Campaign) -> str:
    """``participant_id,amount`` lines for every Prolific worker with a bonus, no header."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for pid, bonus in (
        campaign.workers.filter(platform=Worker.Platform.PROLIFIC, bonus__gt=0)
        .order_by("external_id")
        .values_list("external_id", "bonus")
    ):
        writer.writerow(csv_row([pid, _amount(bonus)]))
    return buffer.getvalue()


MTURK_COLUMNS = ("HITId", "AssignmentId", "WorkerId", "Approve", "Reject")


def mturk_review_csv(*, campaign: Campaign, reasons: dict[int, str] | None = None) -> str:
    """MTurk's batch review file for every decided MTurk worker with an assignment id.

    ``reasons`` maps worker ids to the rejection reason (the suggestion's, from
    :func:`payment_rows`); an exclusion reason wins, and a default covers the rest.
    Undecided workers are left out (MTurk keeps their assignments pending).
    """
    reasons = reasons or {}
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(MTURK_COLUMNS)
    workers = campaign.workers.filter(
        platform=Worker.Platform.MTURK, review__in=[APPROVE, REJECT]
    ).order_by("external_id")
    for worker in workers:
        assignment_id = str(worker.metadata.get("assignment_id", "") or "")
        if not assignment_id:
            continue
        if worker.review == APPROVE:
            approve, reject = "x", ""
        else:
            approve = ""
            reject = worker.exclusion_reason or reasons.get(worker.pk) or DEFAULT_REJECT_REASON
        writer.writerow(
            csv_row(
                [
                    str(worker.metadata.get("hit_id", "") or ""),
                    assignment_id,
                    worker.external_id,
                    approve,
                    " ".join(reject.split()),
                ]
            )
        )
    return buffer.getvalue()


def mturk_unreviewable(*, campaign: Campaign) -> int:
    """Decided MTurk workers without an assignment id (not in the MTurk file)."""
    return sum(
        not w.metadata.get("assignment_id")
        for w in campaign.workers.filter(
            platform=Worker.Platform.MTURK, review__in=[APPROVE, REJECT]
        ).only("metadata")
    )


def payment_export(*, campaign: Campaign, fmt: str) -> str:
    """The bulk file ``fmt`` (one of :data:`FORMATS`) as text."""
    if fmt == "prolific-approve":
        return prolific_approve_text(campaign=campaign)
    if fmt == "prolific-bonus":
        return prolific_bonus_csv(campaign=campaign)
    if fmt == "mturk-review":
        reasons = {
            r.worker.pk: r.reason
            for r in payment_rows(campaign=campaign)
            if r.worker.platform == Worker.Platform.MTURK and r.suggestion == REJECT
        }
        return mturk_review_csv(campaign=campaign, reasons=reasons)
    raise DomainError(f"Unknown payment export '{fmt}'; choose one of {', '.join(FORMATS)}.")
