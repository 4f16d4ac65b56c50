"""A worker's task page with Arabic outputs in real Chromium: the texts run right to left
inside the (English) interface, at desktop and phone width (screenshots in artifacts/)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from annotations.access.workers import worker_token
from annotations.models import Campaign, Task
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory, task_with_outputs
from tests.flows.browser.conftest import save_screenshot, settled_width
from tests.flows.browser.test_worker_session import make_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARABIC = ("المطعم قريب من النهر ويقدم طعاماً إيطالياً.", "مقهى رخيص في وسط المدينة.")


@pytest.mark.parametrize("width", [1280, 390])
def test_arabic_outputs_run_right_to_left(new_page, live_server, width):
    campaign = CampaignFactory(status=Campaign.Status.LIVE, languages=["en", "ar"])
    criterion = CriterionFactory(
        campaign=campaign,
        question="How fluent is the text?",
        translations={"ar": {"question": "ما مدى سلاسة النص؟"}},
    )
    task = task_with_outputs(campaign=campaign, criterion=criterion, texts=ARABIC)
    Task.objects.filter(pk=task.pk).update(language="ar")
    worker = WorkerFactory(campaign=campaign, language="ar", consented_at=timezone.now())
    page = new_page(width=width)
    page.goto(f"{live_server.url}/w/{campaign.slug}/s/{worker_token(worker)}/")
    text = page.locator(".w-text").first
    text.wait_for()
    assert text.get_attribute("lang") == "ar"
    assert text.evaluate("el => getComputedStyle(el).direction") == "rtl"
    # Right to left: the line ends at the left, so its text starts at the right edge.
    box = text.evaluate(
        "el => { const r = document.createRange(); r.selectNodeContents(el);"
        " const t = r.getBoundingClientRect(), b = el.getBoundingClientRect();"
        " return [b.right - t.right, t.left - b.left]; }"
    )
    assert box[0] <= 2 < box[1], box
    assert "ما مدى سلاسة النص؟" in page.content()
    assert settled_width(page, width) <= width
    save_screenshot(page, f"worker-arabic-{width}")


def _start(page, live_server, campaign: Campaign, pid: str) -> None:
    page.goto(f"{live_server.url}/w/{campaign.slug}/?PROLIFIC_PID={pid}&STUDY_ID=st")


def test_english_facts_of_a_right_to_left_item_read_left_to_right(page, live_server, screenshot):
    from annotations.models import Item

    campaign = make_campaign("magnitude")
    Item.objects.filter(campaign=campaign).update(
        input="name[Cotto], eatType[coffee shop], near[The Bakers]", language="ar"
    )
    _start(page, live_server, campaign, "pid-rtl")
    page.get_by_label("I have read the information above").check()
    page.get_by_role("button", name="Start").click()
    page.get_by_text("Task 1 of 2").wait_for()
    directions = page.evaluate(
        "() => [...document.querySelectorAll('.w-input .w-mr dd')]"
        ".map(e => [e.textContent, getComputedStyle(e).direction])"
    )
    assert directions == [["Cotto", "ltr"], ["coffee shop", "ltr"], ["The Bakers", "ltr"]]
    screenshot("rtl-item-english-facts")
