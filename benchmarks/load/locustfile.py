"""Simulated crowd workers for Locust (run headless by ``benchmarks/load``).

Each simulated user is a stream of Prolific participants: a new participant enters with
a unique ``PROLIFIC_PID``, consents, then fetches a task and submits valid scores in a
loop (with an optional think time) until the session is over, then the next participant
enters. Every request is recorded with its response time and, when the server is the
benchmark's WSGI wrapper, the query count and database time it reports in headers; the
records go to the JSON file named by ``LOAD_RESULTS`` when the run stops.

Environment: ``LOAD_SLUG`` (the campaign), ``LOAD_THINK`` (mean think time in seconds,
exponential; 0 for a closed loop), ``LOAD_RESULTS`` (where to write the records),
``LOAD_ARRIVALS`` (seconds: each simulated user's first participant arrives at its own
uniformly random moment within them, independently of the others, the way a crowd
arrives; unset, it arrives when Locust starts the user, and Locust starts its users in
batches of the spawn rate once a second).
"""

from __future__ import annotations

import json
import os
import random
import sys
import threading
import time
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

from locust import FastHttpUser, events, task

# Locust puts this file's folder on the path, not the repository's.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchmarks.load.pages import (
    ACTION,
    ASSIGNMENT,
    DONE,
    DRAFT_URL,
    IDENTITY,
    SCORE,
    STATIC,
    answers,
    draft_times,
    unescape,
)

SLUG = os.environ.get("LOAD_SLUG", "load")
THINK = float(os.environ.get("LOAD_THINK", "0"))
ARRIVALS = float(os.environ.get("LOAD_ARRIVALS", "0"))
# What a worker's browser sends besides the pages: the static files of a page it has not
# seen (once a participant: cached after), and while the worker thinks, the autosave
# drafts of the answers typed so far (``static/js/autosave.js``; only with a think time).
STATIC_FILES = os.environ.get("LOAD_STATIC", "1") == "1"
DRAFTS = os.environ.get("LOAD_DRAFTS", "1") == "1" and THINK > 0

RESULTS = os.environ.get("LOAD_RESULTS", "")

_lock = threading.Lock()
# name -> list of (response ms, queries, db ms, ok, seconds from the start to its end)
_records: dict[str, list[tuple[float, int, float, bool, float]]] = defaultdict(list)
_counts = {"submits_ok": 0, "sessions": 0, "started": 0.0}
# The assignments whose submit was acknowledged (the id in the form's action).
_acknowledged: list[int] = []


@events.request.add_listener
def _record(
    request_type: str,
    name: str,
    response_time: float,
    response_length: int,
    response: Any = None,
    exception: BaseException | None = None,
    **_: Any,
) -> None:
    queries, db_ms = -1, -1.0
    headers = getattr(response, "headers", None)
    if headers is not None:
        try:
            queries = int(headers.get("X-Queries", "-1"))
            db_ms = float(headers.get("X-DB-ms", "-1"))
        except (TypeError, ValueError):
            pass
    with _lock:
        _records[name].append(
            (response_time, queries, db_ms, exception is None, time.time() - _counts["started"])
        )


@events.test_start.add_listener
def _started(**_: Any) -> None:
    _counts["started"] = time.time()


@events.test_stop.add_listener
def _dump(**_: Any) -> None:
    if not RESULTS:
        return
    with _lock, open(RESULTS, "w", encoding="utf-8") as handle:
        json.dump(
            {
                "records": _records,
                "submits_ok": _counts["submits_ok"],
                "acknowledged": _acknowledged,
                "sessions": _counts["sessions"],
                "seconds": time.time() - _counts["started"],
            },
            handle,
        )


class CrowdWorker(FastHttpUser):
    """One participant after another, fetch -> submit in a loop."""

    session_url = ""
    cached: set[str]

    def on_start(self) -> None:
        if ARRIVALS > 0:
            time.sleep(random.uniform(0.0, ARRIVALS))  # Locust patches sleep: a gevent wait

    def wait_time(self) -> float:  # type: ignore[override]
        return 0.0  # the think time is spent on the task page, between fetch and submit

    def _static(self, page: str) -> None:
        """The page's static files this participant's browser has not loaded yet."""
        if not STATIC_FILES:
            return
        for url in dict.fromkeys(STATIC.findall(page)):
            if url not in self.cached:
                self.cached.add(url)
                self.client.get(unescape(url), name="static")

    def _think(self, page: str, scores: dict[str, str]) -> None:
        """The worker reads and answers for an exponential think time; the page autosaves
        what is typed (one change per answer field, at random moments)."""
        think = random.expovariate(1.0 / THINK)
        found = DRAFT_URL.search(page) if DRAFTS else None
        if found is None:
            time.sleep(think)
            return
        fields = list(scores.items())
        random.shuffle(fields)
        changes = sorted(random.uniform(0.0, think) for _ in fields)
        waited = 0.0
        for at, carried in draft_times(changes, think):
            time.sleep(max(0.0, at - waited))
            waited = at
            self.client.post(unescape(found.group(1)), data=dict(fields[:carried]), name="draft")
        time.sleep(max(0.0, think - waited))

    def _enter(self) -> bool:
        self.cached = set()
        pid = uuid.uuid4().hex[:24]
        with self.client.get(
            f"/w/{SLUG}/?PROLIFIC_PID={pid}&STUDY_ID=load&SESSION_ID={pid}",
            name="entry",
            catch_response=True,
        ) as page:
            found = IDENTITY.search(page.text or "")
            if page.status_code != 200 or found is None:
                page.failure(f"entry: {page.status_code}, no identity")
                return False
        identity = unescape(found.group(1) or found.group(2))
        self._static(page.text or "")
        with self.client.post(
            f"/w/{SLUG}/start/",
            data={"agree": "on", "identity": identity},
            name="consent",
            allow_redirects=False,
            catch_response=True,
        ) as consent:
            # No headers when the connection failed (counted as a failure below).
            location = (consent.headers or {}).get("Location", "")
            if consent.status_code not in (302, 303) or "/s/" not in location:
                consent.failure(f"consent: {consent.status_code}")
                return False
        self.session_url = location
        with _lock:
            _counts["sessions"] += 1
        return True

    @task
    def cycle(self) -> None:
        if not self.session_url and not self._enter():
            return
        with self.client.get(self.session_url, name="fetch", catch_response=True) as page:
            text = page.text or ""
            if page.status_code != 200:
                page.failure(f"fetch: {page.status_code}")
                self.session_url = ""
                return
            action = ACTION.search(text)
            if action is None:
                self.session_url = ""
                if DONE not in text:
                    # Screened out or stopped: the hand-out found nothing or refused.
                    page.failure("fetch: no task and not done")
                # Else the session is over (done page): the next participant comes in.
                return
        self._static(text)
        assignment = ASSIGNMENT.search(action.group(1))
        slots = sorted({int(s) for s in SCORE.findall(text)})
        scores = answers(text, slots)
        if THINK > 0:
            self._think(text, scores)
        with self.client.post(
            unescape(action.group(1)),
            data=scores,
            name="submit",
            allow_redirects=False,
            catch_response=True,
        ) as submitted:
            location = (submitted.headers or {}).get("Location", "")
            if (
                submitted.status_code not in (302, 303)
                or "already" in location
                or "unknown" in location
            ):
                submitted.failure(f"submit: {submitted.status_code} {location}")
                return
        with _lock:
            _counts["submits_ok"] += 1
            if assignment is not None:
                _acknowledged.append(int(assignment.group(1)))
