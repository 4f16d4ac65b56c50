"""The load benchmark's crowd worker (benchmarks/load/pages.py, read by locustfile.py) answers as a worker
does: its submits are accepted, content checks included, so the benchmark measures real
submits and not refusals."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client

from benchmarks.load.__main__ import _percentile, _started, _times, build_campaign, integrity
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

pytestmark = pytest.mark.django_db


def _entered(client: Client, slug: str) -> str:
    """A new Prolific participant's session address, entered and consented as the load
    client does."""
    pid = uuid.uuid4().hex[:24]
    entry = client.get(f"/w/{slug}/?PROLIFIC_PID={pid}&STUDY_ID=load&SESSION_ID={pid}")
    found = IDENTITY.search(entry.content.decode())
    assert found is not None
    identity = unescape(found.group(1) or found.group(2))
    return str(client.post(f"/w/{slug}/start/", {"agree": "on", "identity": identity})["Location"])


def test_the_load_client_answers_every_task_page_so_that_the_submit_is_accepted():
    campaign = build_campaign(slug="load", items=6, systems=7, synthetic=True)
    assert any(c.content_checks for c in campaign.criteria.all())  # what it must tick
    client = Client()
    session = _entered(client, "load")
    acknowledged: list[int] = []
    for _ in range(4):
        page = client.get(session).content.decode()
        action = ACTION.search(page)
        assert action is not None
        slots = sorted({int(s) for s in SCORE.findall(page)})
        # What the browser sends besides: the static files, an autosave draft.
        assert {"/static/js/autosave.js", "/static/css/humaneval.css"} <= {
            u for u in _unhashed(STATIC.findall(page))
        }
        draft = DRAFT_URL.search(page)
        assert draft is not None
        given = answers(page, slots)
        assert (
            client.post(unescape(draft.group(1)), dict(list(given.items())[:2])).status_code == 204
        )
        submitted = client.post(unescape(action.group(1)), given)
        assert submitted.status_code in (302, 303), submitted.content.decode()[:500]
        assert "already" not in submitted["Location"]
        found_id = ASSIGNMENT.search(action.group(1))
        assert found_id is not None
        acknowledged.append(int(found_id.group(1)))
    # Judgements and acknowledged submits compared assignment by assignment: a lost one
    # and an unacknowledged one do not cancel out.
    assert integrity(campaign, acknowledged)["lost"] == 0
    assert integrity(campaign, acknowledged)["unacknowledged"] == 0
    shifted = integrity(campaign, [*acknowledged[1:], 10**9])
    assert (shifted["lost"], shifted["unacknowledged"], shifted["judgements"]) == (1, 1, 4)


def _unhashed(urls: list[str]) -> set[str]:
    """Static addresses without the manifest's hash (``humaneval.1a2b3c.css``)."""
    return {re.sub(r"\.[0-9a-f]{12}\.", ".", u) for u in urls}


def test_the_last_page_of_a_finished_session_is_known_as_done():
    campaign = build_campaign(slug="load-done", items=6, systems=7, synthetic=True)
    campaign.tasks_per_worker = 1
    campaign.save(update_fields=["tasks_per_worker"])
    client = Client()
    session = _entered(client, "load-done")
    page = client.get(session).content.decode()
    action = ACTION.search(page)
    assert action is not None and DONE not in page
    slots = sorted({int(s) for s in SCORE.findall(page)})
    client.post(unescape(action.group(1)), answers(page, slots))
    done = client.get(session).content.decode()
    assert ACTION.search(done) is None and DONE in done


@pytest.mark.parametrize(
    ("changes", "think", "sent"),
    [
        # The first change sets a save 15 s later; later changes ride along.
        ([1.0, 2.0, 2.5], 20.0, [(16.0, 3)]),
        # A change after that save sets the next one 15 s after it.
        ([1.0, 17.0, 20.0, 40.0], 60.0, [(16.0, 1), (32.0, 3), (55.0, 4)]),
        # A save not due by the submit is never sent (the submit carries the answers).
        ([1.0, 1.5], 10.0, []),
        ([1.0, 17.0], 20.0, [(16.0, 1)]),
        ([], 5.0, []),
    ],
)
def test_drafts_are_sent_when_the_autosave_script_sends_them(changes, think, sent):
    got = draft_times(changes, think)
    assert [(round(t, 6), n) for t, n in got] == sent


def test_percentiles_are_nearest_rank_and_a_failure_never_answered():
    values = [float(v) for v in range(1, 21)]  # 20 values: p95 is the 19th
    assert _percentile(values, 95) == 19.0
    assert _percentile(values, 50) == 10.0
    assert _percentile([5.0] * 220 + [9.0] * 12, 95) == 9.0  # rank 221 of 232 (220.4 up)
    records = [[10.0, 0, 0, True, 1.0], [20.0, 0, 0, False, 2.0]]
    assert _times(records) == [10.0, float("inf")]
    assert _started(records[1]) == pytest.approx(1.98)


def test_the_machine_and_process_cpu_readings_count_work_done():
    """What the report splits the machine's cores by: all cores busy / total since boot,
    and one process's CPU (the gunicorn worker of ``--per-request``), both growing with
    work this process does."""
    import os
    import time

    from benchmarks.load.__main__ import machine_cpu_seconds, server_cpu_seconds_of

    busy, total = machine_cpu_seconds()
    mine = server_cpu_seconds_of(os.getpid())
    deadline = time.process_time() + 0.3
    while time.process_time() < deadline:
        pass
    busy_after, total_after = machine_cpu_seconds()
    assert 0 < busy <= total and busy_after - busy >= 0.2 and total_after > total
    assert server_cpu_seconds_of(os.getpid()) - mine >= 0.25


@pytest.mark.django_db
def test_postgresql_cpu_reading_counts_a_query_it_ran():
    """``--per-request`` adds PostgreSQL's CPU per request kind, read from its processes."""
    from django.db import connection

    from benchmarks.load.__main__ import postgres_cpu_seconds

    if connection.vendor != "postgresql" or postgres_cpu_seconds() == 0:
        pytest.skip("PostgreSQL does not run on this machine")
    before = postgres_cpu_seconds()
    with connection.cursor() as cursor:
        cursor.execute("SELECT sum(g::bigint * g) FROM generate_series(1, 3000000) AS g")
    assert postgres_cpu_seconds() - before >= 0.05
