"""Crowd platforms (Prolific, MTurk, plain links): who a worker is, and enrolment.

A worker row exists only once the person has agreed to take part: link previewers and
crawlers that merely GET an entry link leave nothing behind. The entry page carries the
identity read from the link, signed, to the consent form; ``worker_enrol`` creates the
worker from it when consent is given.
"""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction

from annotations.models import Campaign, Worker
from annotations.services import assignment as assignment_services

# What a platform's placeholder looks like when the researcher pasted a link without the
# platform filling it in: Prolific's {{%PROLIFIC_PID%}} or %PROLIFIC_PID%, MTurk-style
# ${workerId}, template-style {{workerId}} or <workerId>. Real ids (Prolific's 24 hex
# digits, MTurk's upper-case letters and digits) never contain these characters.
_PLACEHOLDER = re.compile(r"[{}%$<>\[\]]")


def is_unexpanded_placeholder(value: str) -> bool:
    """Whether ``value`` is a platform placeholder that was never filled in."""
    return bool(_PLACEHOLDER.search(value))


@transaction.atomic
def worker_enrol(
    *, campaign: Campaign, platform: str, external_id: str, metadata: dict[str, Any]
) -> Worker:
    """Create (or find) the campaign's worker with this identity and record consent.

    Idempotent: a second consent of the same identity (a double click, a second browser)
    returns the same worker, its metadata updated, its first consent time kept. Raises
    ``DomainError`` for a missing or overlong id.
    """
    worker = assignment_services.worker_get_or_create(
        campaign=campaign, platform=platform, external_id=external_id, metadata=metadata
    )
    return assignment_services.worker_consent(worker=worker)
