"""Crowd platforms (Prolific, MTurk, plain links), the reads: what their links carry, the
links a researcher pastes into them, and the way back to them at the end.

A crowd platform has no writes of its own: the worker a link brings is enrolled by
``services.sessions`` (``worker_returning``, ``worker_enrol``). Both the worker pages and
the designer's campaign page use what is here.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlencode, urlsplit

from django.db.models import QuerySet
from django.urls import reverse
from django.utils.crypto import constant_time_compare

from annotations.models import Campaign, Worker
from common.queries import prepared

PROLIFIC_COMPLETE = "https://app.prolific.com/submissions/complete"
# The assignmentId MTurk sends while a worker only previews a HIT.
MTURK_NOT_ACCEPTED = "ASSIGNMENT_ID_NOT_AVAILABLE"
MTURK_SUBMIT_HOSTS = {"www.mturk.com", "workersandbox.mturk.com"}
# Identity parameters the platforms fill in; a placeholder left in any of them is refused.
PLATFORM_PARAMETERS = (
    "PROLIFIC_PID",
    "STUDY_ID",
    "SESSION_ID",
    "workerId",
    "assignmentId",
    "hitId",
)
PROLIFIC_QUERY = (
    "?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}"
)

# What a platform's placeholder looks like when the researcher pasted a link without the
# platform filling it in: Prolific's {{%PROLIFIC_PID%}} or %PROLIFIC_PID%, MTurk-style
# ${workerId}, template-style {{workerId}} or <workerId>. Real ids (Prolific's 24 hex
# digits, MTurk's upper-case letters and digits) never contain these characters.
_PLACEHOLDER = re.compile(r"[{}%$<>\[\]]")


def is_unexpanded_placeholder(value: str) -> bool:
    """Whether ``value`` is a platform placeholder that was never filled in."""
    return bool(_PLACEHOLDER.search(value))


@dataclass(frozen=True)
class Arrival:
    """Who a worker entering through a link is: platform, id on it, and what else it sent."""

    platform: str
    external_id: str
    metadata: dict[str, Any] = field(default_factory=dict)


# Why an entry link is not an arrival: a placeholder never filled in, an MTurk HIT only
# previewed, or a link the campaign does not take (or without a usable id).
Refusal = Literal["placeholder", "mturk-preview", "bad-link"]


def arrival_from(
    *, campaign: Campaign, params: Mapping[str, str], link_worker_id: str = ""
) -> Arrival | Refusal:
    """Read the worker's identity from the entry link's query ``params``.

    ``link_worker_id`` is the id a plain-link worker's browser already holds (its signed
    cookie); a new plain-link worker gets a fresh random id, stored only on consent.
    """
    supplied = {name: params[name] for name in PLATFORM_PARAMETERS if params.get(name)}
    if any(is_unexpanded_placeholder(v) for v in supplied.values()):
        # The researcher pasted the link template itself (e.g. ?PROLIFIC_PID={{%PROLIFIC_PID%}})
        # instead of letting the platform fill in the worker's id.
        return "placeholder"
    if params.get("assignmentId") != MTURK_NOT_ACCEPTED and any(
        name in params and not params[name].strip() for name in ("PROLIFIC_PID", "workerId")
    ):
        # The platform sent the worker's id empty (a study link set up without it): not
        # a plain-link worker, whose work would then be paid to nobody on the platform.
        return "bad-link"
    if params.get("PROLIFIC_PID") and campaign.accept_prolific:
        arrival = Arrival(
            Worker.Platform.PROLIFIC,
            params["PROLIFIC_PID"],
            {"study_id": params.get("STUDY_ID", ""), "session_id": params.get("SESSION_ID", "")},
        )
    elif (params.get("workerId") or params.get("assignmentId")) and campaign.accept_mturk:
        if params.get("assignmentId") == MTURK_NOT_ACCEPTED or not params.get("workerId"):
            return "mturk-preview"
        arrival = Arrival(
            Worker.Platform.MTURK,
            params["workerId"],
            {
                "assignment_id": params.get("assignmentId", ""),
                "hit_id": params.get("hitId", ""),
                "turk_submit_to": params.get("turkSubmitTo", ""),
            },
        )
    elif campaign.accept_link and not any(
        params.get(name) for name in ("PROLIFIC_PID", "workerId", "assignmentId")
    ):
        # Only a plain link: a Prolific or MTurk link into a campaign that does not take
        # that platform must not silently become an anonymous worker (nor record an MTurk
        # preview).
        arrival = Arrival(Worker.Platform.LINK, link_worker_id or uuid.uuid4().hex)
    else:
        return "bad-link"
    external_id = arrival.external_id.strip()
    if not external_id or len(external_id) > 200:
        return "bad-link"
    return Arrival(arrival.platform, external_id, arrival.metadata)


@prepared(campaign_id=int, platform=str, external_id=str)
def _worker_with_identity(campaign_id: int, platform: str, external_id: str) -> QuerySet[Worker]:
    return Worker.objects.filter(
        campaign_id=campaign_id, platform=platform, external_id=external_id
    ).order_by()[:1]


def worker_with_identity(*, campaign: Campaign, platform: str, external_id: str) -> Worker | None:
    """The campaign's worker with this platform and id (unique together), if any: every
    arrival and consent reads it (prepared)."""
    return next(
        iter(
            _worker_with_identity(
                campaign_id=campaign.pk, platform=platform, external_id=external_id
            )
        ),
        None,
    )


def worker_known(*, campaign: Campaign, arrival: Arrival) -> Worker | None:
    """The campaign's worker with the arrival's identity, if they consented before."""
    return worker_with_identity(
        campaign=campaign, platform=arrival.platform, external_id=arrival.external_id
    )


# What only the worker's own platform session holds: the platform sends it with every
# link it opens for them, and it differs from one worker to the next. Platform ids
# (PROLIFIC_PID, workerId) are not secrets: researchers, other studies and the worker's
# screen all show them.
PLATFORM_SECRET = {"prolific": "session_id", "mturk": "assignment_id"}


def arrival_proves_platform_session(*, worker: Worker, arrival: Arrival) -> bool:
    """Whether the arrival comes from the worker's own platform session: Prolific's
    ``SESSION_ID`` or MTurk's ``assignmentId`` equal to the one stored at consent (never
    when none was stored)."""
    key = PLATFORM_SECRET.get(str(worker.platform))
    if key is None or arrival.platform != worker.platform:
        return False
    stored, sent = str(worker.metadata.get(key) or ""), str(arrival.metadata.get(key) or "")
    return bool(stored) and constant_time_compare(stored, sent)


def arrival_continues(*, worker: Worker, arrival: Arrival, session_worker_id: int | None) -> bool:
    """Whether the arrival may continue ``worker``'s session (no query).

    Yes when the browser holds that worker's signed session cookie (``session_worker_id``,
    set at consent), when the arrival is a plain-link worker (their id is the browser's
    own signed cookie, a random secret), or when it comes from the worker's platform
    session (:func:`arrival_proves_platform_session`). Someone who merely knows the
    worker's platform id gets none of these.
    """
    if session_worker_id is not None and session_worker_id == worker.pk:
        return True
    if worker.platform == Worker.Platform.LINK and arrival.platform == Worker.Platform.LINK:
        return True
    return arrival_proves_platform_session(worker=worker, arrival=arrival)


def entry_path(*, campaign: Campaign) -> str:
    """The campaign's entry link (``/w/<slug>/``), as a path; every platform starts there."""
    return reverse("annotations:worker-entry", args=[campaign.slug])


