"""The payments page (annotations/views/payments.py): who reads, who decides, bonuses and the platforms' files."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from annotations.models import Assignment, CampaignMembership, Worker, WorkerCheck
from tests.annotations.designer_data import add_member, judged_campaign, users

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_workers=2)
    add_member(campaign, people["designer"], CampaignMembership.Role.DESIGNER)
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    Worker.objects.create(
        campaign=campaign,
        platform="mturk",
        external_id="AMT1",
        metadata={"assignment_id": "3AS", "hit_id": "3H"},
        excluded=True,
        exclusion_reason="Random clicks",
    )
    return people, campaign


def _url(campaign, fmt=None):
    if fmt:
        return reverse("annotations:designer-payments-export", args=[campaign.slug, fmt])
    return reverse("annotations:designer-payments", args=[campaign.slug])


def test_viewer_reads_suggestions_but_cannot_decide(client, world):
    people, campaign = world
    client.force_login(people["viewer"])
    page = client.get(_url(campaign))
    html = page.content.decode()
    assert page.status_code == 200
    assert "PID0000" in html and "AMT1" in html
    assert "Excluded: Random clicks" in html
    assert 'name="review_' not in html  # no editable decisions for a viewer
    worker = campaign.workers.get(external_id="PID0000")
    response = client.post(_url(campaign), {f"review_{worker.pk}": "approved"})
    assert response.status_code == 403
    response = client.post(_url(campaign), {"action": "accept-suggestions"})
    assert response.status_code == 403
    assert set(campaign.workers.values_list("review", flat=True)) == {""}


def test_outsider_and_anonymous_do_not_reach_the_page(client, world):
    people, campaign = world
    assert client.get(_url(campaign)).status_code == 302
    client.force_login(people["outsider"])
    assert client.get(_url(campaign)).status_code == 404
    assert client.get(_url(campaign, "prolific-approve")).status_code == 404


def test_editor_saves_decisions_and_bonuses(client, world):
    people, campaign = world
    client.force_login(people["designer"])
    a = campaign.workers.get(external_id="PID0000")
    b = campaign.workers.get(external_id="PID0001")
    response = client.post(
        _url(campaign),
        {
            f"review_{a.pk}": "approved",
            f"bonus_{a.pk}": "1.25",
            f"review_{b.pk}": "rejected",
            f"bonus_{b.pk}": "",
        },
    )
    assert response.status_code == 302
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.review, a.bonus, b.review, b.bonus) == ("approved", Decimal("1.25"), "rejected", 0)
    page = client.get(_url(campaign)).content.decode()
    assert "Saved: 2 workers changed." in page


def test_a_bad_bonus_is_shown_on_its_field_and_nothing_is_saved(client, world):
    people, campaign = world
    client.force_login(people["designer"])
    a = campaign.workers.get(external_id="PID0000")
    b = campaign.workers.get(external_id="PID0001")
    response = client.post(
        _url(campaign),
        {f"review_{a.pk}": "approved", f"review_{b.pk}": "approved", f"bonus_{b.pk}": "-3"},
    )
    assert response.status_code == 400
    assert "Ensure this value is greater than or equal to 0" in response.content.decode()
    assert set(campaign.workers.values_list("review", flat=True)) == {""}


def test_accept_suggestions_button(client, world):
    people, campaign = world
    # Workers who passed their checks are suggested for approval (without any check
    # nothing was passed, and the organizer decides: test_payments.py).
    for worker in campaign.workers.filter(external_id__startswith="PID"):
        assignment = Assignment.objects.filter(worker=worker).first()
        assert assignment is not None
        WorkerCheck.objects.create(
            worker=worker, assignment=assignment, kind="attention", passed=True
        )
    client.force_login(people["designer"])
    response = client.post(_url(campaign), {"action": "accept-suggestions"})
    assert response.status_code == 302
    assert dict(campaign.workers.values_list("external_id", "review")) == {
        "PID0000": "approved",
        "PID0001": "approved",
        "AMT1": "rejected",
    }


def test_downloads_are_the_platform_files(client, world):
    people, campaign = world
    Worker.objects.filter(external_id="PID0001").update(review="approved", bonus=Decimal("0.5"))
    Worker.objects.filter(external_id="AMT1").update(review="rejected")
    client.force_login(people["viewer"])
    approve = client.get(_url(campaign, "prolific-approve"))
    assert approve.content == b"PID0001\n"
    assert approve["Content-Type"] == "text/plain; charset=utf-8"
    assert approve["Content-Disposition"] == (
        f'attachment; filename="{campaign.slug}-prolific-approve.txt"'
    )
    assert client.get(_url(campaign, "prolific-bonus")).content == b"PID0001,0.50\n"
    mturk = client.get(_url(campaign, "mturk-review"))
    assert mturk.content == (
        b"HITId,AssignmentId,WorkerId,Approve,Reject\r\n3H,3AS,AMT1,,Random clicks\r\n"
    )
    assert client.get(_url(campaign, "xlsx")).status_code == 404


def test_a_rejected_worker_is_said_to_still_count_unless_excluded(client, world):
    people, campaign = world
    rejected = Worker.objects.filter(campaign=campaign, excluded=False).first()
    assert rejected is not None
    Worker.objects.filter(pk=rejected.pk).update(review="rejected")
    Worker.objects.filter(campaign=campaign, excluded=True).update(review="rejected")
    client.force_login(people["owner"])
    html = client.get(_url(campaign)).text
    assert "still count in the rankings" in html
    found = re.search(rf'<tr id="pay-{rejected.pk}">.*?</tr>', html, re.S)
    assert found is not None
    row = found.group(0)
    assert "rejected, still counted" in row
    monitor = reverse("annotations:designer-monitor", args=[campaign.slug])
    assert f'href="{monitor}#worker-{rejected.pk}"' in row
    excluded = Worker.objects.get(campaign=campaign, excluded=True)
    found = re.search(rf'<tr id="pay-{excluded.pk}">.*?</tr>', html, re.S)
    assert found is not None
    row = found.group(0)
    assert "still counted" not in row
