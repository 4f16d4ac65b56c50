"""The members API (annotations/apis/memberships.py): owners only list, add and remove."""

from __future__ import annotations

import pytest

from annotations.models import CampaignMembership
from tests.annotations.designer_data import add_member, judged_campaign

pytestmark = pytest.mark.django_db


def test_members_list_add_remove_owners_only(people, owner_api, api_as):
    campaign = judged_campaign(owner=people["owner"], n_items=1, n_workers=1)
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    viewer, owner = api_as(people["viewer"]), owner_api
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
    assert list(unknown.json()["fields"]) == ["username"]  # placed beside the field
    member = campaign.memberships.get(user=people["designer"])
    assert owner.delete(f"{url}{member.pk}/").status_code == 204
    own = campaign.memberships.get(user=people["owner"])
    assert owner.delete(f"{url}{own.pk}/").status_code == 400
