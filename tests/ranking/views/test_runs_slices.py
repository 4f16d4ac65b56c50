"""The runs list names each run's slice (ranking/views/runs.py)."""

from __future__ import annotations

import pytest

from annotations.models import CampaignMembership
from ranking.services import runs as services
from tests.ranking.sliced_campaign import _sliced

pytestmark = pytest.mark.django_db


def test_the_runs_list_names_each_runs_slice(client, django_user_model) -> None:
    campaign, criterion = _sliced(20)
    user = django_user_model.objects.create_user("viewer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="viewer")
    for where in ({}, {"language": "de"}):
        services.ranking_run_create(
            campaign=campaign, criterion=criterion, queue=False, where=where
        )
    client.force_login(user)
    body = client.get(f"/rankings/campaign/{campaign.slug}/").content.decode()
    assert "<td>language=de</td>" in body and "<td>all items</td>" in body
