"""The monitor offers the experts report and marks workers as experts."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.models import Worker

pytestmark = pytest.mark.django_db


def test_monitor_offers_the_report_and_workers_can_be_marked_experts(client, experts_world):
    people, campaign, _ = experts_world
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
