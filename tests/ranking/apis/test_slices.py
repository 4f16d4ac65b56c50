"""The slices API (ranking/apis/slices.py): a criterion's runs on each value side by side."""

from __future__ import annotations

import pytest

from annotations.models import CampaignMembership
from ranking.selectors import runs as selectors
from ranking.services import compute
from ranking.services import runs as services
from tests.ranking.sliced_campaign import _sliced

pytestmark = pytest.mark.django_db


def test_the_api_shows_slices_side_by_side(client, django_user_model) -> None:
    campaign, criterion = _sliced(40)
    user = django_user_model.objects.create_user("viewer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="viewer")
    client.force_login(user)
    for where in ({}, {"challenge_set": "b"}):
        run = services.ranking_run_create(
            campaign=campaign, criterion=criterion, queue=False, where=where, runs=20
        )
        compute.ranking_run_compute(run=run, fan_out=False)
    url = f"/api/campaigns/{campaign.slug}/rankings/slices/"
    body = client.get(url, {"criterion": criterion.name, "by": "challenge_set"}).json()
    assert [s["slice"] for s in body["slices"]] == ["all items", "challenge_set=b"]
    assert body["not_ranked"] == ["a"]
    assert len(body["systems"]) == 3 and all(len(s["by_slice"]) == 2 for s in body["systems"])
    assert body["systems"][0]["system"] == "s0"
    bad = client.get(url, {"criterion": criterion.name, "by": "colour"})
    assert bad.status_code == 400
    assert bad.json()["detail"] == (
        f"by: no item of '{campaign.slug}' has the attribute 'colour' (its attributes: "
        "challenge_set, language)."
    )
    unknown = client.get(url, {"criterion": "nope", "by": "challenge_set"})
    assert unknown.status_code == 400
    said = f"Campaign '{campaign.slug}' has no criterion 'nope'."
    assert unknown.json()["detail"] == said  # no "criterion:" glued before the sentence
    assert unknown.json()["fields"] == {"criterion": [said]}


def test_the_api_answers_each_slice_and_each_systems_cells(client, django_user_model) -> None:
    """The whole answer's shape: a run per slice, and per system a cell per slice (null
    where the slice's run does not rank it)."""
    campaign, criterion = _sliced(40)
    user = django_user_model.objects.create_user("viewer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="viewer")
    client.force_login(user)
    made = []
    for where in ({"language": "de"}, {}):
        run = services.ranking_run_create(
            campaign=campaign, criterion=criterion, queue=False, where=where, runs=20
        )
        compute.ranking_run_compute(run=run, fan_out=False)
        run.refresh_from_db()
        made.append(run)
    de, everything = made
    url = f"/api/campaigns/{campaign.slug}/rankings/slices/"
    body = client.get(url, {"criterion": criterion.name, "by": "language"}).json()
    assert set(body) == {"criterion", "by", "slices", "not_ranked", "systems"}
    assert (body["criterion"], body["by"], body["not_ranked"]) == (
        criterion.name,
        "language",
        ["en"],
    )
    assert body["slices"] == [
        {
            "where": run.where,
            "slice": heading,
            "ranking_run": run.pk,
            "judgements": run.n_judgements,
            "method": "wmt14",
        }
        for run, heading in ((everything, "all items"), (de, "language=de"))
    ]
    rows = {r.system: r for r in selectors.ranking_run_rows(run=everything)}
    for system in body["systems"]:
        assert set(system) == {"system", "by_slice"}
        cell = system["by_slice"][0]
        row = rows[system["system"]]
        assert cell == {
            "value": row.value,
            "rank_lo": row.rank_lo,
            "rank_hi": row.rank_hi,
            "cluster": row.cluster,
        }
        assert type(cell["value"]) is float and type(cell["rank_lo"]) is int
