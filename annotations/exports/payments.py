"""The platforms' bulk payment files, from what ``annotations.selectors.payments`` reads.

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

import io
from decimal import Decimal

from annotations.core.export_safety import csv_cell, csv_row
from annotations.models import Campaign
from annotations.selectors import payments as payment_selectors
from common.errors import DomainError
from common.tables import csv_writer

FORMATS: dict[str, tuple[str, str]] = {
    # name: (content type, file name suffix)
    "prolific-approve": ("text/plain; charset=utf-8", "prolific-approve.txt"),
    "prolific-bonus": ("text/csv; charset=utf-8", "prolific-bonus.csv"),
    "mturk-review": ("text/csv; charset=utf-8", "mturk-review.csv"),
}


def _amount(value: Decimal) -> str:
    return f"{value.quantize(Decimal('0.01'))}"


def prolific_approve_text(*, campaign: Campaign) -> str:
    """Prolific participant ids the organizer approved, one a line."""
    ids = payment_selectors.prolific_approved(campaign=campaign)
    return "".join(f"{csv_cell(pid)}\n" for pid in ids)


def prolific_bonus_csv(*, campaign: Campaign) -> str:
    """``participant_id,amount`` lines for every Prolific worker with a bonus, no header."""
    buffer = io.StringIO()
    writer = csv_writer(buffer, lineterminator="\n")
    for pid, bonus in payment_selectors.prolific_bonuses(campaign=campaign):
        writer.writerow(csv_row([pid, _amount(bonus)]))
    return buffer.getvalue()


MTURK_COLUMNS = ("HITId", "AssignmentId", "WorkerId", "Approve", "Reject")


def mturk_review_csv(*, campaign: Campaign, reasons: dict[int, str] | None = None) -> str:
    """MTurk's batch review file for every decided MTurk worker with an assignment id
    (``reasons``: as :func:`annotations.selectors.payments.mturk_reviews` takes them)."""
    buffer = io.StringIO()
    writer = csv_writer(buffer, lineterminator="\r\n")
    writer.writerow(MTURK_COLUMNS)
    for review in payment_selectors.mturk_reviews(campaign=campaign, reasons=reasons):
        writer.writerow(
            csv_row(
                [
                    review.hit_id,
                    review.assignment_id,
                    review.worker_id,
                    "x" if review.approved else "",
                    " ".join(review.reason.split()),
                ]
            )
        )
    return buffer.getvalue()


def payment_export(*, campaign: Campaign, fmt: str) -> str:
    """The bulk file ``fmt`` (one of :data:`FORMATS`) as text."""
    if fmt == "prolific-approve":
        return prolific_approve_text(campaign=campaign)
    if fmt == "prolific-bonus":
        return prolific_bonus_csv(campaign=campaign)
    if fmt == "mturk-review":
        reasons = payment_selectors.mturk_suggested_reasons(campaign=campaign)
        return mturk_review_csv(campaign=campaign, reasons=reasons)
    raise DomainError(f"Unknown payment export '{fmt}'; choose one of {', '.join(FORMATS)}.")
