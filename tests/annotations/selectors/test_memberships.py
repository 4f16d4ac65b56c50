"""Who may accept an invitation (``annotations.selectors.memberships``): the account with
the invited address only, whatever its case and spaces; anyone else is told why."""

from __future__ import annotations

from django.contrib.auth.models import User

from annotations.models import CampaignInvitation
from annotations.selectors.memberships import invitation_refusal_for


def _invitation(email: str) -> CampaignInvitation:
    return CampaignInvitation(email=email, role="viewer")


def test_the_invited_address_may_accept_whatever_its_case():
    invited = _invitation(" Ada@Example.org ")
    ada = User(username="ada", email="ada@example.org")
    assert invitation_refusal_for(invitation=invited, user=ada) is None


def test_another_address_is_told_whose_invitation_it_is():
    refusal = invitation_refusal_for(
        invitation=_invitation("ada@example.org"),
        user=User(username="kim", email="kim@example.org"),
    )
    assert refusal is not None and refusal.reason == "other-account"
    assert "a…@example.org" in str(refusal) and "(kim)" in str(refusal)
    assert "ada@example.org" not in str(refusal)  # the invited address only hinted at


def test_an_account_without_an_address_is_refused():
    refusal = invitation_refusal_for(
        invitation=_invitation("ada@example.org"), user=User(username="nobody", email="")
    )
    assert refusal is not None and refusal.reason == "other-account"
