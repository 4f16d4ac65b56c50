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
    # beside the username field, not above the form
    assert response.context["form"].errors["username"] == ["There is no user 'nobody'."]
    remove = reverse("annotations:designer-member-remove", args=[campaign.slug, membership.pk])
    removed = owner_client.post(remove, follow=True)
    assert "viewer is no longer a member." in removed.content.decode()  # was said nothing
    assert not campaign.memberships.filter(user=people["viewer"]).exists()
    # Sent again (a double click, a second tab): the members page says so (was a bare 404).
    again = owner_client.post(remove, follow=True)
    assert again.status_code == 200
    assert "That person is no longer a member: nothing to remove." in again.content.decode()
