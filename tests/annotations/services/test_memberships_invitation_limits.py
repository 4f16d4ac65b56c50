"""Invitation mails are bounded, and a mail that cannot be sent stores nothing.

An outside review sent 25 invitations to one address in a row (each a mail from the
site's sender with a campaign name the inviter chose). Now: one open invitation per
address and campaign, at most INVITATIONS_PER_HOUR per inviter and
INVITATIONS_PER_ADDRESS per address an hour.
"""

from __future__ import annotations

from smtplib import SMTPException

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from annotations.models import CampaignInvitation
from annotations.services.memberships import invitation_create, invitation_revoke
from common.errors import DomainError
from tests.at_once import NEEDS_ROW_LOCKS, at_once
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def _invite(campaign, email, user):
    return invitation_create(
        campaign=campaign, email=email, role="viewer", invited_by=user, link_for=lambda t: t
    )


@pytest.fixture
def owner():
    return get_user_model().objects.create_user("owner", password="pw-long-enough-1")


def test_one_open_invitation_per_address_and_campaign(owner):
    campaign = CampaignFactory(owner=owner)
    first = _invite(campaign, "victim@example.org", owner)
    with pytest.raises(DomainError, match="already has an open invitation"):
        _invite(campaign, "Victim@Example.org", owner)
    assert len(mail.outbox) == 1
    invitation_revoke(invitation=first)
    _invite(campaign, "victim@example.org", owner)  # revoked: a new one may go
    assert len(mail.outbox) == 2


def test_an_address_gets_at_most_a_few_invitations_an_hour(owner, settings):
    settings.INVITATIONS_PER_ADDRESS = 3
    for _ in range(3):
        _invite(CampaignFactory(owner=owner), "victim@example.org", owner)
    with pytest.raises(DomainError, match="Too many invitations"):
        _invite(CampaignFactory(owner=owner), "victim@example.org", owner)
    assert len(mail.outbox) == 3
    assert CampaignInvitation.objects.count() == 3


def test_an_inviter_sends_at_most_so_many_an_hour(owner, settings):
    settings.INVITATIONS_PER_HOUR = 5
    campaign = CampaignFactory(owner=owner)
    for n in range(5):
        _invite(campaign, f"person{n}@example.org", owner)
    with pytest.raises(DomainError, match="Too many invitations"):
        _invite(campaign, "person6@example.org", owner)
    assert len(mail.outbox) == 5


@pytest.mark.django_db(transaction=True)
def test_a_mail_that_cannot_be_sent_stores_no_invitation(owner, monkeypatch):
    """``invitation_create`` is its own transaction (a helper once slipped in between it
    and its @transaction.atomic): called outside any transaction, a failed mail leaves
    no invitation behind."""
    from annotations.services import memberships

    def refuse(**kwargs):
        raise SMTPException("relay refused")

    monkeypatch.setattr(memberships, "send_mail", refuse)
    campaign = CampaignFactory(owner=owner)
    with pytest.raises(DomainError, match="could not be sent"):
        _invite(campaign, "someone@example.org", owner)
    assert not CampaignInvitation.objects.exists()


@pytest.mark.django_db(transaction=True)
@NEEDS_ROW_LOCKS
def test_one_address_invited_from_two_tabs_at_once_gets_one_invitation_on_postgresql():
    """An outside review sent one invitation from four tabs at once on PostgreSQL and got
    four open invitations (each checked before any was stored). The campaign's row lock
    makes them one after the other: one invitation, one mail, three refusals."""
    owner = get_user_model().objects.create_user("owner-4", password="pw-long-enough-1")
    campaign = CampaignFactory(owner=owner)
    outcomes = at_once(lambda: _invite(campaign, "colleague@example.org", owner), times=4)
    refused = [o for o in outcomes if isinstance(o, DomainError)]
    assert len(refused) == 3 and all("already has an open invitation" in str(o) for o in refused)
    assert CampaignInvitation.objects.filter(campaign=campaign).count() == 1
    assert len(mail.outbox) == 1
