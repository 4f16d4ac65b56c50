"""GET/PATCH /api/campaigns/<slug>/languages/: the same services as the Languages page."""

from __future__ import annotations

import pytest

from annotations.models import CampaignMembership
from annotations.services.criteria import criterion_from_preset
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(client, django_user_model):
    campaign = CampaignFactory(languages=["en", "de"], instructions="Rate.")
    criterion_from_preset(campaign=campaign, preset="fluency")
    designer = django_user_model.objects.create_user("d", password="pw-123456789")
    viewer = django_user_model.objects.create_user("v", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=designer, role="designer")
    CampaignMembership.objects.create(campaign=campaign, user=viewer, role="viewer")
    return client, campaign, designer, viewer


def test_get_lists_languages_translations_and_what_is_missing(setup):
    client, campaign, _, viewer = setup
    client.force_login(viewer)
    body = client.get(f"/api/campaigns/{campaign.slug}/languages/").json()
    assert body["languages"] == ["en", "de"] and body["quotas"] == {}
    assert body["translations"] == {"de": {"campaign": {}, "criteria": {}}}
    assert body["missing"]["de"] == {
        "campaign": ["name", "instructions"],
        "criteria": {"fluency": ["question", "levels 1, 2, 3, 4, 5"]},
    }


def test_patch_sets_all_or_nothing(setup):
    client, campaign, designer, viewer = setup
    url = f"/api/campaigns/{campaign.slug}/languages/"
    change = {
        "languages": ["en", "de", "es"],
        "quotas": {"de": 30},
        "translations": {
            "de": {
                "campaign": {"name": "Studie", "instructions": "Bewerten."},
                "criteria": {
                    "fluency": {"question": "Wie flüssig?", "levels": ["1", "2", "3", "4", "5"]}
                },
            }
        },
    }
    client.force_login(viewer)
    assert client.patch(url, change, content_type="application/json").status_code == 403
    client.force_login(designer)
    response = client.patch(url, change, content_type="application/json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["languages"] == ["en", "de", "es"] and body["quotas"] == {"de": 30}
    assert body["translations"]["de"]["criteria"]["fluency"]["question"] == "Wie flüssig?"
    assert body["missing"]["de"] == {"campaign": [], "criteria": {}}
    assert body["missing"]["es"]["campaign"] == ["name", "instructions"]
    # A bad part refuses the whole: the language list is not changed either.
    bad = {
        "languages": ["en", "de"],
        "translations": {"de": {"criteria": {"nope": {"question": "q"}}}},
    }
    response = client.patch(url, bad, content_type="application/json")
    assert response.status_code == 400 and "nope" in response.content.decode()
    # A sentence listed under its field (was "Translations: 'de': no criterion 'nope'.",
    # under no field).
    assert response.json()["fields"] == {
        "translations": [
            "The translations into 'de' name a criterion the campaign does not have: 'nope'."
        ]
    }
    campaign.refresh_from_db()
    assert campaign.languages == ["en", "de", "es"]
    response = client.patch(url, {"quotas": {"de": -2}}, content_type="application/json")
    assert response.status_code == 400
    response = client.patch(url, {"quotas": {"it": 2}}, content_type="application/json")
    assert response.json()["fields"] == {
        "quotas.it": ["A quota is given for 'it', which is not one of the campaign's languages."]
    }
