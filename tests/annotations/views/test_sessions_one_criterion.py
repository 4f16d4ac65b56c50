"""Set-up 2 with several criteria: each worker judges one criterion, and their
instructions explain that criterion alone, with a worked example built from its
standard (or the designer's own)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from annotations.models import Assignment, Campaign, Criterion, Worker
from annotations.selectors.criteria import criterion_for_newcomer
from annotations.services import assignment as assignment_services
from tests.annotations.setups_data import built
from tests.annotations.views.worker_pages import signed_identity
from tests.factories import WorkerFactory

pytestmark = pytest.mark.django_db

STANDARD = "Cotto is a coffee shop near The Bakers, and it serves Italian food."
CRITERIA = ("quality", "naturalness", "informativeness")


def _built(*, setup: str = "separate", criteria=CRITERIA) -> Campaign:
    """Set-up 2 by default: each worker judges one criterion of three, six tasks each,
    the standard and the checklist the worked example is made from."""
    campaign = built(setup=setup, criteria=criteria, items=4, checklists=True, tasks_per_worker=6)
    campaign.criteria.update(standard_text=STANDARD, standard_input="name[Cotto]")
    return campaign


def _questions(campaign: Campaign, html: str) -> list[str]:
    return [c.name for c in campaign.criteria.all() if c.question in html]


def _enter(client: Client, campaign: Campaign, pid: str) -> tuple[str, Worker]:
    page = client.get(f"/w/{campaign.slug}/?PROLIFIC_PID={pid}&STUDY_ID=s&SESSION_ID={pid}")
    assert page.status_code == 200
    done = client.post(
        reverse("annotations:worker-start", args=[campaign.slug]),
        {"agree": "on", "identity": signed_identity(page.content)},
    )
    assert done.status_code == 303
    return page.content.decode(), Worker.objects.get(campaign=campaign, external_id=pid)


def test_the_instructions_explain_the_one_criterion_the_worker_then_judges() -> None:
    """The defect: set-up 2's instructions explained all three criteria, though the
    worker's tasks were of one."""
    campaign = _built()
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
    campaign = _built()
    chosen = [_enter(Client(), campaign, f"p{i}")[1].criterion_id for i in range(6)]
    counts = {pk: chosen.count(pk) for pk in campaign.criteria.values_list("pk", flat=True)}
    assert sorted(counts.values()) == [2, 2, 2]


def test_set_up_1_and_a_single_criterion_explain_every_criterion() -> None:
    together = _built(setup="together")
    assert criterion_for_newcomer(campaign=together) is None
    html, worker = _enter(Client(), together, "t1")
    assert worker.criterion is None
    assert len(_questions(together, html)) == 3
    single = _built(criteria=("quality",))
    assert criterion_for_newcomer(campaign=single) is None


def test_the_worked_example_comes_from_the_standard() -> None:
    campaign = _built(criteria=("quality",))
    html = Client().get(f"/w/{campaign.slug}/?PROLIFIC_PID=x&STUDY_ID=s&SESSION_ID=x")
    page = html.content.decode()
    assert "data-worked-example" in page
    example = page[page.index("data-worked-example") :]
    assert STANDARD in example
    scores = re.findall(r'class="w-example-score">(\d+)<', example)
    assert scores[:3] == ["100", "70", "90"]
    assert "It misses information from the input" in example


def test_the_designers_own_example_replaces_it_and_comes_out_inert() -> None:
    campaign = _built(criteria=("quality",))
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
    campaign = _built()
    other = _built()
    from annotations.services.sessions import worker_get_or_create

    foreign = other.criteria.first()
    assert foreign is not None
    worker = worker_get_or_create(
        campaign=campaign, platform="prolific", external_id="z", criterion_id=foreign.pk
    )
    assert worker.criterion_id is None


def test_a_known_worker_keeps_their_criterion() -> None:
    campaign = _built()
    first, *_, crit = campaign.criteria.order_by("position")
    worker = WorkerFactory(campaign=campaign, consented_at=timezone.now(), criterion=crit)
    from annotations.services.sessions import worker_get_or_create

    again = worker_get_or_create(
        campaign=campaign,
        platform=worker.platform,
        external_id=worker.external_id,
        criterion_id=first.pk,
    )
    assert again.criterion_id == crit.pk


def test_a_crowd_arriving_counts_the_tasks_once_and_the_workers_every_time(
    monkeypatch, django_assert_num_queries
) -> None:
    """Every arrival in set-up 2 used to count the campaign's tasks per criterion (2 ms of
    PostgreSQL for 6,000 tasks); each process now counts them at most every
    ``TASK_COUNTS_FOR`` seconds, and the workers per criterion at every arrival, so a
    crowd arriving together still spreads."""
    from annotations.selectors import criteria as criteria_selectors

    monkeypatch.setattr(criteria_selectors, "_task_counts", {})
    campaign = _built()
    criteria = criteria_selectors.criteria_in_order(campaign=campaign)
    first = criterion_for_newcomer(campaign=campaign, criteria=criteria)
    with django_assert_num_queries(1):  # the workers per criterion only
        assert criterion_for_newcomer(campaign=campaign, criteria=criteria) == first
    chosen = [_enter(Client(), campaign, f"q{i}")[1].criterion_id for i in range(3)]
    assert len(set(chosen)) == 3
    # Tasks added meanwhile (an adaptive batch) are counted once the counts are old.
    clock = [criteria_selectors.time.monotonic()]
    monkeypatch.setattr(criteria_selectors.time, "monotonic", lambda: clock[0])
    clock[0] += criteria_selectors.TASK_COUNTS_FOR + 1
    with django_assert_num_queries(2):
        criterion_for_newcomer(campaign=campaign, criteria=criteria)
