"""A worker's task page with Arabic outputs in real Chromium: the texts run right to left
inside the (English) interface, at desktop and phone width (screenshots in artifacts/)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from annotations.access.workers import worker_token
from annotations.models import Campaign, Task
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory, task_with_outputs
from tests.flows.browser.conftest import save_screenshot, settled_width

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
