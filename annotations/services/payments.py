"""Writes of the payment step: the organizer's decision and bonus per worker.

The decision (``Worker.review``) is the organizer's: a suggestion from the quality checks
(``selectors.payments``) is only applied when they ask for it, and never overwrites a
decision already made unless they say so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.db import transaction

from annotations.models import Campaign, Worker
from annotations.selectors.payments import payment_rows
from common.errors import DomainError

Review = Worker.Review
# Worker.bonus is DecimalField(max_digits=8, decimal_places=2).
MAX_BONUS = Decimal("999999.99")


@dataclass(frozen=True)
class Decision:
    review: str
    bonus: Decimal | str | None = None


def _bonus(value: Decimal | str | None, worker: Worker) -> Decimal | None:
    if value is None or value == "":
        return None
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        raise DomainError(
            f"Worker {worker.external_id}, bonus: '{value}' is not an amount (e.g. 1.50)."
        ) from None
    if not amount.is_finite() or amount < 0:
        raise DomainError(f"Worker {worker.external_id}, bonus: must be 0 or more.")
    if amount > MAX_BONUS:
        raise DomainError(f"Worker {worker.external_id}, bonus: at most {MAX_BONUS}.")
    if amount != amount.quantize(Decimal("0.01")):
        raise DomainError(
            f"Worker {worker.external_id}, bonus: at most two decimals (cents), got {value}."
        )
    return amount.quantize(Decimal("0.01"))


def _apply(worker: Worker, decision: Decision) -> list[str]:
    if decision.review not in Review.values:
        raise DomainError(
            f"Worker {worker.external_id}, decision: choose approved, rejected or nothing "
            f"(got '{decision.review}')."
        )
    changed = []
    if worker.review != decision.review:
        worker.review = decision.review
        changed.append("review")
    bonus = _bonus(decision.bonus, worker)
    if bonus is not None and worker.bonus != bonus:
        worker.bonus = bonus
        changed.append("bonus")
    return changed


@transaction.atomic
def workers_review_update(*, campaign: Campaign, decisions: Mapping[int, Decision]) -> int:
    """Several workers' decisions at once (the payment page's table), all or nothing.

    ``decisions`` maps worker ids of the campaign to their decision. Returns how many
    workers changed. An id outside the campaign is refused.
    """
    workers = {w.pk: w for w in campaign.workers.select_for_update().filter(pk__in=list(decisions))}
    unknown = sorted(set(decisions) - set(workers))
    if unknown:
        raise DomainError(f"No worker {unknown[0]} in this campaign.")
    n = 0
    for pk, decision in decisions.items():
        worker = workers[pk]
        changed = _apply(worker, decision)
        if changed:
            worker.save(update_fields=changed)
            n += 1
    return n


@transaction.atomic
def workers_review_accept_suggestions(*, campaign: Campaign, overwrite: bool = False) -> int:
    """Take the quality checks' suggestion as the decision of every worker who has one.

    Workers already decided keep their decision unless ``overwrite``; workers without a
    suggestion (no finished task) stay undecided. Returns how many workers changed.
    """
    list(campaign.workers.select_for_update().values_list("pk", flat=True))
    n = 0
    for row in payment_rows(campaign=campaign):
        worker = row.worker
        if row.suggestion == Review.UNDECIDED or worker.review == row.suggestion:
            continue
        if worker.review and not overwrite:
            continue
        worker.review = row.suggestion
        worker.save(update_fields=["review"])
        n += 1
    return n