def entry_links(*, campaign: Campaign, entry_url: str) -> list[dict[str, str]]:
    """The entry link for each platform the campaign takes, ready to paste into it.

    ``entry_url`` is :func:`entry_path` made absolute (the page knows the host).
    """
    links = []
    if campaign.accept_prolific:
        links.append(
            {
                "platform": "Prolific",
                "url": entry_url + PROLIFIC_QUERY,
                "note": "Paste as the study URL; Prolific fills in the IDs.",
            }
        )
    if campaign.accept_mturk:
        links.append(
            {
                "platform": "MTurk (ExternalQuestion)",
                "url": entry_url,
                "note": (
                    "Use as the ExternalURL of an ExternalQuestion HIT; MTurk appends "
                    "assignmentId, hitId, workerId and turkSubmitTo."
                ),
                "xml": (
                    '<ExternalQuestion xmlns="http://mechanicalturk.amazonaws.com/'
                    'AWSMechanicalTurkDataSchemas/2006-07-14/ExternalQuestion.xsd">'
                    f"<ExternalURL>{entry_url}</ExternalURL><FrameHeight>0</FrameHeight>"
                    "</ExternalQuestion>"
                ),
            }
        )
    if campaign.accept_link:
        links.append(
            {
                "platform": "Plain link",
                "url": entry_url,
                "note": "Anyone with the link may take part.",
            }
        )
    return links


def mturk_submit_url(turk_submit_to: str) -> str:
    """Where the final page posts an MTurk assignment: ``turkSubmitTo``'s host if it is
    MTurk's (live or sandbox), never anywhere else."""
    parts = urlsplit(turk_submit_to or "")
    host = (
        parts.hostname if parts.scheme == "https" and parts.hostname in MTURK_SUBMIT_HOSTS else None
    )
    return f"https://{host or 'www.mturk.com'}/mturk/externalSubmit"


def prolific_completion_url(code: str) -> str:
    """Prolific's completion page for ``code`` (the worker's submission is then complete)."""
    return f"{PROLIFIC_COMPLETE}?{urlencode({'cc': code})}"
