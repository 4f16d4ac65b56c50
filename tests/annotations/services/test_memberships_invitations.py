"""Accepting an invitation (annotations/services/memberships.py): never lowers a role, never for another address."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from annotations.models import CampaignInvitation, CampaignMembership
from annotations.selectors.memberships import InvitationRefused, token_digest
from annotations.services.memberships import invitation_accept

pytestmark = pytest.mark.django_db


Role = CampaignMembership.Role


def test_accepting_never_lowers_a_role(memberships_world):
    people, campaign = memberships_world
    User.objects.filter(pk=people["designer"].pk).update(email="d@example.org")
    people["designer"].refresh_from_db()
    invitation = CampaignInvitation.objects.create(
        campaign=campaign, email="d@example.org", role="viewer", token=token_digest("tok")
    )
    membership = invitation_accept(token="tok", user=people["designer"])
    assert membership.role == Role.DESIGNER
    invitation.refresh_from_db()
    assert invitation.accepted_at is not None


def test_the_service_refuses_another_address_and_changes_nothing(memberships_world):
    people, campaign = memberships_world
    CampaignInvitation.objects.create(
        campaign=campaign, email="kim@example.org", role="owner", token=token_digest("tok")
    )
    with pytest.raises(InvitationRefused) as refused:
        invitation_accept(token="tok", user=people["viewer"])
    assert refused.value.reason == "other-account"
    assert CampaignMembership.objects.get(campaign=campaign, user=people["viewer"]).role == "viewer"
    assert CampaignInvitation.objects.get().accepted_at is None
