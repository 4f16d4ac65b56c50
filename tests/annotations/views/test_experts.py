"""The crowd-versus-experts page, its CSV, the monitor's panel, marking experts, and the
API, as organizers use them."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from annotations.models import CampaignMembership, Worker
from tests.annotations.designer_data import users
from tests.annotations.experts_data import experts_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    people = users()
    campaign, criterion = experts_campaign()
    for name, role in (
        ("owner", CampaignMembership.Role.OWNER),
        ("designer", CampaignMembership.Role.DESIGNER),
        ("viewer", CampaignMembership.Role.VIEWER),
    ):
        CampaignMembership.objects.create(campaign=campaign, user=people[name], role=role)
    return people, campaign, criterion


def test_page_shows_each_worker_with_an_interval_and_the_ranking_correlation(client, world):
    people, campaign, _ = world
    client.force_login(people["viewer"])
    url = reverse("annotations:designer-experts", args=[campaign.slug])
    page = client.get(url).content.decode()
    assert "2 experts" in page
    assert page.index("careless") < page.index("careful")  # least agreeing first
    assert "Spearman ρ <strong>1.000</strong>" in page  # noqa: RUF001
    assert "Exclude these workers" not in page  # a viewer cannot exclude
    assert client.post(url, {"criterion": "quality", "threshold": "0.5"}).status_code == 403
    assert not Worker.objects.filter(excluded=True).exists()
    assert client.get(url + "?criterion=nope").status_code == 404


def test_designer_excludes_below_a_threshold_and_sees_who(client, world):
    people, campaign, _ = world
    client.force_login(people["designer"])
    url = reverse("annotations:designer-experts", args=[campaign.slug])
    response = client.post(
        url, {"criterion": "quality", "threshold": "0.5", "min_units": "10"}, follow=True
    )
    page = response.content.decode()
    assert "1 worker excluded: careless." in page
    assert list(Worker.objects.filter(excluded=True).values_list("external_id", flat=True)) == [
        "careless"
    ]
    bad = client.post(url, {"criterion": "quality", "threshold": "lots"}, follow=True)
    assert bad.status_code == 200 and "Threshold: enter a number." in bad.content.decode()
    high = client.post(url, {"criterion": "quality", "threshold": "3"}, follow=True)
    assert "a number from -1 to 1" in high.content.decode()


def test_csv_download(client, world):
    people, campaign, _ = world
    client.force_login(people["viewer"])
    response = client.get(
        reverse("annotations:designer-experts-export", args=[campaign.slug]) + "?criterion=quality"
    )
    assert response.status_code == 200
    assert 'filename="experts-quality-experts.csv"' in response["Content-Disposition"]
    assert (
        response.content.decode()
        .splitlines()[1]
        .startswith("quality,alpha_with_expert_consensus,careless,80,")
    )


def test_monitor_offers_the_report_and_workers_can_be_marked_experts(client, world):
    people, campaign, _ = world
    client.force_login(people["designer"])
    monitor = client.get(reverse("annotations:designer-monitor", args=[campaign.slug]))
    page = monitor.content.decode()
    assert 'id="experts-panel"' in page
    assert reverse("annotations:designer-experts", args=[campaign.slug]) in page
    careful = Worker.objects.get(external_id="careful")
    mark = reverse("annotations:designer-worker-mark", args=[campaign.slug, careful.pk])
    client.post(mark, {"action": "expert"})
    assert Worker.objects.get(pk=careful.pk).expert
    row = client.post(mark, {"action": "unexpert"}, HTTP_HX_REQUEST="true").content.decode()
    assert not Worker.objects.get(pk=careful.pk).expert
    assert ">Expert<" in row  # the button offers to mark them again


def test_api_reports_marks_and_excludes(world):
    people, campaign, _ = world
    api = APIClient()
    api.force_authenticate(people["designer"])
    base = f"/api/campaigns/{campaign.slug}/experts/"
    report = api.get(base, {"criterion": "quality"}).json()
    assert report["experts"] == 2
    assert [w["worker"] for w in report["workers"]] == ["careless", "careful"]
    assert report["spearman"]["value"] == pytest.approx(1.0)
    assert report["workers"][0]["alpha"]["low"] <= report["workers"][0]["alpha"]["value"]
    assert api.get(base, {"criterion": "nope"}).status_code == 404
    refused = api.post(base, {"criterion": "quality", "threshold": 5}, format="json")
    assert refused.status_code == 400 and "threshold" in str(refused.json())
    done = api.post(base, {"criterion": "quality", "threshold": 0.5}, format="json")
    assert [w["external_id"] for w in done.json()] == ["careless"]
    careful = Worker.objects.get(external_id="careful")
    patched = api.patch(
        f"/api/campaigns/{campaign.slug}/workers/{careful.pk}/", {"expert": True}, format="json"
    )
    assert patched.json()["expert"] is True
    viewer = APIClient()
    viewer.force_authenticate(people["viewer"])
    assert viewer.get(base, {"criterion": "quality"}).status_code == 200
    assert viewer.post(base, {"criterion": "quality", "threshold": 0.5}).status_code == 403
