"""The load benchmark's crowd worker (benchmarks/load/pages.py, read by locustfile.py) answers as a worker
does: its submits are accepted, content checks included, so the benchmark measures real
submits and not refusals."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from benchmarks.load.__main__ import build_campaign
from benchmarks.load.pages import ACTION, IDENTITY, SCORE, answers, unescape

pytestmark = pytest.mark.django_db


def test_the_load_client_answers_every_task_page_so_that_the_submit_is_accepted():
    campaign = build_campaign(slug="load", items=6, systems=7, synthetic=True)
    assert any(c.content_checks for c in campaign.criteria.all())  # what it must tick
    client, pid = Client(), uuid.uuid4().hex[:24]
    entry = client.get(f"/w/load/?PROLIFIC_PID={pid}&STUDY_ID=load&SESSION_ID={pid}")
    found = IDENTITY.search(entry.content.decode())
    assert found is not None
    identity = unescape(found.group(1) or found.group(2))
    session = client.post("/w/load/start/", {"agree": "on", "identity": identity})["Location"]
    for _ in range(4):
        page = client.get(session).content.decode()
        action = ACTION.search(page)
        assert action is not None
        slots = sorted({int(s) for s in SCORE.findall(page)})
        submitted = client.post(unescape(action.group(1)), answers(page, slots))
        assert submitted.status_code in (302, 303), submitted.content.decode()[:500]
        assert "already" not in submitted["Location"]


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
