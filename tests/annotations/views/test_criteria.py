"""The criteria pages (annotations/views/criteria.py): presets, custom scales, the standard."""

from __future__ import annotations

from django.urls import reverse

from annotations.models import Criterion
from tests.annotations.views.new_campaign import _campaign


def test_criteria_from_preset_and_custom_likert(owner_client):
    campaign = _campaign(owner_client)
    url = reverse("annotations:designer-criteria", args=[campaign.slug])
    assert owner_client.post(url, {"preset": "naturalness"}).status_code == 302
    response = owner_client.post(
        url,
        {
            "name": "clarity",
            "question": "How clear is it?",
            "scale": "likert",
            "show_input": "on",
            "levels": "1 | bad | Unclear\n2 | ok | Clear enough\n3 | good | Crystal clear",
        },
    )
    assert response.status_code == 302
    natural = campaign.criteria.get(name="naturalness")
    assert natural.show_input is False and natural.scale == Criterion.Scale.MAGNITUDE
    clarity = campaign.criteria.get(name="clarity")
    assert [lv["value"] for lv in clarity.likert_levels] == [1, 2, 3]
    assert clarity.likert_levels[2]["descriptor"] == "Crystal clear"
    # Missing fields without a preset are a form error, not a crash.
    response = owner_client.post(url, {"name": "x"})
    assert response.status_code == 200
    assert campaign.criteria.count() == 2


def test_edit_criterion_changes_standard(owner_client):
    campaign = _campaign(owner_client)
    owner_client.post(
        reverse("annotations:designer-criteria", args=[campaign.slug]), {"preset": "quality"}
    )
    criterion = campaign.criteria.get()
    url = reverse("annotations:designer-criterion", args=[campaign.slug, criterion.pk])
    page = owner_client.get(url)
    assert E2E_WORD in page.content.decode()
    response = owner_client.post(
        url,
        {"name": "quality", "question": "Better?", "scale": "magnitude", "standard": 50},
    )
    assert response.status_code == 302
    criterion.refresh_from_db()
    assert criterion.question == "Better?" and criterion.standard == 50


E2E_WORD = "grammatical correctness"
