"""The REST API does what the designer pages do: a magnitude criterion's standard (so a
RankME campaign can be launched through the API alone), archive, clone, delete, members
and payments, each through the pages' services."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from annotations.models import Campaign, CampaignMembership
from tests.annotations.designer_data import add_member, judged_campaign, users

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return users()


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_magnitude_campaign_is_set_up_and_launched_through_the_api_alone(people):
    client = _client(people["owner"])
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


def test_an_output_of_another_campaign_is_refused_as_the_standard(people):
    mine = judged_campaign(owner=people["owner"], slug="mine", n_items=1, n_workers=1)
    other = judged_campaign(owner=people["outsider"], slug="other", n_items=1, n_workers=1)
    client = _client(people["owner"])
    foreign = other.items.get().outputs.first()
    assert foreign is not None
    created = client.post(
        f"/api/campaigns/{mine.slug}/criteria/",
        {"preset": "naturalness", "standard_output": foreign.pk},
        format="json",
    )
    assert created.status_code == 400
    assert "choose an output of this campaign" in created.text
    assert not mine.criteria.filter(name="naturalness").exists()


def test_archive_clone_and_delete(people):
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=1)
    add_member(campaign, people["designer"], CampaignMembership.Role.DESIGNER)
    designer, owner = _client(people["designer"]), _client(people["owner"])
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


def test_members_list_add_remove_owners_only(people):
    campaign = judged_campaign(owner=people["owner"], n_items=1, n_workers=1)
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    viewer, owner = _client(people["viewer"]), _client(people["owner"])
    url = f"/api/campaigns/{campaign.slug}/members/"
    listed = viewer.get(url).json()
    assert [(m["username"], m["role"]) for m in listed] == [
        ("owner", "owner"),
        ("viewer", "viewer"),
    ]
    assert viewer.post(url, {"username": "designer", "role": "designer"}).status_code == 403
    added = owner.post(url, {"username": "designer", "role": "designer"}, format="json")
    assert added.status_code == 200 and added.json()["role"] == "designer"
    unknown = owner.post(url, {"username": "nobody", "role": "viewer"}, format="json")
    assert unknown.status_code == 400 and "no user 'nobody'" in unknown.text
    member = campaign.memberships.get(user=people["designer"])
    assert owner.delete(f"{url}{member.pk}/").status_code == 204
    own = campaign.memberships.get(user=people["owner"])
    assert owner.delete(f"{url}{own.pk}/").status_code == 400


def test_payments_are_read_as_the_page_shows_them(people):
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=2)
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    rows = _client(people["viewer"]).get(f"/api/campaigns/{campaign.slug}/payments/").json()
    assert len(rows) == 2
    # Workers without quality checks get no suggestion (the organizer decides).
    assert {r["suggestion"] for r in rows} <= {"approved", "rejected", "review", ""}
    assert all(r["decision"] == "" and r["pages"] == 2 for r in rows)
