"""A worker's session: who they are (a platform and an id: Prolific, MTurk, a plain
link), their consent, and when they were last seen.

A platform id is not a secret: a known worker is given only to a caller that shows the
request comes from them (``may_return``; ``services.platforms`` enrols from entry links).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from annotations.models import Campaign, Worker
from common.errors import DomainError
from common.queries import prepared_update


class SessionElsewhere(DomainError):
    """A worker with this platform id exists, and the request does not show that it comes
    from them (their browser's session cookie or their platform session): a platform id is
    not a secret, so it alone never opens anyone's session."""


@prepared_update(worker_id=int, now=datetime)
def worker_seen(*, worker_id: int, now: datetime) -> tuple[QuerySet[Worker], dict[str, Any]]:
    """Stamp the worker's ``last_seen_at`` (prepared: every fetch and submit runs it). An
    ``UPDATE`` locks the row as ``FOR NO KEY UPDATE`` does."""
    return Worker.objects.filter(pk=worker_id), {"last_seen_at": now}


@transaction.atomic
def worker_get_or_create(
    *,
    campaign: Campaign,
    platform: str,
    external_id: str,
    metadata: dict[str, Any] | None = None,
    language: str = "",
    criterion_id: int | None = None,
    may_return: Callable[[Worker], bool] | None = None,
) -> Worker:
    """The campaign's worker with this identity, created on first sight.

    ``metadata`` (e.g. Prolific study and session ids, MTurk HIT and assignment ids) is
    merged into what is stored; the latest values win. No IP address is stored. A new
    worker judges in ``language`` (checked by the caller) and, in set-up 2, the criterion
    ``criterion_id`` (one of the campaign's, chosen when they arrived:
    ``criteria_selectors.criterion_for_newcomer``); a known worker keeps theirs.

    ``may_return``: when the worker already existed (also when created by a concurrent
    request a moment ago), whether this caller may have them; if not, ``SessionElsewhere``
    and nothing is written. Without it any caller gets the known worker (imports).
    """
    external_id = external_id.strip()
    if not external_id or len(external_id) > 200:
        raise DomainError("The worker id is missing or too long.")
    try:
        with transaction.atomic():
            worker, created = Worker.objects.get_or_create(
                campaign=campaign,
                platform=platform,
                external_id=external_id,
                defaults={
                    "metadata": metadata or {},
                    "last_seen_at": timezone.now(),
                    "language": language,
                    "criterion_id": (
                        criterion_id
                        if criterion_id and campaign.criteria.filter(pk=criterion_id).exists()
                        else None
                    ),
                },
            )
    except IntegrityError:  # two first requests of one worker at once
        worker, created = (
            Worker.objects.get(campaign=campaign, platform=platform, external_id=external_id),
            False,
        )
    if not created and may_return is not None and not may_return(worker):
        raise SessionElsewhere(
            "This participant id already has a session; it continues only from the browser "
            "or the platform session it started in."
        )
    if not created and metadata and any(worker.metadata.get(k) != v for k, v in metadata.items()):
        worker.metadata = {**worker.metadata, **metadata}
        worker.save(update_fields=["metadata"])
    return worker


@transaction.atomic
def worker_consent(*, worker: Worker) -> Worker:
    """Record that the worker agreed to the consent text (the first time only)."""
    if worker.consented_at is None:
        worker.consented_at = timezone.now()
        worker.save(update_fields=["consented_at"])
    return worker
