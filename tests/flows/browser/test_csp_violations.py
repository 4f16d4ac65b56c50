"""Real Chromium reports no Content-Security-Policy violation on the main pages, and each
id is on a page once, after the panels htmx loads into it have arrived.

Each page is loaded and used a little (htmx, the worker script, Swagger UI draws the API,
the admin's scripts run); every console error and every ``securitypolicyviolation``
event is recorded, and there must be none.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from annotations.access.workers import worker_token
from annotations.models import Campaign
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory, task_with_outputs
from tests.flows.browser.conftest import save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Records violations the console might not print (e.g. of a style attribute).
WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push(e.violatedDirective + " " + e.blockedURI);
});
"""


# The ids on the page that more than one element has.
REPEATED_IDS = """() => {
  const seen = new Set(), repeated = new Set();
  for (const el of document.querySelectorAll("[id]")) {
    if (seen.has(el.id)) repeated.add(el.id);
    seen.add(el.id);
  }
  return [...repeated];
}"""


def test_main_pages_load_without_csp_violations_or_repeated_ids(new_page, live_server):
    owner = get_user_model().objects.create_user(
        "owner", password="pw-123456", is_staff=True, is_superuser=True
    )
    campaign = CampaignFactory(
        slug="csp", status=Campaign.Status.LIVE, owner=owner, tasks_per_worker=2
    )
    criterion = CriterionFactory(campaign=campaign)
    for _ in range(3):
        task_with_outputs(campaign=campaign, criterion=criterion)
    worker = WorkerFactory(campaign=campaign, consented_at=timezone.now())

    page = new_page()
    page.add_init_script(WATCH)
    errors: list[str] = []
    page.on(
        "console", lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else None
    )

    def visit(path: str, ready: str) -> None:
        page.goto(live_server.url + path)
        page.locator(ready).first.wait_for()
        # Violations are reported as events queued while the page loads: wait until the
        # network is idle, then let one more frame and task run, and read them.
        page.wait_for_load_state("networkidle")
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))")
        violations = page.evaluate("window.__cspViolations")
        assert violations == [], (path, violations)
        # A panel loaded into a page (the plan's power panel) brings its own form: a label's
        # for= and a locator by id would find the page's field of the same name.
        assert page.evaluate(REPEATED_IDS) == [], path

    # Worker pages.
    visit(f"/w/{campaign.slug}/?PROLIFIC_PID=csp-1", "form.w-consent")
    visit(f"/w/{campaign.slug}/s/{worker_token(worker)}/", "#task-form")
    page.locator(".w-output input[data-score]").first.fill("120")  # the worker script runs
    visit(f"/w/{campaign.slug}/?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE", "h1")
    # Signed-in pages.
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("owner")
    page.get_by_label("Password").fill("pw-123456")
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("link", name="Campaigns").wait_for()
    visit("/", "main")
    visit(f"/campaigns/{campaign.slug}/", "main h1")
    visit(f"/campaigns/{campaign.slug}/monitor/", "#power-report")
    visit(f"/campaigns/{campaign.slug}/plan/", "#power-report")
    visit(f"/campaigns/{campaign.slug}/criteria/", "main h1")
    visit(f"/campaigns/{campaign.slug}/settings/", "main h1")
    visit("/campaigns/account/", "main h1")
    visit(f"/rankings/campaign/{campaign.slug}/", "main h1")
    visit("/admin/", "#content")
    visit("/admin/annotations/campaign/", "#changelist")
    visit(f"/admin/annotations/campaign/{campaign.pk}/change/", "#content form")
    visit("/api/docs/", ".swagger-ui .information-container")  # Swagger UI drew the schema
    save_screenshot(page, "csp-api-docs")
    assert errors == []
