"""The campaigns API (annotations/apis/campaigns.py): who may do what (every API of a
campaign at once), a campaign set up through the API, its progress, a clone and a delete
(its lifecycle: test_lifecycle.py)."""

from __future__ import annotations

import sys
import types

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from annotations.models import Campaign, CampaignMembership
from annotations.services.campaigns import campaign_close
from ranking.models import RankingRun
from ranking.services.runs import RunStarted
from tests.annotations.designer_data import add_member, judged_campaign

pytestmark = pytest.mark.django_db


ORDER = {"viewer": 1, "designer": 2, "owner": 3}


@pytest.fixture
def stubs(monkeypatch):
    """Permission tests check access, not the task design or the ranking engine."""
    # The URLconf imports the real module: load it before the stub takes its place.
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018
    tasks = types.ModuleType("annotations.services.tasks")
    monkeypatch.setattr(tasks, "tasks_build", lambda **kw: {"tasks": 0}, raising=False)
    monkeypatch.setitem(sys.modules, "annotations.services.tasks", tasks)
    monkeypatch.setattr(
        "ranking.apis.runs.ranking_run_start",
        lambda **kw: RunStarted(
            run=RankingRun.objects.create(campaign=kw["campaign"], criterion=kw["criterion"]),
            created=True,
        ),
    )


def _endpoints(c, run):
    crit = c.criteria.get()
    worker = c.workers.first()
    s = c.slug
    return [
        ("get", f"/api/campaigns/{s}/", READ, None),
        ("patch", f"/api/campaigns/{s}/", WRITE, {"instructions": "Be careful."}),
        ("get", f"/api/campaigns/{s}/criteria/", READ, None),
        ("post", f"/api/campaigns/{s}/criteria/", WRITE, {"preset": "fluency"}),
        ("get", f"/api/campaigns/{s}/criteria/{crit.pk}/", READ, None),
        ("patch", f"/api/campaigns/{s}/criteria/{crit.pk}/", WRITE, {"question": "Q?"}),
        ("delete", f"/api/campaigns/{s}/criteria/{crit.pk}/", WRITE, None),
        ("get", f"/api/campaigns/{s}/systems/", READ, None),
        ("post", f"/api/campaigns/{s}/outputs/", WRITE, {}),
        ("post", f"/api/campaigns/{s}/build/", WRITE, {}),
        ("post", f"/api/campaigns/{s}/launch/", WRITE, None),
        ("post", f"/api/campaigns/{s}/pause/", WRITE, None),
        ("post", f"/api/campaigns/{s}/close/", WRITE, None),
        ("get", f"/api/campaigns/{s}/progress/", READ, None),
        ("get", f"/api/campaigns/{s}/workers/", READ, None),
        ("get", f"/api/campaigns/{s}/workers/{worker.pk}/", READ, None),
        ("patch", f"/api/campaigns/{s}/workers/{worker.pk}/", WRITE, {"flagged": True}),
        ("get", f"/api/campaigns/{s}/judgements/", READ, None),
        ("get", f"/api/campaigns/{s}/export/?criterion={crit.name}&fmt=jsonl", READ, None),
        ("get", f"/api/campaigns/{s}/rankings/", READ, None),
        ("post", f"/api/campaigns/{s}/rankings/", WRITE, {"criterion": crit.name, "runs": 5}),
        ("get", f"/api/rankings/{run.pk}/", READ, None),
        ("get", f"/api/rankings/{run.pk}/result/", READ, None),
        ("get", f"/api/rankings/{run.pk}/export/markdown/", READ, None),
    ]


READ, WRITE = "viewer", "designer"


N = 24


@pytest.mark.parametrize("index", range(N))
@pytest.mark.parametrize("who", ["anonymous", "outsider", "viewer", "designer"])
def test_api_permissions(world, stubs, who, index):
    people, campaign, run = world
    endpoints = _endpoints(campaign, run)
    assert len(endpoints) == N
    method, url, needed, data = endpoints[index]
    client = APIClient()
    if who != "anonymous":
        token = Token.objects.create(user=people[who])
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = (
        getattr(client, method)(url, data, format="json")
        if data is not None
        else getattr(client, method)(url)
    )
    if who == "anonymous":
        assert response.status_code == 401
    elif who == "outsider":
        assert response.status_code == 404
    elif ORDER[who] < ORDER[needed]:
        assert response.status_code == 403
        assert "designer role" in response.json()["detail"]
    else:
        assert response.status_code in (200, 201, 204, 400), (url, response.status_code)
        if response.status_code == 400:
            assert "detail" in response.json() or response.json()


def test_create_campaign_upload_and_criteria_flow(world, api_as):
    people, _, _ = world
    client = api_as(people["owner"])
    created = client.post(
        "/api/campaigns/", {"slug": "api-made", "name": "API made"}, format="json"
    )
    assert created.status_code == 201 and created.json()["status"] == "draft"
    csv_text = b"item_id,input,system,output\n1,name[A],s1,A is.\n1,name[A],s2,A was.\n"
    upload = client.post(
        "/api/campaigns/api-made/outputs/",
        {"files": [SimpleUploadedFile("o.csv", csv_text)]},
        format="multipart",
    )
    assert upload.status_code == 201, upload.content
    assert upload.json()[0]["outputs"] == 2 and upload.json()[0]["file"] == "o.csv"
    crit = client.post("/api/campaigns/api-made/criteria/", {"preset": "grammar"}, format="json")
    assert crit.status_code == 201 and crit.json()["scale"] == "likert"
    systems = client.get("/api/campaigns/api-made/systems/").json()
    assert [s["label"] for s in systems["results"]] == ["s1", "s2"]
    assert all(s["outputs"] == 1 for s in systems["results"])


def test_progress(designer_api):
    client, campaign, _ = designer_api
    progress = client.get(f"/api/campaigns/{campaign.slug}/progress/").json()
    assert progress["criteria"][0] == {
        **progress["criteria"][0],
        "criterion": "quality",
        "planned": 12,
        "collected": 12,
    }
    assert progress["comparisons"]["quality"]["alpha"]["beta"] == 12
    assert -1 <= progress["agreement"][0]["preference_alpha"] <= 1
    assert -1 <= progress["agreement"][0]["inter_kappa"] <= 1
    assert "intra_kappa" in progress["agreement"][0]


def test_clone_and_delete(people, owner_api, api_as):
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=1)
    add_member(campaign, people["designer"], CampaignMembership.Role.DESIGNER)
    campaign_close(campaign=campaign)
    designer, owner = api_as(people["designer"]), owner_api
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
