"""The criteria API (annotations/apis/criteria.py) refuses another campaign's output as the standard."""

from __future__ import annotations

import pytest

from tests.annotations.designer_data import judged_campaign

pytestmark = pytest.mark.django_db


def test_an_output_of_another_campaign_is_refused_as_the_standard(people, owner_api):
    mine = judged_campaign(owner=people["owner"], slug="mine", n_items=1, n_workers=1)
    other = judged_campaign(owner=people["outsider"], slug="other", n_items=1, n_workers=1)
    client = owner_api
    foreign = other.items.get().outputs.first()
    assert foreign is not None
    created = client.post(
        f"/api/campaigns/{mine.slug}/criteria/",
        {"preset": "naturalness", "standard_output": foreign.pk},
        format="json",
    )
    assert created.status_code == 400
    assert "Choose the standard among this campaign" in created.text
    assert list(created.json()["fields"]) == ["standard_output"]
    assert not mine.criteria.filter(name="naturalness").exists()
