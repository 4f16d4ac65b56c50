"""Browser tests: real headless Chromium (Debian's, never downloaded) against live_server.

Playwright's sync API runs an event loop in the test thread; Django refuses database
access from a thread with a running loop unless told it is safe, which it is here.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[3] / "artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.skip(
            f"{CHROMIUM} is absent: install Debian's chromium (make browser) to run browser tests"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser, live_server) -> Iterator[Callable[..., object]]:
    """Make pages in fresh browser contexts (another browser: no shared cookies).

    ``new_page(java_script_enabled=False)`` is a browser without JavaScript. Nothing
    leaves the machine: every request to another host is aborted unless a test routes it
    itself (page routes run before context routes).
    """
    contexts: list[object] = []
    before = set(threading.enumerate())

    def make(*, java_script_enabled: bool = True, width: int = 1100, height: int = 900) -> object:
        context = browser.new_context(
            viewport={"width": width, "height": height}, java_script_enabled=java_script_enabled
        )
        context.route(
            re.compile(r"^https?://(?!127\.0\.0\.1|localhost)"), lambda route: route.abort()
        )
        contexts.append(context)
        made = context.new_page()
        made.set_default_timeout(10_000)
        return made

    yield make
    for context in contexts:
        context.close()  # type: ignore[attr-defined]
    live_server_idle(before)


#: How Python names the threads of Django's live server that each answer one connection
#: (``ThreadedWSGIServer.process_request_thread``).
REQUEST_THREAD = "(process_request_thread)"


def live_server_idle(before: set[threading.Thread], timeout: float = 15.0) -> None:
    """Wait until the threads the live server started for this test's requests have ended.

    On in-memory SQLite the live server's threads and the test share one connection, which
    two threads must never use at once (Django's LiveServerTestCase documentation): a
    request still running after its page closed (a second send of a double click, a
    script's last fetch) would otherwise meet the next test's writes or the flush that
    empties the database after this one ("database table is locked")."""
    deadline = time.monotonic() + timeout
    started = [t for t in set(threading.enumerate()) - before if t.name.endswith(REQUEST_THREAD)]
    for thread in started:
        # threading.enumerate() lists a thread from its start() on, before it runs, and
        # join() refuses a thread that has not begun: try again until it has.
        while True:
            try:
                thread.join(max(0.0, deadline - time.monotonic()))
                break
            except RuntimeError:
                if time.monotonic() >= deadline:
                    break
                time.sleep(0.005)
    left = [t.name for t in started if t.is_alive()]
    if left:
        logging.getLogger(__name__).warning("live server threads still running: %s", left)


@pytest.fixture
def page(new_page) -> object:
    return new_page()


def sign_in(page: object, base_url: str, username: str, password: str) -> None:
    """Sign in through the login page, as a person would."""
    page.goto(base_url + "/accounts/login/")  # type: ignore[attr-defined]
    page.get_by_label("Username").fill(username)  # type: ignore[attr-defined]
    page.get_by_label("Password").fill(password)  # type: ignore[attr-defined]
    page.get_by_role("button", name="Sign in").click()  # type: ignore[attr-defined]


def save_screenshot(page: object, name: str) -> Path:
    """A full-page screenshot in artifacts/screenshots/<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
    return path


@pytest.fixture
def screenshot(page) -> Callable[[str], Path]:
    def take(name: str) -> Path:
        return save_screenshot(page, name)

    return take


def settled_width(page: object, window: int) -> int:
    """The document's scroll width once the page has loaded.

    A link click returns when the new page commits, before its stylesheet applies; a
    width read then is the unstyled page's. Wait for the load event, then give layout up
    to three seconds to settle within ``window`` before reporting the width it has.
    """
    page.wait_for_load_state("load")  # type: ignore[attr-defined]
    deadline = time.monotonic() + 3
    while True:
        width = int(page.evaluate("document.documentElement.scrollWidth"))  # type: ignore[attr-defined]
        if width <= window or time.monotonic() > deadline:
            return width
        page.wait_for_timeout(100)  # type: ignore[attr-defined]


def wait_until(page: object, expression: str, arg: object = None, timeout: float = 10.0) -> None:
    """Wait until ``expression`` (a JavaScript function of ``arg``) is true in the page.

    Playwright's ``wait_for_function`` polls from a script that evaluates the predicate
    as a string, which the site's Content-Security-Policy (no ``unsafe-eval``) refuses in
    recent Chromium; ``evaluate`` goes through the DevTools protocol, which CSP does not
    govern. Polls every 50 ms; an AssertionError names the expression on timeout.
    """
    deadline = time.monotonic() + timeout
    while True:
        if page.evaluate(expression, arg):  # type: ignore[attr-defined]
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout:.0f} s: {expression}")
        page.wait_for_timeout(50)  # type: ignore[attr-defined]


@pytest.fixture
def owner():
    """The designer data's owner, signing in with the password ``owner-pass``."""
    from tests.annotations.designer_data import users

    person = users()["owner"]
    person.set_password("owner-pass")
    person.save()
    return person


def signed_in_owner(new_page, live_server, *, javascript: bool = True, width: int = 1280):
    """A page signed in as ``owner`` (the fixture above)."""
    page = new_page(java_script_enabled=javascript, width=width)
    page.set_default_timeout(30_000)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("owner")
    page.get_by_label("Password").fill("owner-pass")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state("load")
    return page


def page_of_new_owner(
    new_page, live_server, campaign, *, username: str, timeout: float = 60_000
) -> Any:
    """A page signed in as a new user ``username`` (password ``pw-<username>``) who owns
    ``campaign``."""
    from django.contrib.auth.models import User

    from annotations.models import CampaignMembership

    password = f"pw-{username}"
    owner = User.objects.create_user(username, password=password)
    CampaignMembership.objects.create(campaign=campaign, user=owner, role="owner")
    page = new_page(width=1280)
    page.set_default_timeout(timeout)
    sign_in(page, live_server.url, username, password)
    return page
