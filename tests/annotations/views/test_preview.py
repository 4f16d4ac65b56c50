"""The designer's preview of the worker's pages (``annotations.views.preview``): it needs
the view permission and records nothing."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from annotations.models import (
    Assignment,
    Campaign,
    CampaignMembership,
    Judgement,
    Worker,
)
from annotations.services.tasks import tasks_build
from tests.annotations.setups_data import signed_in_owner
from tests.factories import (
    live_campaign_with_tasks,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def live_campaign() -> Campaign:
    return live_campaign_with_tasks()


def test_designer_preview_requires_view_permission_and_records_nothing(client, live_campaign):
    campaign = live_campaign
    url = reverse("annotations:worker-preview", args=[campaign.slug])
    assert client.get(url).status_code == 302  # to login
    user = get_user_model().objects.create_user("ann", password="pw-123456")
    client.force_login(user)
    assert client.get(url).status_code == 404
    CampaignMembership.objects.create(campaign=campaign, user=user, role="viewer")
    page = client.get(url)
    assert page.status_code == 200 and b"Nothing you do here is recorded" in page.content
    checked = client.post(
        url, {"score_0": "100", "score_1": "50", "score_2": "200"}, HTTP_HX_REQUEST="true"
    )
    assert b"All answers are valid" in checked.content
    assert Worker.objects.count() == 0 and Assignment.objects.count() == 0


def test_designer_preview_of_a_together_campaign_is_the_one_page_workers_see(client):
    client, campaign = signed_in_owner(client)
    Campaign.objects.filter(pk=campaign.pk).update(setup="together", outputs_per_task=2)
    campaign.refresh_from_db()
    tasks_build(campaign=campaign, seed=0)
    url = reverse("annotations:worker-preview", args=[campaign.slug])
    html = client.get(url).content.decode()
    assert 'id="together-form"' in html and "Nothing you do here is recorded" in html
    names = set(re.findall(r'name="(c\d+-score_\d+)"', html))
    assert len(names) == 2 * 2  # two criteria x two outputs
    checked = client.post(url, dict.fromkeys(names, "100"))
    assert checked.status_code == 200 and b"All answers are valid" in checked.content
    refused = client.post(url, {sorted(names)[0]: "100"})
    assert refused.status_code == 400
    assert not Judgement.objects.exists() and not Assignment.objects.exists()
