"""Set-up 2 with several criteria: each worker judges one criterion, and their
instructions explain that criterion alone, with a worked example built from its
standard (or the designer's own)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from annotations.core.outputs import OutputRow
from annotations.models import Assignment, Campaign, Criterion, Worker
from annotations.selectors.criteria import criterion_for_newcomer
from annotations.services import assignment as assignment_services
from annotations.services.criteria import criterion_from_preset
from annotations.services.outputs import outputs_store
from annotations.services.tasks import tasks_build
from tests.factories import CampaignFactory, WorkerFactory

pytestmark = pytest.mark.django_db

STANDARD = "Cotto is a coffee shop near The Bakers, and it serves Italian food."


def built(*, setup: str = "separate", criteria=("quality", "naturalness", "informativeness")):
    campaign = CampaignFactory(setup=setup, outputs_per_task=3, tasks_per_worker=6)
    for preset in criteria:
        criterion_from_preset(campaign=campaign, preset=preset)
    campaign.criteria.update(standard_text=STANDARD, standard_input="name[Cotto]")
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(
                item_id=f"mr{i}",
                input="name[Cotto], eatType[coffee shop]",
                system=f"sys{s}",
                text=f"Cotto text {i} of system {s}.",
            )
            for i in range(4)
            for s in range(3)
        ],
    )
    tasks_build(campaign=campaign, seed=1)
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.LIVE)
    campaign.refresh_from_db()
    return campaign


def _questions(campaign: Campaign, html: str) -> list[str]:
    return [c.name for c in campaign.criteria.all() if c.question in html]


def _enter(client: Client, campaign: Campaign, pid: str) -> tuple[str, Worker]:
    page = client.get(f"/w/{campaign.slug}/?PROLIFIC_PID={pid}&STUDY_ID=s&SESSION_ID={pid}")
    assert page.status_code == 200
    identity = re.search(r'name="identity" value="([^"]+)"', page.content.decode())
    assert identity
    done = client.post(
        reverse("annotations:worker-start", args=[campaign.slug]),
        {"agree": "on", "identity": identity.group(1)},
    )
    assert done.status_code == 303
    return page.content.decode(), Worker.objects.get(campaign=campaign, external_id=pid)


def test_the_instructions_explain_the_one_criterion_the_worker_then_judges() -> None:
    """The defect: set-up 2's instructions explained all three criteria, though the
    worker's tasks were of one."""
    campaign = built()
    html, worker = _enter(Client(), campaign, "p1")
    assert worker.criterion is not None
    assert _questions(campaign, html) == [worker.criterion.name]
    for _ in range(campaign.tasks_per_worker):
        a = assignment_services.task_next_for(worker=worker, campaign=campaign)
        if a is None:
            break
        assert a.task.criterion_id == worker.criterion_id
        a.state = Assignment.State.SUBMITTED
        a.submitted_at = timezone.now()
        a.save(update_fields=["state", "submitted_at"])


def test_newcomers_are_spread_over_the_criteria() -> None:
    campaign = built()
    chosen = [_enter(Client(), campaign, f"p{i}")[1].criterion_id for i in range(6)]
    counts = {pk: chosen.count(pk) for pk in campaign.criteria.values_list("pk", flat=True)}
    assert sorted(counts.values()) == [2, 2, 2]


def test_set_up_1_and_a_single_criterion_explain_every_criterion() -> None:
    together = built(setup="together")
    assert criterion_for_newcomer(campaign=together) is None
    html, worker = _enter(Client(), together, "t1")
    assert worker.criterion is None
    assert len(_questions(together, html)) == 3
    single = built(criteria=("quality",))
    assert criterion_for_newcomer(campaign=single) is None


def test_the_worked_example_comes_from_the_standard() -> None:
    campaign = built(criteria=("quality",))
    html = Client().get(f"/w/{campaign.slug}/?PROLIFIC_PID=x&STUDY_ID=s&SESSION_ID=x")
    page = html.content.decode()
    assert "data-worked-example" in page
    example = page[page.index("data-worked-example") :]
    assert STANDARD in example
    scores = re.findall(r'class="w-example-score">(\d+)<', example)
    assert scores[:3] == ["100", "70", "90"]
    assert "It misses information from the input" in example


def test_the_designers_own_example_replaces_it_and_comes_out_inert() -> None:
    campaign = built(criteria=("quality",))
    Criterion.objects.filter(campaign=campaign).update(
        example="Score **120** for a text better than the standard.<script>alert(1)</script>"
        '<a href="javascript:alert(2)">x</a>'
    )
    page = Client().get(f"/w/{campaign.slug}/?PROLIFIC_PID=y&STUDY_ID=s&SESSION_ID=y")
    html = page.content.decode()
    example = html[html.index("data-worked-example") :]
    assert "<strong>120</strong>" in example
    assert "<script>alert(1)" not in html and "javascript:alert" not in html
    assert STANDARD not in example.split("</div>")[0]


def test_a_forged_or_foreign_criterion_is_not_given_to_a_worker() -> None:
    campaign = built()
    other = built()
    from annotations.services.sessions import worker_get_or_create

    foreign = other.criteria.first()
    assert foreign is not None
    worker = worker_get_or_create(
        campaign=campaign, platform="prolific", external_id="z", criterion_id=foreign.pk
    )
    assert worker.criterion_id is None


def test_a_known_worker_keeps_their_criterion() -> None:
    campaign = built()
    crit = campaign.criteria.order_by("position").last()
    worker = WorkerFactory(campaign=campaign, consented_at=timezone.now(), criterion=crit)
    from annotations.services.sessions import worker_get_or_create

    again = worker_get_or_create(
        campaign=campaign,
        platform=worker.platform,
        external_id=worker.external_id,
        criterion_id=campaign.criteria.order_by("position").first().pk,
    )
    assert again.criterion_id == crit.pk
