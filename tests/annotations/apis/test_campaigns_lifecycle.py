"""A campaign set up, launched, archived, cloned and deleted through the API alone
(annotations/apis/campaigns.py)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from annotations.models import Campaign, CampaignMembership
from tests.annotations.designer_data import add_member, judged_campaign

pytestmark = pytest.mark.django_db


def test_a_magnitude_campaign_is_set_up_and_launched_through_the_api_alone(people, owner_api):
    client = owner_api
    made = client.post("/api/campaigns/", {"slug": "rankme", "name": "R"}, format="json")
    assert made.status_code == 201
    settings = {"consent_text": "I agree.", "outputs_per_task": 3}
    consent = client.patch("/api/campaigns/rankme/", settings, format="json")
    assert consent.status_code == 200, consent.content
    rows = "".join(f"{i},name[P{i}],s{s},P{i} by s{s}.\n" for i in range(3) for s in range(3))
    upload = client.post(
        "/api/campaigns/rankme/outputs/",
        {"files": [SimpleUploadedFile("o.csv", b"item_id,input,system,output\n" + rows.encode())]},
        format="multipart",
    )
    assert upload.status_code == 201, upload.content
    created = client.post(
        "/api/campaigns/rankme/criteria/",
        {"preset": "quality", "standard_input": "name[Std]", "standard_text": "Std is a pub."},
        format="json",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["scale"] == "magnitude" and body["standard_text"] == "Std is a pub."
    # An uploaded output as the standard instead: its input and text are copied.
    output = Campaign.objects.get(slug="rankme").items.get(external_id="2").outputs.first()
    assert output is not None
    changed = client.patch(
        f"/api/campaigns/rankme/criteria/{body['id']}/",
        {"standard_output": output.pk},
        format="json",
    )
    assert changed.status_code == 200, changed.content
    assert changed.json()["standard_input"] == "name[P2]"
    assert changed.json()["standard_text"] == output.text
    built = client.post("/api/campaigns/rankme/build/", {"seed": 1}, format="json")
    assert built.status_code == 200, built.content
    launched = client.post("/api/campaigns/rankme/launch/")
    assert launched.status_code == 200, launched.content
    assert launched.json()["status"] == "live"


def test_archive_clone_and_delete(people, owner_api, api_as):
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=1)
    add_member(campaign, people["designer"], CampaignMembership.Role.DESIGNER)
    designer, owner = api_as(people["designer"]), owner_api
    assert designer.post(f"/api/campaigns/{campaign.slug}/archive/").status_code == 400
    assert designer.post(f"/api/campaigns/{campaign.slug}/close/").status_code == 200
    archived = designer.post(f"/api/campaigns/{campaign.slug}/archive/")
    assert archived.status_code == 200 and archived.json()["status"] == "archived"
    assert designer.post(f"/api/campaigns/{campaign.slug}/unarchive/").json()["status"] == "closed"
    clone = designer.post(
        f"/api/campaigns/{campaign.slug}/clone/", {"slug": "round-2"}, format="json"
    )
    assert clone.status_code == 201, clone.content
    copy = Campaign.objects.get(slug="round-2")
    assert copy.status == "draft" and copy.owner == people["designer"]
    assert copy.criteria.get().standard_text == campaign.criteria.get().standard_text
    # Only owners delete.
    refused = designer.delete(f"/api/campaigns/{campaign.slug}/")
    assert refused.status_code == 403
    assert owner.delete(f"/api/campaigns/{campaign.slug}/").status_code == 204
    assert not Campaign.objects.filter(slug=campaign.slug).exists()
