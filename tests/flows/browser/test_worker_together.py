"""RankME set-up 1 in real Chromium: every criterion of an item on one page."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.utils import timezone

from annotations.access.workers import worker_token
from annotations.core.outputs import OutputRow
from annotations.models import Campaign, Criterion, Judgement, JudgementScore, Worker
from annotations.services.criteria import CRITERION_PRESETS, criterion_from_preset
from annotations.services.outputs import outputs_store
from annotations.services.tasks import tasks_build
from tests.factories import CampaignFactory, WorkerFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[3] / "artifacts" / "screenshots"
SHOTS.mkdir(parents=True, exist_ok=True)


def together_campaign() -> Campaign:
    campaign = CampaignFactory(
        slug="browser-together",
        name="Rate restaurant descriptions (all criteria at once)",
        status=Campaign.Status.DRAFT,
        setup=Campaign.Setup.TOGETHER,
        outputs_per_task=3,
        tasks_per_worker=2,
    )
    quality = criterion_from_preset(campaign=campaign, preset="quality")
    quality.standard_input = "name[Loch Fyne], eatType[restaurant], food[French]"
    quality.standard_text = "Loch Fyne is a French restaurant."
    quality.content_checks = []  # the page's layout and refusals, not the checklist
    quality.save(update_fields=["standard_input", "standard_text", "content_checks"])
    Criterion.objects.create(
        campaign=campaign,
        name="fluency",
        position=5,
        question=CRITERION_PRESETS["fluency"]["question"],
        scale=Criterion.Scale.LIKERT,
        scale_settings=CRITERION_PRESETS["fluency"]["scale_settings"],
        show_input=False,
    )
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(
                item_id=f"mr{i}",
                input="name[Cotto], eatType[coffee shop], near[The Bakers]",
                system=f"sys{s}",
                text=[
                    "Cotto is a coffee shop near The Bakers.",
                    "Near The Bakers there is a coffee shop called Cotto.",
                    "Cotto coffee shop coffee shop The Bakers near.",
                ][s],
            )
            for i in range(2)
            for s in range(3)
        ],
    )
    tasks_build(campaign=campaign, seed=4)
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.LIVE)
    campaign.refresh_from_db()
    return campaign


def session(live_server, campaign: Campaign, worker: Worker) -> str:
    return f"{live_server.url}/w/{campaign.slug}/s/{worker_token(worker)}/"


@pytest.mark.parametrize("width", [1100, 390])
def test_a_worker_rates_every_criterion_of_an_item_on_one_page(new_page, live_server, width):
    SHOTS.mkdir(parents=True, exist_ok=True)
    campaign = together_campaign()
    quality = campaign.criteria.get(name="quality")
    fluency = campaign.criteria.get(name="fluency")
    worker = WorkerFactory(campaign=campaign, consented_at=timezone.now())
    page = new_page(width=width)
    page.goto(session(live_server, campaign, worker))

    # Both questions, the standard of the magnitude criterion, each output once.
    assert page.get_by_text(quality.question).is_visible()
    assert page.get_by_text(fluency.question).is_visible()
    assert (
        page.locator("[data-standard]")
        .get_by_text("Loch Fyne is a French restaurant.")
        .is_visible()
    )
    outputs = page.locator("#together-form .w-output")
    assert outputs.count() == 3
    for i in range(3):
        li = outputs.nth(i)
        assert li.locator(".w-text").count() == 1
        assert li.locator(f"input[name^='c{quality.pk}-score_']").count() == 1
        assert li.locator(f"input[type=radio][name^='c{fluency.pk}-score_']").count() == 5
    page.screenshot(path=str(SHOTS / f"together-{width}-page.png"), full_page=True)

    # Only the numbers: refused as a whole, an error on each fluency answer.
    for i in range(3):
        outputs.nth(i).locator("input.w-number").fill(str([150, 100, 40][i]))
    page.get_by_role("button", name="Submit and continue").click()
    summary = page.locator("[data-error-summary]")
    summary.wait_for()
    assert summary.locator("li").count() == 3
    assert Judgement.objects.count() == 0
    # What was typed is still there.
    assert outputs.nth(0).locator("input.w-number").input_value() == "150"
    page.screenshot(path=str(SHOTS / f"together-{width}-errors.png"), full_page=True)

    for i in range(3):
        outputs.nth(i).locator("label.w-level").nth([4, 2, 0][i]).click()
    page.get_by_role("button", name="Submit and continue").click()
    page.get_by_text("Task 2 of 2").wait_for()
    assert sorted(Judgement.objects.values_list("criterion__name", flat=True)) == [
        "fluency",
        "quality",
    ]
    scores = {
        (s.judgement.criterion.name, s.output.text): s.score
        for s in JudgementScore.objects.select_related("judgement__criterion", "output")
    }
    assert scores[("quality", "Cotto is a coffee shop near The Bakers.")] in {150, 100, 40}
    assert len(scores) == 6
