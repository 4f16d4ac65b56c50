"""The lifecycle API (annotations/apis/lifecycle.py): a campaign set up, built and
launched through the API alone, then paused, closed, archived and unarchived."""

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


def test_launch_pause_and_close(designer_api):
    client, campaign, _ = designer_api
    assert client.post(f"/api/campaigns/{campaign.slug}/launch/").json()["status"] == "live"
    assert client.post(f"/api/campaigns/{campaign.slug}/pause/").json()["status"] == "paused"
    assert client.post(f"/api/campaigns/{campaign.slug}/close/").json()["status"] == "closed"
    assert Campaign.objects.get(pk=campaign.pk).status == "closed"


def test_archive_and_unarchive(people, api_as):
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=1)
    add_member(campaign, people["designer"], CampaignMembership.Role.DESIGNER)
    designer = api_as(people["designer"])
    assert designer.post(f"/api/campaigns/{campaign.slug}/archive/").status_code == 400
    assert designer.post(f"/api/campaigns/{campaign.slug}/close/").status_code == 200
    archived = designer.post(f"/api/campaigns/{campaign.slug}/archive/")
    assert archived.status_code == 200 and archived.json()["status"] == "archived"
    assert designer.post(f"/api/campaigns/{campaign.slug}/unarchive/").json()["status"] == "closed"
