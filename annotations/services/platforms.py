"""Crowd platforms (Prolific, MTurk, plain links), the writes: enrolling the worker an
entry link brought (what the links carry is read by ``selectors.platforms``).

A worker row exists only once the person has agreed to take part: link previewers and
crawlers that merely GET an entry link leave nothing behind. The entry page carries the
identity read from the link, signed, to the consent form; ``worker_enrol`` creates the
worker from it when consent is given.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from annotations.models import Campaign, Worker
from annotations.selectors import platforms as platform_selectors
from annotations.services import languages as language_services
from annotations.services import sessions as session_services


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
        raise session_services.SessionElsewhere(
            "This participant id already has a session; it continues only from the browser "
            "or the platform session it started in."
        )
    metadata = arrival.metadata
    if (
        metadata
        and platform_selectors.arrival_proves_platform_session(worker=known, arrival=arrival)
        and any(known.metadata.get(k) != v for k, v in metadata.items())
    ):
        known = session_services.worker_get_or_create(
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
        worker = session_services.worker_get_or_create(
            campaign=campaign,
            platform=platform,
            external_id=external_id,
            metadata=metadata,
            language=tag,
            criterion_id=criterion_id,
            may_return=lambda known: platform_selectors.arrival_continues(
                worker=known, arrival=arrival, session_worker_id=session_worker_id
            ),
        )
        worker = session_services.worker_consent(worker=worker)
    return worker
