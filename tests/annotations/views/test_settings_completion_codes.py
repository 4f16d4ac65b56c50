"""The screened-out completion code is a campaign setting."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def test_screened_out_code_is_a_campaign_setting(client):
    owner = User.objects.create(username="owner")
    c = CampaignFactory(owner=owner)
    client.force_login(owner)
    url = reverse("annotations:designer-settings", args=[c.slug])
    page = client.get(url).content.decode()
    assert 'name="screened_out_code"' in page and "Screened-out code" in page
    from annotations.forms.settings import CampaignDesignForm

    data = {
        name: value
        for name, value in CampaignDesignForm(instance=c).initial.items()
        if value is not None and name in CampaignDesignForm.base_fields
    }
    data = {k: v for k, v in data.items() if v is not False}
    data["screened_out_code"] = "NEWSCREEN"
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    c.refresh_from_db()
    assert c.screened_out_code == "NEWSCREEN"
