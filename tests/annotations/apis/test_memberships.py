"""The members API (annotations/apis/memberships.py): owners only list, add and remove."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from annotations.models import CampaignMembership
from tests.annotations.designer_data import add_member, judged_campaign, users

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return users()


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_members_list_add_remove_owners_only(people):
    campaign = judged_campaign(owner=people["owner"], n_items=1, n_workers=1)
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    viewer, owner = _client(people["viewer"]), _client(people["owner"])
    url = f"/api/campaigns/{campaign.slug}/members/"
    listed = viewer.get(url).json()
    assert [(m["username"], m["role"]) for m in listed] == [
        ("owner", "owner"),
        ("viewer", "viewer"),
    ]
    assert viewer.post(url, {"username": "designer", "role": "designer"}).status_code == 403
    added = owner.post(url, {"username": "designer", "role": "designer"}, format="json")
    assert added.status_code == 200 and added.json()["role"] == "designer"
    unknown = owner.post(url, {"username": "nobody", "role": "viewer"}, format="json")
    assert unknown.status_code == 400 and "no user 'nobody'" in unknown.text
    member = campaign.memberships.get(user=people["designer"])
    assert owner.delete(f"{url}{member.pk}/").status_code == 204
    own = campaign.memberships.get(user=people["owner"])
    assert owner.delete(f"{url}{own.pk}/").status_code == 400
