"""Workers: an organizer's marks on them (flagged for review, excluded from rankings).

The quality checks flag workers on their own (``services.quality``); the payment
decision is ``services.payments``'.
"""

from __future__ import annotations

from django.db import transaction

from annotations.models import Worker
from common.errors import DomainError


@transaction.atomic
def worker_mark(
    *,
    worker: Worker,
    flagged: bool | None = None,
    excluded: bool | None = None,
    reason: str | None = None,
) -> Worker:
    """Flag a worker for review and/or exclude them from rankings.

    Their judgements stay stored; rankings run with ``exclude_flagged`` leave out
    excluded workers. ``reason`` is kept with an exclusion (``Worker.exclusion_reason``)
    and cleared when the worker is included again.
    """
    fields = []
    if flagged is not None and worker.flagged != flagged:
        worker.flagged = flagged
        fields.append("flagged")
    if excluded is not None and worker.excluded != excluded:
        worker.excluded = excluded
        fields.append("excluded")
    wanted = (reason or "").strip() if worker.excluded else ""
    if (excluded is not None or reason is not None) and worker.exclusion_reason != wanted:
        worker.exclusion_reason = wanted
        fields.append("exclusion_reason")
    if fields:
        worker.save(update_fields=fields)
    return worker


def worker_exclude(*, worker: Worker, reason: str) -> Worker:
    """Exclude a worker from rankings, saying why (the reason is required and kept)."""
    if not reason.strip():
        raise DomainError("Say why this worker is excluded (e.g. 'failed 3 of 4 checks').")
    if len(reason) > 500:
        raise DomainError("Keep the reason under 500 characters.")
    return worker_mark(worker=worker, excluded=True, reason=reason)


def worker_include(*, worker: Worker) -> Worker:
    """Undo an exclusion: the worker's judgements count again; the reason is cleared."""
    return worker_mark(worker=worker, excluded=False)
