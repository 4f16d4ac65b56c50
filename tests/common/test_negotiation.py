"""The API's content negotiation (common/negotiation.py) and the refusals every API
shares: a ``?format=`` no renderer offers, too many files, a taken slug."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from annotations.models import CampaignMembership
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def designer(django_user_model):
    campaign = CampaignFactory(status="draft")
    user = django_user_model.objects.create_user("designer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="owner")
    client = APIClient()
    client.force_authenticate(user)
    return client, campaign


def test_a_format_no_renderer_offers_is_a_400_naming_the_parameter(designer):
    """``?format=xml`` on any API was DRF's bare 404 "Not found."."""
    client, campaign = designer
    response = client.get(f"/api/campaigns/{campaign.slug}/judgements/?format=xml")
    assert response.status_code == 400, response.content
    body = response.json()
    assert "format" in body["fields"] and "use one of json" in body["fields"]["format"][0]
    assert client.get(f"/api/campaigns/{campaign.slug}/judgements/?format=json").status_code == 200


def test_too_many_files_is_said_in_plain_words(designer, settings):
    """Django's own message named its setting, DATA_UPLOAD_MAX_NUMBER_FILES."""
    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 3
    client, campaign = designer
    files = [SimpleUploadedFile(f"f{n}.csv", b"x") for n in range(5)]
    response = client.post(
        f"/api/campaigns/{campaign.slug}/outputs/", {"files": files}, format="multipart"
    )
    assert response.status_code == 400, response.content
    assert "Too many files in one request: at most 3" in response.json()["detail"]
    assert "DATA_UPLOAD" not in response.content.decode()


def test_a_taken_slug_is_refused_under_its_field(designer):
    client, _ = designer
    assert client.post("/api/campaigns/", {"slug": "twice"}, format="json").status_code == 201
    again = client.post("/api/campaigns/", {"slug": "twice"}, format="json")
    assert again.status_code == 400 and list(again.json()["fields"]) == ["slug"]
