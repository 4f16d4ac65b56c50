"""The adaptive design API (ranking/apis/adaptive.py)."""

from __future__ import annotations

import json
import re

import pytest

from annotations.models import (
    Campaign,
)
from tests.ranking.adaptive_data import _member, adaptive_campaign, judge_all

pytestmark = pytest.mark.django_db


def test_the_api(client, django_user_model):
    campaign = adaptive_campaign()
    judge_all(campaign)
    url = f"/api/campaigns/{campaign.slug}/adaptive/"
    client.force_login(_member(django_user_model, campaign, "viewer"))
    assert client.get(url).json()["criteria"][0]["open_places"] == 0
    assert (
        client.post(url, {"criterion": "quality"}, content_type="application/json").status_code
        == 403
    )
    client.force_login(_member(django_user_model, campaign, "designer"))
    made = client.post(url, {"criterion": "quality"}, content_type="application/json")
    assert made.status_code == 201 and made.json()["tasks"] == 20
    body = client.get(url).json()
    assert body["criteria"][0]["batches"][0]["number"] == 1
    bad = client.post(url, {"criterion": "nope"}, content_type="application/json")
    assert bad.status_code == 400
    assert bad.json()["detail"] == f"Campaign '{campaign.slug}' has no criterion 'nope'."
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.CLOSED)
    closed = client.post(url, {"criterion": "quality"}, content_type="application/json")
    assert closed.status_code == 400 and "live" in closed.content.decode()


BATCH = {
    "number": 1,
    "created_at": "<when>",
    "trigger": "manual",
    "seed": [5, 1, 1],
    "method": "bt-normal",
    "runs": 1000,
    "judgements": 30,
    "fingerprint": "b961e6b15831ed708b0eb12549e0bcf8add8a286525ce814c5d6ca11569e9cd0",
    "tasks": 20,
    "first_task_number": 31,
    "stable": False,
    "state": [
        {"label": "s0", "value": 1.844463, "sigma": 0.492569, "rank_lo": 1, "rank_hi": 2, "cluster": 1},
        {"label": "s1", "value": 1.808399, "sigma": 0.509429, "rank_lo": 1, "rank_hi": 2, "cluster": 1},
        {"label": "s2", "value": 0.131975, "sigma": 0.402717, "rank_lo": 3, "rank_hi": 4, "cluster": 2},
        {"label": "s3", "value": -0.112383, "sigma": 0.399355, "rank_lo": 3, "rank_hi": 4, "cluster": 2},
        {"label": "s4", "value": -2.025405, "sigma": 0.53633, "rank_lo": 5, "rank_hi": 6, "cluster": 3},
        {"label": "s5", "value": -1.647049, "sigma": 0.479183, "rank_lo": 5, "rank_hi": 6, "cluster": 3},
    ],
    "decision": {
        "tasks": 20,
        "minimum": 3,
        "contested_gaps": ["s0 | s1", "s2 | s3", "s5 | s4"],
        "boundary_systems": ["s4", "s1", "s0", "s5", "s2", "s3"],
        "quota": {"s0": 11, "s1": 11, "s2": 8, "s3": 8, "s4": 11, "s5": 11},
        "unplaced": 0,
    },
}  # fmt: skip

#: ``datetime.isoformat()``: microseconds and ``+00:00``, not DRF's ``Z``
WHEN = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00")


#: The batch's parts drawn from its seed (and so from the criterion's database id).
DRAWN = ("seed", "state", "decision")


def _shape(value: object) -> object:
    """Keys in their order and JSON types, values left out."""
    if isinstance(value, dict):
        return [(key, _shape(item)) for key, item in value.items()]
    if isinstance(value, list):
        return [_shape(item) for item in value]
    return type(value).__name__


def _when_out(text: str) -> str:
    """The JSON text with each batch's time, checked for its format, taken out."""
    assert WHEN.search(text), text
    return WHEN.sub("<when>", text)


def test_the_api_answers_in_the_same_json_it_always_did(client, django_user_model):
    """Every key, its place and its number type, before and after a batch."""
    campaign = adaptive_campaign()
    # noisy enough for a Bradley-Terry refit to draw boundaries (see ``judge_all``)
    judge_all(campaign, noise=40)
    url = f"/api/campaigns/{campaign.slug}/adaptive/"
    client.force_login(_member(django_user_model, campaign, "designer"))
    before = {
        "adaptive_design": True,
        "batch_tasks": 20,
        "problem": None,
        "stable_refits": 3,
        "stable_span": 320,  # ceil(160 shows x 6 systems / 3 outputs per task)
        "criteria": [{"criterion": "quality", "open_places": 0, "stable": False, "batches": []}],
    }
    assert client.get(url).content.decode() == json.dumps(before, separators=(",", ":"))
    made = client.post(url, {"criterion": "quality"}, content_type="application/json")
    batch = json.loads(_when_out(made.content.decode()))
    # The refit's seed holds the criterion's id (1 on a fresh SQLite database, another
    # number where sequences carry on, as on PostgreSQL), and the refit's numbers follow
    # it: those are pinned by shape (every key, its place, its JSON type), the rest exactly.
    criterion = campaign.criteria.get()
    assert batch["seed"] == [5, criterion.pk, 1]
    assert _shape(batch) == _shape(BATCH)
    assert {k: v for k, v in batch.items() if k not in DRAWN} == {
        k: v for k, v in BATCH.items() if k not in DRAWN
    }
    criterion_after = {
        "criterion": "quality",
        "open_places": 20,
        "stable": False,
        "batches": [batch],
    }
    again = json.loads(_when_out(client.get(url).content.decode()))
    assert list(again) == list(before) and list(again["criteria"][0]) == list(criterion_after)
    # The stored batch as posted (PostgreSQL's jsonb keeps its keys in an order of its own).
    assert again == {**before, "criteria": [criterion_after]}
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.CLOSED)
    closed = client.get(url).json()
    assert closed["problem"] and "live" in closed["problem"]


def test_a_post_retried_with_after_adds_one_batch(client, django_user_model):
    """``after`` (the latest batch the client saw) makes a retried POST safe: the second
    send answers 409 naming what changed and adds nothing; a bad ``after`` is a 400."""
    from ranking.models import AdaptiveBatch

    campaign = adaptive_campaign()
    judge_all(campaign)
    url = f"/api/campaigns/{campaign.slug}/adaptive/"
    client.force_login(_member(django_user_model, campaign, "designer"))
    body = {"criterion": "quality", "after": 0}
    made = client.post(url, body, content_type="application/json")
    assert made.status_code == 201 and made.json()["number"] == 1
    again = client.post(url, body, content_type="application/json")
    assert again.status_code == 409
    error = again.json()
    assert error["code"] == "conflict" and "has 1 batch now, not 0" in error["detail"]
    assert list(error["fields"]) == ["after"]
    assert AdaptiveBatch.objects.count() == 1
    ahead = client.post(url, {"criterion": "quality", "after": 5}, content_type="application/json")
    assert ahead.status_code == 400 and "not more" in ahead.json()["fields"]["after"][0]
    for bad in (-1, "x", 10**12):
        refused = client.post(
            url, {"criterion": "quality", "after": bad}, content_type="application/json"
        )
        assert refused.status_code == 400 and "after" in refused.json()["fields"]
    assert AdaptiveBatch.objects.count() == 1
    nxt = client.post(url, {"criterion": "quality", "after": 1}, content_type="application/json")
    assert nxt.status_code == 201 and nxt.json()["number"] == 2
