"""The MTurk flow inside a third-party iframe, with third-party cookies blocked.

A page served from another site (``127.0.0.1`` on another port; the live server is
``localhost``: two different sites) frames the worker's entry link, as MTurk's
ExternalQuestion does. Chromium is told to block third-party cookies. The worker
consents, does the task and submits the HIT, all inside the frame: the judgement is in
the database, the HIT form posts to ``turkSubmitTo``, no cookie was ever stored for the
framed site, and no CSP violation was reported.
"""

from __future__ import annotations

import http.server
import re
import threading
from collections.abc import Iterator
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

from annotations.models import Campaign, Judgement, Worker
from tests.factories import CampaignFactory, CriterionFactory, task_with_outputs
from tests.flows.browser.conftest import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def other_site(live_server) -> Iterator[dict[str, str]]:
    """A tiny HTTP server on 127.0.0.1 serving one page with an iframe (``frame_src``)."""
    served: dict[str, str] = {"frame_src": ""}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = (
                "<!doctype html><title>HIT</title><h1>A HIT on another site</h1>"
                f'<iframe src="{served["frame_src"]}" width="1000" height="1400"></iframe>'
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    served["origin"] = f"http://127.0.0.1:{server.server_address[1]}"
    yield served
    server.shutdown()
    server.server_close()


def test_mturk_worker_completes_a_task_inside_a_cross_site_iframe_without_cookies(
    new_page, live_server, other_site, settings
):
    assert "localhost" in live_server.url  # the framed site differs from the framing one
    settings.WORKER_FRAME_ANCESTORS = [other_site["origin"]]
    campaign = CampaignFactory(
        slug="framed",
        name="Rate restaurant descriptions",
        status=Campaign.Status.LIVE,
        tasks_per_worker=1,
        accept_mturk=True,
        completion_code="FRAMED1",
        attention_check_rate=0,
        repeat_rate=0,
    )
    criterion = CriterionFactory(campaign=campaign)
    task_with_outputs(campaign=campaign, criterion=criterion)
    other_site["frame_src"] = (
        f"{live_server.url}/w/{campaign.slug}/?workerId=AW1&assignmentId=ASG1&hitId=HIT1"
        "&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com"
    )

    page = new_page(height=1500)
    # Generous waits: in CI's PostgreSQL leg a live Celery worker and the worker-loss
    # tests share the 2 cores, and a submit once took over the 10 s default.
    page.set_default_timeout(60_000)
    context = page.context
    cdp = context.new_cdp_session(page)
    cdp.send(
        "Network.setCookieControls",
        {
            "enableThirdPartyCookieRestriction": True,
            "disableThirdPartyCookieMetadata": True,
            "disableThirdPartyCookieHeuristics": True,
        },
    )
    problems: list[str] = []
    page.on(
        "console",
        lambda m: (
            problems.append(m.text)
            if m.type == "error" or "Content Security Policy" in m.text
            else None
        ),
    )
    posted: dict[str, list[str]] = {}

    def mturk(route, request) -> None:  # type: ignore[no-untyped-def]
        posted.update(parse_qs(request.post_data or ""))
        route.fulfill(status=200, content_type="text/html", body="<h1>HIT submitted</h1>")

    page.route(re.compile(r"^https://workersandbox\.mturk\.com/mturk/externalSubmit"), mturk)

    page.goto(other_site["origin"] + "/")
    frame = page.frame_locator("iframe")
    # Consent inside the frame (the page loaded: framing allowed for this origin).
    frame.get_by_role("heading", name="Rate restaurant descriptions").wait_for()
    assert Worker.objects.count() == 0  # showing the page recorded nothing
    inner = next(f for f in page.frames if f.url.startswith(live_server.url))
    assert inner.evaluate("document.hasStorageAccess()") is False  # cookies blocked
    page.screenshot(path=str(SCREENSHOTS / "iframe-01-consent.png"), full_page=True)
    frame.get_by_label("I have read the information above").check()
    frame.get_by_role("button", name="Start").click()

    # The task, inside the frame; answers posted without any cookie.
    frame.get_by_text("Task 1 of 1").wait_for()
    # Type only once the whole task page is parsed and its script has run (it shows the
    # ranking box): the header can be on screen before the outputs are (a CI run counted
    # no outputs yet, typed nothing and submitted an empty form).
    frame.locator("[data-ranking]").wait_for()
    outputs = frame.locator(".w-output")
    expect(outputs).to_have_count(3)
    for i in range(3):
        outputs.nth(i).locator("input[data-score]").fill(str([150, 100, 40][i % 3]))
    expect(frame.locator("[data-ranking-list] li")).to_have_text(
        ["Output A", "Output B", "Output C"]
    )
    page.screenshot(path=str(SCREENSHOTS / "iframe-02-task.png"), full_page=True)
    frame.get_by_role("button", name="Submit and continue").click()

    frame.get_by_role("heading", name="Thank you, you are done").wait_for()
    worker = Worker.objects.get()
    assert (worker.platform, worker.external_id) == ("mturk", "AW1")
    assert worker.metadata["assignment_id"] == "ASG1"
    assert Judgement.objects.filter(worker=worker).count() == 1
    page.screenshot(path=str(SCREENSHOTS / "iframe-03-done.png"), full_page=True)

    # Submitting the HIT posts the assignment and the code to turkSubmitTo.
    frame.get_by_role("button", name="Submit the HIT").click()
    frame.get_by_role("heading", name="HIT submitted").wait_for()
    assert posted == {"assignmentId": ["ASG1"], "completionCode": ["FRAMED1"]}

    assert [c for c in context.cookies() if c["domain"] == "localhost"] == []
    assert problems == []


def test_other_sites_cannot_frame_worker_pages_nor_any_other_page(
    new_page, live_server, other_site, settings
):
    """Only the configured origins may frame: here the setting names another origin."""
    settings.WORKER_FRAME_ANCESTORS = ["https://www.mturk.com"]
    campaign = CampaignFactory(slug="framed-no", status=Campaign.Status.LIVE, accept_mturk=True)
    task_with_outputs(campaign=campaign, criterion=CriterionFactory(campaign=campaign))
    page = new_page()
    page.set_default_timeout(60_000)
    for src in (
        f"{live_server.url}/w/{campaign.slug}/?workerId=AW2&assignmentId=A2",
        live_server.url + "/accounts/login/",
    ):
        other_site["frame_src"] = src
        page.goto(other_site["origin"] + "/")
        # A refused frame never gets the page's document: Chromium shows its own error
        # page in the frame instead, and nothing of the site (no form) is there.
        (child,) = page.main_frame.child_frames
        child.wait_for_load_state()
        assert child.url.startswith("chrome-error://"), child.url
        assert child.locator("form").count() == 0
    assert Worker.objects.count() == 0
