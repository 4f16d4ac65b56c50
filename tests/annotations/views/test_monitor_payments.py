"""The monitor says a rejected worker still counts unless excluded."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.models import CampaignMembership, Worker
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


def test_a_rejected_worker_is_said_to_still_count_unless_excluded(client, world):
    import re

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
