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
from annotations.services import assignment as assignment_services
from annotations.services import languages as language_services


def worker_returning(*, campaign: Campaign, arrival: platform_selectors.Arrival) -> Worker | None:
    """The worker the arrival's identity belongs to, if they consented before, else None.

    A returning MTurk worker may come with a new assignment: their stored metadata is
    updated to the latest link's.
    """
    known = platform_selectors.worker_known(campaign=campaign, arrival=arrival)
    metadata = arrival.metadata
    if (
        known is not None
        and metadata
        and any(known.metadata.get(k) != v for k, v in metadata.items())
    ):
        known = assignment_services.worker_get_or_create(
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
) -> Worker:
    """Create (or find) the campaign's worker with this identity and record consent.

    Idempotent: a second consent of the same identity (a double click, a second browser)
    returns the same worker, its metadata updated, its first consent time and language
    kept. A new worker judges in ``language`` if the campaign has it, else in the
    campaign's first language. Raises ``DomainError`` for a missing or overlong id and
    ``LanguageQuotaFull`` (nothing written) when that language admits no more workers.
    """
    tag = language_services.campaign_language_for(campaign=campaign, language=language)
    with language_services.language_quota_held(
        campaign=campaign, language=tag, platform=platform, external_id=external_id
    ):
        worker = assignment_services.worker_get_or_create(
            campaign=campaign,
            platform=platform,
            external_id=external_id,
            metadata=metadata,
            language=tag,
        )
        worker = assignment_services.worker_consent(worker=worker)
    return worker
