"""API errors keep one documented shape: a body type the endpoint cannot read is a 400."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from annotations.models import CampaignMembership
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def test_a_body_of_a_type_the_endpoint_does_not_read_is_a_400(django_user_model) -> None:
    """Schemathesis sent a multipart body so broken DRF answered 415, a status the schema
    does not document."""
    campaign = CampaignFactory()
    user = django_user_model.objects.create_user("designer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="designer")
    client = APIClient()
    client.force_authenticate(user)
    response = client.generic(
        "PATCH",
        f"/api/campaigns/{campaign.slug}/",
        "<x/>",
        content_type="application/xml",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "unsupported_media_type"
