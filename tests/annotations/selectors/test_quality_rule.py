"""One quality rule (``selectors.quality.quality_verdict``): the flag, the monitor, the
payment suggestion, the exports and the API give the same verdict on the same worker."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from annotations.exports.judgements import export_lines
from annotations.models import Assignment, Campaign, Worker, WorkerCheck
from annotations.selectors import monitor as monitor_selectors
from annotations.selectors.payments import payment_rows
from annotations.selectors.quality import WorkerChecks, quality_verdict
from annotations.services.quality import worker_quality_update
from tests.annotations.designer_data import judged_campaign, users

pytestmark = pytest.mark.django_db


def _checks(worker: Worker, results: list[tuple[str, bool]]) -> None:
    assignments = list(Assignment.objects.filter(worker=worker).order_by("pk"))
    WorkerCheck.objects.bulk_create(
        WorkerCheck(worker=worker, assignment=a, kind=kind, passed=passed)
        for a, (kind, passed) in zip(assignments, results, strict=False)
    )
    worker_quality_update(worker=Worker.objects.select_related("campaign").get(pk=worker.pk))


@pytest.fixture
def people(db):
    return users()


@pytest.fixture
def campaign(people) -> Campaign:
    c = judged_campaign(owner=people["owner"], n_workers=3)
    c.quality_threshold = 0.5
    c.save(update_fields=["quality_threshold"])
    return c


def test_a_failed_only_attention_check_is_not_hidden_by_passed_repeats(campaign, client, people):
    """Failed their only attention check, passed two repeats: 2 of 3 checks passed
    overall, but the rule is the attention-check pass rate (0 of 1): flagged, and every
    page says so with the same reason."""
    worker = campaign.workers.get(external_id="PID0000")
    _checks(worker, [("attention", False), ("repeat", True), ("repeat", True)])
    worker.refresh_from_db()
    assert worker.flagged

    reason = "Passed 0 of 1 attention check, below the campaign's 50%."
    monitor_row = next(
        r for r in monitor_selectors.worker_table(campaign=campaign) if r.worker.pk == worker.pk
    )
    assert monitor_row.quality.below and monitor_row.quality.reason == reason
    pay = next(r for r in payment_rows(campaign=campaign) if r.worker.pk == worker.pk)
    # the same verdict; one check alone suggests a look, not a rejection
    assert (pay.suggestion, pay.reason) == (
        Worker.Review.UNDECIDED,
        f"{reason} One check alone decides nothing: look at it.",
    )

    client.force_login(people["owner"])
    html = client.get(reverse("annotations:designer-monitor", args=[campaign.slug])).content
    row = html.decode().split(f'id="worker-{worker.pk}"', 1)[1].split("</tr>", 1)[0]
    assert "flagged" in row and reason.replace("'", "&#x27;") in row

    criterion = campaign.criteria.get()
    table = list(csv.DictReader(io.StringIO("".join(export_lines(criterion=criterion, fmt="csv")))))
    flags = {r["_worker_flagged"] for r in table if r["_worker_id"] == "PID0000"}
    assert flags == {"true"}

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=people['owner']).key}")
    data = api.get(f"/api/campaigns/{campaign.slug}/workers/").json()
    mine = next(r for r in data["results"] if r["worker"]["id"] == worker.pk)
    assert mine["worker"]["flagged"] is True
    assert (mine["below_quality_threshold"], mine["quality_reason"]) == (True, reason)


def test_kinds_are_rated_apart_and_a_passing_worker_is_not_below():
    ok = WorkerChecks(n=3, attention=2, attention_passed=2, repeats=1, repeats_passed=1)
    assert not quality_verdict(ok, threshold=0.5).below
    # Two failed repeats are not diluted by passed attention checks either.
    bad = WorkerChecks(n=4, failed=2, attention=2, attention_passed=2, repeats=2)
    verdict = quality_verdict(bad, threshold=0.5)
    assert verdict.below and verdict.reason.startswith("Passed 0 of 2 repeated tasks")
    assert not quality_verdict(None, threshold=0.5).below
    assert not quality_verdict(bad, threshold=0.0).below


def test_a_rejection_is_suggested_only_from_two_checks_of_a_kind(campaign):
    """The walk-through: with one attention check and one repeat per worker, one slip
    suggested rejecting nearly every worker. Two failed checks of a kind still do."""
    one, two, uniform = (campaign.workers.get(external_id=f"PID000{i}") for i in range(3))
    _checks(one, [("repeat", False), ("attention", True)])
    _checks(two, [("attention", False), ("attention", False), ("repeat", True)])
    _checks(uniform, [("uniform", False)])
    rows = {r.worker.pk: r for r in payment_rows(campaign=campaign)}
    assert (
        rows[one.pk].suggestion == Worker.Review.UNDECIDED
        and "One check alone" in rows[one.pk].reason
    )
    assert rows[two.pk].suggestion == Worker.Review.REJECTED
    assert rows[uniform.pk].suggestion == Worker.Review.REJECTED
