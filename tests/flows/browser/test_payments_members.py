"""The payment step and the members page in real Chromium, at desktop and phone width:
an owner accepts the suggestions, downloads the Prolific file, invites a collaborator,
and the collaborator joins from the emailed link."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.flows.browser.conftest import save_screenshot, settled_width

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = (
    Path(os.environ.get("HUMANEVAL_H5_SHOTS", "")) if os.environ.get("HUMANEVAL_H5_SHOTS") else None
)


def _shot(page, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    else:
        save_screenshot(page, name)


def _sign_in(page, base: str, username: str, password: str) -> None:
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()


def _no_sideways_scroll(page) -> None:
    viewport = page.evaluate("window.innerWidth")
    width = settled_width(page, viewport)
    wide = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
                     && !(e.parentElement && e.parentElement.closest('.scroll')))
        .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + e.getBoundingClientRect().right)"""
    )
    assert width <= viewport, (width, viewport, wide)


@pytest.mark.parametrize("width", [1100, 390])
def test_owner_pays_and_invites(new_page, live_server, settings, width):
    from django.contrib.auth import get_user_model
    from django.core import mail

    from annotations.models import Assignment, CampaignMembership, Worker, WorkerCheck
    from tests.annotations.designer_data import judged_campaign

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    owner = get_user_model().objects.create_user("olga", password="owner-pass-123")
    campaign = judged_campaign(owner=owner, n_workers=3)
    Worker.objects.filter(external_id="PID0002").update(
        excluded=True, exclusion_reason="Same score everywhere"
    )
    # Passed checks: suggested for approval (no check at all is left to the organizer).
    for worker in campaign.workers.filter(external_id__in=["PID0000", "PID0001"]):
        assignment = Assignment.objects.filter(worker=worker).first()
        assert assignment is not None
        WorkerCheck.objects.create(
            worker=worker, assignment=assignment, kind="attention", passed=True
        )
    page = new_page(width=width, height=800)
    _sign_in(page, live_server.url, "olga", "owner-pass-123")

    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/")
    page.get_by_text("Your role:").wait_for()
    assert "Owner" in page.locator(".role-line").inner_text()
    page.locator(".role-line").get_by_role("link", name="payments").click()
    page.get_by_role("heading", name="Approve, reject and bonus").wait_for()
    _no_sideways_scroll(page)
    _shot(page, f"payments-before-{width}")
    page.get_by_role("button", name="Accept the suggestions for undecided workers").click()
    page.get_by_text("Suggestions accepted: 3 decisions changed.").wait_for()
    page.get_by_label("Bonus for PID0000").fill("1.50")
    page.get_by_role("button", name="Save decisions and bonuses").click()
    page.get_by_text("Saved: 1 worker changed.").wait_for()
    _no_sideways_scroll(page)
    _shot(page, f"payments-after-{width}")
    assert dict(campaign.workers.values_list("external_id", "review")) == {
        "PID0000": "approved",
        "PID0001": "approved",
        "PID0002": "rejected",
    }
    with page.expect_download() as download:
        page.get_by_role("link", name="Prolific: bonuses").click()
    assert Path(download.value.path()).read_bytes() == b"PID0000,1.50\n"

    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/members/")
    page.get_by_label("Email address").fill("kim@example.org")
    page.locator("#h-invite ~ form select[name=role]").select_option("designer")
    page.get_by_role("button", name="Send invitation").click()
    page.get_by_text("Invitation sent to kim@example.org as editor.").wait_for()
    _no_sideways_scroll(page)
    _shot(page, f"members-{width}")
    match = re.search(r"(/invitations/\S+/)", str(mail.outbox[-1].body))
    assert match, mail.outbox[-1].body
    link = match.group(1)

    guest = new_page(width=width, height=800)
    guest.goto(live_server.url + link)
    guest.get_by_role("heading", name=f"Join “{campaign.name}”").wait_for()
    _shot(guest, f"invitation-{width}")
    guest.get_by_label("Username").fill("kim")
    guest.get_by_label("Password", exact=True).fill("kim-long-password-1")
    guest.get_by_label("Password confirmation").fill("kim-long-password-1")
    guest.get_by_role("button", name="Create the account and join").click()
    guest.get_by_text("you are now editor of this campaign").wait_for()
    assert "Editor" in guest.locator(".role-line").inner_text()
    assert "you are editor" in guest.locator(".campaign-head").inner_text()
    _no_sideways_scroll(guest)
    _shot(guest, f"joined-{width}")
    kim = get_user_model().objects.get(username="kim")
    assert CampaignMembership.objects.get(campaign=campaign, user=kim).role == "designer"


def test_screened_out_worker_and_password_reset_pages_at_phone_width(new_page, live_server):
    from django.urls import reverse
    from django.utils import timezone

    from annotations.access.workers import worker_token
    from annotations.models import Campaign, Worker
    from tests.factories import CampaignFactory, task_with_outputs

    campaign = CampaignFactory(
        status=Campaign.Status.LIVE, judgements_per_task=1, screened_out_code="SCREEN9"
    )
    task_with_outputs(campaign=campaign)
    first = Worker.objects.create(
        campaign=campaign, platform="link", external_id="first", consented_at=timezone.now()
    )
    late = Worker.objects.create(
        campaign=campaign, platform="link", external_id="late", consented_at=timezone.now()
    )
    page = new_page(width=390, height=800)
    for worker in (first, late):
        url = reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)])
        page.goto(live_server.url + url)
    page.get_by_role("heading", name="All tasks are taken").wait_for()
    assert page.get_by_label("Code to return the study").inner_text() == "SCREEN9"
    _no_sideways_scroll(page)
    _shot(page, "worker-screened-out-390")

    page.goto(live_server.url + "/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_role("heading", name="Reset your password").wait_for()
    _no_sideways_scroll(page)
    _shot(page, "password-reset-390")
