"""The monitor offers the experts report and marks workers as experts."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.models import CampaignMembership, Worker
from tests.annotations.designer_data import users
from tests.annotations.experts_data import experts_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    people = users()
    campaign, criterion = experts_campaign()
    for name, role in (
        ("owner", CampaignMembership.Role.OWNER),
        ("designer", CampaignMembership.Role.DESIGNER),
        ("viewer", CampaignMembership.Role.VIEWER),
    ):
        CampaignMembership.objects.create(campaign=campaign, user=people[name], role=role)
    return people, campaign, criterion


def test_monitor_offers_the_report_and_workers_can_be_marked_experts(client, world):
    people, campaign, _ = world
    client.force_login(people["designer"])
    monitor = client.get(reverse("annotations:designer-monitor", args=[campaign.slug]))
    page = monitor.content.decode()
    assert 'id="experts-panel"' in page
    assert reverse("annotations:designer-experts", args=[campaign.slug]) in page
    careful = Worker.objects.get(external_id="careful")
    mark = reverse("annotations:designer-worker-mark", args=[campaign.slug, careful.pk])
    client.post(mark, {"action": "expert"})
    assert Worker.objects.get(pk=careful.pk).expert
    row = client.post(mark, {"action": "unexpert"}, HTTP_HX_REQUEST="true").content.decode()
    assert not Worker.objects.get(pk=careful.pk).expert
    assert ">Expert<" in row  # the button offers to mark them again
