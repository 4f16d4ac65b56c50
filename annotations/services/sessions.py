"""A worker's session, the writes: who they are (a platform and an id: Prolific, MTurk, a
plain link), their enrolment from an entry link, their consent, and when they were last
seen (what the links carry is read by ``selectors.platforms``).

A worker row exists only once the person has agreed to take part: link previewers and
crawlers that merely GET an entry link leave nothing behind. The entry page carries the
identity read from the link, signed, to the consent form; ``worker_enrol`` creates the
worker from it when consent is given.

A platform id is not a secret: a known worker is given only to a caller that shows the
request comes from them (``may_return``; ``worker_returning`` and ``worker_enrol`` ask
``selectors.platforms.arrival_continues``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from annotations.models import Campaign, Criterion, Worker
from annotations.selectors import platforms as platform_selectors
from annotations.services import languages as language_services
from common.errors import DomainError
from common.queries import PreparedInsert, prepared, prepared_update


class SessionElsewhere(DomainError):
    """A worker with this platform id exists, and the request does not show that it comes
    from them (their browser's session cookie or their platform session): a platform id is
    not a secret, so it alone never opens anyone's session."""


@prepared_update(worker_id=int, now=datetime)
def worker_seen(*, worker_id: int, now: datetime) -> tuple[QuerySet[Worker], dict[str, Any]]:
    """Stamp the worker's ``last_seen_at`` (prepared: every fetch and submit runs it). An
    ``UPDATE`` locks the row as ``FOR NO KEY UPDATE`` does."""
    return Worker.objects.filter(pk=worker_id), {"last_seen_at": now}


_worker_insert = PreparedInsert(Worker)


@prepared(campaign_id=int, criterion_id=int)
def _criterion_of_campaign(campaign_id: int, criterion_id: int) -> QuerySet[Criterion, int]:
    return Criterion.objects.filter(campaign_id=campaign_id, pk=criterion_id).values_list(
        "pk", flat=True
    )[:1]


@transaction.atomic(savepoint=False)
def worker_get_or_create(
    *,
    campaign: Campaign,
    platform: str,
    external_id: str,
    metadata: dict[str, Any] | None = None,
    language: str = "",
    criterion_id: int | None = None,
    may_return: Callable[[Worker], bool] | None = None,
    consent: bool = False,
) -> Worker:
    """The campaign's worker with this identity, created on first sight.

    ``metadata`` (e.g. Prolific study and session ids, MTurk HIT and assignment ids) is
    merged into what is stored; the latest values win. No IP address is stored. A new
    worker judges in ``language`` (checked by the caller) and, in set-up 2, the criterion
    ``criterion_id`` (one of the campaign's, chosen when they arrived:
    ``criteria_selectors.criterion_for_newcomer``); a known worker keeps theirs.
    ``consent``: a new worker is created as having consented now (``worker_enrol``).

    ``may_return``: when the worker already existed (also when created by a concurrent
    request a moment ago), whether this caller may have them; if not, ``SessionElsewhere``
    and nothing is written. Without it any caller gets the known worker (imports).

    Every arrival's consent runs it, so its statements are few and prepared: the criterion
    check, the worker's row, and for a new worker its insert inside a savepoint (the one a
    concurrent first request of the same worker needs, to read their row after losing).
    """
    external_id = external_id.strip()
    if not external_id or len(external_id) > 200:
        raise DomainError("The worker id is missing or too long.")
    worker = platform_selectors.worker_with_identity(
        campaign=campaign, platform=platform, external_id=external_id
    )
    created = False
    if worker is None:
        now = timezone.now()
        if criterion_id and not _criterion_of_campaign(
            campaign_id=campaign.pk, criterion_id=criterion_id
        ):
            criterion_id = None
        try:
            with transaction.atomic():
                worker = _worker_insert(
                    campaign=campaign,
                    platform=platform,
                    external_id=external_id,
                    metadata=metadata or {},
                    last_seen_at=now,
                    language=language,
                    criterion_id=criterion_id or None,
                    consented_at=now if consent else None,
                )
            created = True
        except IntegrityError:  # two first requests of one worker at once
            worker = Worker.objects.get(
                campaign=campaign, platform=platform, external_id=external_id
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


def worker_consent(*, worker: Worker) -> Worker:
    """Record that the worker agreed to the consent text (the first time only)."""
    if worker.consented_at is None:
        worker.consented_at = timezone.now()
        worker.save(update_fields=["consented_at"])
    return worker


def worker_returning(
    *,
    campaign: Campaign,
    arrival: platform_selectors.Arrival,
    session_worker_id: int | None = None,
) -> Worker | None:
    """The worker the arrival's identity belongs to, if they consented before, else None.

    A platform id is not a secret: the known worker is returned only when the arrival
    shows it is them (``platform_selectors.arrival_continues``: the browser's session
    cookie, ``session_worker_id``, or their platform session's ``SESSION_ID`` /
    ``assignmentId``); otherwise ``SessionElsewhere`` and nothing is written. Their stored
    platform metadata is brought up to the link's only when the link comes from their
    platform session (a cookie alone changes nothing stored: a cross-site page could
    send any link with the victim's cookie).
    """
    known = platform_selectors.worker_known(campaign=campaign, arrival=arrival)
    if known is None:
        return None
    if not platform_selectors.arrival_continues(
        worker=known, arrival=arrival, session_worker_id=session_worker_id
    ):
        raise SessionElsewhere(
            "This participant id already has a session; it continues only from the browser "
            "or the platform session it started in."
        )
    if known.consented_at is None:
        return None  # an id kept for its owner (services.workers): they consent first
    metadata = arrival.metadata
    if (
        metadata
        and platform_selectors.arrival_proves_platform_session(worker=known, arrival=arrival)
        and any(known.metadata.get(k) != v for k, v in metadata.items())
    ):
        known = worker_get_or_create(
            campaign=campaign,
            platform=arrival.platform,
            external_id=arrival.external_id,
            metadata=metadata,
        )
    return known


@transaction.atomic
def worker_enrol(
    *,
    campaign: Campaign,
    platform: str,
    external_id: str,
    metadata: dict[str, Any],
    language: str = "",
    criterion_id: int | None = None,
    session_worker_id: int | None = None,
) -> Worker:
    """Create (or find) the campaign's worker with this identity and record consent.

    Idempotent for the same person: a second consent of the same identity (a double
    click, a second browser of the same platform session) returns the same worker, its
    metadata updated, its first consent time and language kept. A worker who exists
    already is returned only to an arrival that continues their session
    (``platform_selectors.arrival_continues``, as in ``worker_returning``): someone else
    with their platform id (a consent page opened before the worker consented) gets
    ``SessionElsewhere`` and nothing is written. A new worker judges in ``language`` if
    the campaign has it, else in the campaign's first language, and the criterion
    ``criterion_id`` when given (set-up 2: the one their instructions explained). Raises ``DomainError``
    for a missing or overlong id and ``LanguageQuotaFull`` (nothing written) when that
    language admits no more workers.
    """
    arrival = platform_selectors.Arrival(platform, external_id.strip(), metadata)
    tag = language_services.campaign_language_for(campaign=campaign, language=language)
    with language_services.language_quota_held(
        campaign=campaign, language=tag, platform=platform, external_id=external_id
    ):
        worker = worker_get_or_create(
            campaign=campaign,
            platform=platform,
            external_id=external_id,
            metadata=metadata,
            language=tag,
            criterion_id=criterion_id,
            may_return=lambda known: platform_selectors.arrival_continues(
                worker=known, arrival=arrival, session_worker_id=session_worker_id
            ),
            consent=True,
        )
        if worker.consented_at is None and not worker.language:
            # An id kept for its owner: they judge in the language they arrived with.
            worker.language = tag
            if criterion_id and _criterion_of_campaign(
                campaign_id=campaign.pk, criterion_id=criterion_id
            ):
                worker.criterion_id = criterion_id
            worker.save(update_fields=["language", "criterion"])
        worker = worker_consent(worker=worker)
    return worker
