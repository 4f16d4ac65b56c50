"""The means API (ranking/apis/means.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.ranking.means_data import _member, rated_campaign

pytestmark = pytest.mark.django_db


def test_the_api(client, django_user_model):
    campaign, _, given = rated_campaign(n=6)
    client.force_login(_member(django_user_model, campaign))
    data = client.get(f"/api/campaigns/{campaign.slug}/means/?confidence=0.9").json()
    (block,) = data["criteria"]
    assert block["columns"] == ["de", "fr", "all"]
    good = next(s for s in block["systems"] if s["system"] == "good")
    assert good["cells"]["de"]["mean"] == pytest.approx(np.mean(given[("good", "de")]), abs=1e-6)
    assert good["cells"]["de"]["ratings"] == 6
    assert good["cells"]["de"]["rank_range"] is None
    bad = client.get(f"/api/campaigns/{campaign.slug}/means/?criterion=nope")
    assert bad.status_code == 400
    assert bad.json()["detail"] == f"Campaign '{campaign.slug}' has no criterion 'nope'."
    assert client.get(f"/api/campaigns/{campaign.slug}/means/?confidence=7").status_code == 400
