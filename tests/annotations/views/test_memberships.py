"""The members page (annotations/views/memberships.py): owners add and remove members."""

from __future__ import annotations

from django.urls import reverse

from tests.annotations.views.new_campaign import _campaign


def test_members_owner_adds_and_removes(owner_client, people):
    campaign = _campaign(owner_client)
    url = reverse("annotations:designer-members", args=[campaign.slug])
    owner_client.post(url, {"username": "viewer", "role": "designer"})
    membership = campaign.memberships.get(user=people["viewer"])
    assert membership.role == "designer"
    response = owner_client.post(url, {"username": "nobody", "role": "viewer"})
    assert "there is no user" in response.content.decode().lower()
    owner_client.post(
        reverse("annotations:designer-member-remove", args=[campaign.slug, membership.pk])
    )
    assert not campaign.memberships.filter(user=people["viewer"]).exists()
