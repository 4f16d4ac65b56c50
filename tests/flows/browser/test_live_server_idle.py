"""The browser tests' teardown waits for the live server's requests still running
(tests/flows/browser/conftest.live_server_idle): on in-memory SQLite they share the test's
connection, and a request outliving its page once met the next test's writes in CI
("database table is locked")."""

from __future__ import annotations

import threading
import time
import urllib.request

import pytest
from django.contrib.auth import views

from tests.flows.browser.conftest import REQUEST_THREAD, live_server_idle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_request_still_running_is_waited_for(live_server, monkeypatch) -> None:
    finished: list[float] = []
    answer = views.LoginView.get

    def slow(self, request, *args, **kwargs):
        time.sleep(1.0)
        finished.append(time.monotonic())
        return answer(self, request, *args, **kwargs)

    monkeypatch.setattr(views.LoginView, "get", slow)
    before = set(threading.enumerate())
    statuses: list[int] = []
    client = threading.Thread(
        target=lambda: statuses.append(
            urllib.request.urlopen(live_server.url + "/accounts/login/", timeout=30).status
        )
    )
    client.start()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any(
        t.name.endswith(REQUEST_THREAD) for t in set(threading.enumerate()) - before
    ):
        time.sleep(0.01)
    assert not finished  # the request is still running ...
    live_server_idle(before)
    assert len(finished) == 1  # ... and had finished when the helper returned
    client.join(timeout=30)
    assert statuses == [200]
