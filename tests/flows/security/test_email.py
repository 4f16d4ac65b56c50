"""Invitation emails: a campaign name with a line break or markup stays in one header line
(Django refuses a header with a line break: the invitation was a 500)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core import mail

from annotations.services.memberships import invitation_create
from tests.factories import CampaignFactory
from tests.flows.security.hostile import PAYLOAD

pytestmark = pytest.mark.django_db


def test_a_campaign_name_with_line_breaks_is_one_subject_line():
    owner = User.objects.create(username="owner", first_name="Ann\r\nBcc: x@evil.example")
    campaign = CampaignFactory(owner=owner, name="\rTwo\nlines " + PAYLOAD[:40])
    invitation_create(
        campaign=campaign,
        email="new@example.org",
        role="designer",
        invited_by=owner,
        link_for=lambda token: f"https://eval.example/invitations/{token}/",
    )
    (message,) = mail.outbox
    assert "\n" not in message.subject and "\r" not in message.subject
    assert message.subject.startswith("Invitation to “Two lines <script>")
    assert message.to == ["new@example.org"] and message.bcc == []
