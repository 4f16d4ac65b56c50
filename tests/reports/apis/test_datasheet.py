"""The datasheet API (reports/apis/datasheet.py)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_api_get_and_patch(client, campaign):
    client.force_login(campaign.owner)
    url = f"/api/campaigns/{campaign.slug}/datasheet/"
    data = client.get(url).json()
    assert "5.1" in data["open"]
    resp = client.patch(url, {"answers": {"5.1": "Yes."}}, content_type="application/json")
    assert resp.status_code == 200 and "5.1" not in resp.json()["open"]
    bad = client.patch(url, {"answers": {"zz": "Yes."}}, content_type="application/json")
    assert bad.status_code == 400 and "zz" in bad.content.decode()
