"""The ranking API's exclusion switch is named for what it does: it leaves out EXCLUDED
workers (``exclude_excluded_workers``); ``exclude_flagged`` is a deprecated alias."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from ranking.models import RankingRun
from tests.annotations.designer_data import judged_campaign, users

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=4, n_workers=3)
    client = APIClient()
    client.force_authenticate(people["owner"])
    return client, campaign


def _post(client, campaign, **fields):
    return client.post(
        f"/api/campaigns/{campaign.slug}/rankings/",
        {"criterion": "quality", "runs": 10, **fields},
        format="json",
    )


def test_exclude_excluded_workers_leaves_out_excluded_not_flagged_workers(
    api, django_capture_on_commit_callbacks
):
    client, campaign = api
    flagged, excluded, _ = campaign.workers.order_by("id")
    flagged.flagged = True
    flagged.save(update_fields=["flagged"])
    excluded.excluded = True
    excluded.save(update_fields=["excluded"])
    with django_capture_on_commit_callbacks(execute=True):
        created = _post(client, campaign, exclude_excluded_workers=True)
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["exclude_excluded_workers"] is True and body["exclude_flagged"] is True
    run = RankingRun.objects.get(pk=body["id"])
    per_worker = campaign.criteria.get().judgements.filter(worker=flagged).count()
    # Two workers' judgements: the flagged worker's stay in, the excluded one's go.
    assert run.n_judgements == 2 * per_worker


def test_the_new_name_and_the_deprecated_alias_write_the_same_switch(api):
    client, campaign = api
    new = _post(client, campaign, exclude_excluded_workers=False)
    # Another seed: the same request again would get the first run back (a retry).
    old = _post(client, campaign, exclude_flagged=False, seed=2)
    assert new.status_code == old.status_code == 201, (new.content, old.content)
    assert RankingRun.objects.get(pk=new.json()["id"]).exclude_flagged is False
    assert RankingRun.objects.get(pk=old.json()["id"]).exclude_flagged is False
    both = _post(client, campaign, exclude_flagged=True, exclude_excluded_workers=False)
    assert both.status_code == 400
    assert "deprecated alias" in both.json()["fields"]["exclude_flagged"][0]


def test_the_schema_says_what_each_name_does(api):
    client, _ = api
    schema = client.get("/api/schema/?format=json").json()
    props = schema["components"]["schemas"]["RankingRun"]["properties"]
    assert "Flagged workers are NOT left out" in props["exclude_excluded_workers"]["description"]
    alias = props["exclude_flagged"]
    assert alias["deprecated"] is True
    assert "leaves out EXCLUDED workers, not flagged ones" in alias["description"]
