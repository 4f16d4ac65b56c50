"""Every designer and ranking page, for every kind of user: anonymous -> login, outsider
-> 404, viewer reads but cannot change (403), designer changes."""

from __future__ import annotations

import sys
import types

import pytest
from django.urls import get_resolver, reverse

import ranking
from annotations.models import CampaignMembership
from ranking.models import RankingRun
from tests.annotations.designer_data import judged_world, users

Role = CampaignMembership.Role

# (url name, kwargs builder, method, role needed)
READ = "viewer"
WRITE = "designer"
OWN = "owner"


def _urls(c, run):
    crit = c.criteria.get()
    worker = c.workers.first()
    membership = c.memberships.exclude(user=c.owner).first()
    return [
        ("annotations:designer-campaign", [c.slug], "get", READ, {}),
        ("annotations:designer-settings", [c.slug], "get", READ, {}),
        ("annotations:designer-settings", [c.slug], "post", WRITE, {"name": "Renamed"}),
        ("annotations:designer-criteria", [c.slug], "get", READ, {}),
        ("annotations:designer-criteria", [c.slug], "post", WRITE, {"preset": "naturalness"}),
        ("annotations:designer-criterion", [c.slug, crit.pk], "get", WRITE, {}),
        ("annotations:designer-criterion", [c.slug, crit.pk], "post", WRITE, {"question": "Q?"}),
        ("annotations:designer-criterion-delete", [c.slug, crit.pk], "post", WRITE, {}),
        ("annotations:designer-plan", [c.slug], "get", READ, {}),
        ("annotations:designer-upload", [c.slug], "post", WRITE, {}),
        ("annotations:designer-build", [c.slug], "post", WRITE, {}),
        ("annotations:designer-launch", [c.slug], "post", WRITE, {}),
        ("annotations:designer-pause", [c.slug], "post", WRITE, {}),
        ("annotations:designer-close", [c.slug], "post", WRITE, {}),
        ("annotations:designer-monitor", [c.slug], "get", READ, {}),
        (
            "annotations:designer-worker-mark",
            [c.slug, worker.pk],
            "post",
            WRITE,
            {"action": "flag"},
        ),
        ("annotations:designer-members", [c.slug], "get", READ, {}),
        (
            "annotations:designer-members",
            [c.slug],
            "post",
            OWN,
            {"username": "outsider", "role": "viewer"},
        ),
        ("annotations:designer-member-remove", [c.slug, membership.pk], "post", OWN, {}),
        (
            "annotations:designer-export",
            [c.slug],
            "get",
            READ,
            {"criterion": crit.name, "format": "csv"},
        ),
        ("ranking:campaign-runs", [c.slug], "get", READ, {}),
        (
            "ranking:campaign-runs",
            [c.slug],
            "post",
            WRITE,
            {"criterion": crit.name, "method": "wmt14", "runs": 5, "seed": 1, "confidence": 0.95},
        ),
        ("ranking:run", [run.pk], "get", READ, {}),
        ("ranking:run-plot", [run.pk], "get", READ, {}),
        ("ranking:run-export", [run.pk, "csv"], "get", READ, {}),
    ]


@pytest.fixture
def world(db):
    return judged_world()


N_URLS = 25


@pytest.mark.parametrize("index", range(N_URLS))
@pytest.mark.parametrize("who", ["anonymous", "outsider", "viewer", "designer", "owner"])
def test_page_permissions(client, world, who, index, monkeypatch):
    # The URLconf imports the real modules first (run alone, this test would otherwise
    # import it while the fakes below stand in for them).
    get_resolver().url_patterns  # noqa: B018
    # Starting a run must not compute it here: only the permission matters.
    fake = types.ModuleType("ranking.services.runs")
    monkeypatch.setattr(
        fake,
        "ranking_run_create",
        lambda **kw: RankingRun.objects.create(campaign=kw["campaign"], criterion=kw["criterion"]),
        raising=False,
    )
    monkeypatch.setitem(sys.modules, "ranking.services.runs", fake)
    monkeypatch.setattr(ranking, "services", fake, raising=False)
    tasks = types.ModuleType("annotations.services.tasks")
    monkeypatch.setattr(tasks, "tasks_build", lambda **kw: None, raising=False)
    monkeypatch.setitem(sys.modules, "annotations.services.tasks", tasks)
    people, campaign, run = world
    urls = _urls(campaign, run)
    assert len(urls) == N_URLS
    name, args, method, needed, data = urls[index]
    url = reverse(name, args=args)
    if who != "anonymous":
        client.force_login(people[who])
    response = getattr(client, method)(url, data)
    if who == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
        return
    if who == "outsider":
        assert response.status_code == 404
        return
    order = {"viewer": 1, "designer": 2, "owner": 3}
    allowed = order[who] >= order[needed]
    if not allowed:
        assert response.status_code == 403
    else:
        # Allowed: a page, a redirect after a change, a download, or a domain refusal (400).
        assert response.status_code in (200, 302, 400), (name, response.status_code)


def test_account_page_needs_login_and_shows_token(client, db):
    people = users()
    url = reverse("annotations:designer-account")
    assert client.get(url).status_code == 302
    client.force_login(people["viewer"])
    assert "You have no API token (a new password revokes it)" in client.get(url).content.decode()
    client.post(url)
    from rest_framework.authtoken.models import Token

    token = Token.objects.get(user=people["viewer"])
    assert token.key in client.get(url).content.decode()


def test_new_campaign_needs_login(client, db):
    response = client.get(reverse("annotations:designer-new"))
    assert response.status_code == 302
