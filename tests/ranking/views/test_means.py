"""The means page (ranking/views/means.py) and its CSV; outsiders see nothing."""

from __future__ import annotations

import numpy as np
import pytest

from tests.ranking.means_data import _member, rated_campaign

pytestmark = pytest.mark.django_db


def test_the_page_and_its_csv(client, django_user_model):
    campaign, _, given = rated_campaign(n=6)
    System = campaign.systems.model
    System.objects.filter(campaign=campaign, label="weak").update(label="=HYPERLINK(1)")
    client.force_login(_member(django_user_model, campaign))
    url = f"/rankings/campaign/{campaign.slug}/means/"
    body = client.get(url).content.decode()
    assert 'data-criterion="grammar"' in body and 'data-column="de"' in body
    assert f"{np.mean(given[('good', 'de')]):.2f}" in body
    assert "Start a ranking run" not in body  # viewers
    assert "data-magnitude-note" not in body  # a Likert scale has its bounds
    csv_text = client.get(url + "?format=csv").content.decode()
    lines = csv_text.splitlines()
    assert lines[0].startswith("criterion,confidence,system,language,ratings,mean,ci_low,ci_high")
    assert any(line.startswith("grammar,0.95,good,all,12,") for line in lines)
    assert "'=HYPERLINK(1)" in csv_text and ",=HYPERLINK" not in csv_text
    assert client.get(url + "?criterion=nope").status_code == 400
    assert client.get(url + "?confidence=2").status_code == 400


def test_outsiders_see_nothing(client, django_user_model):
    campaign, _, _ = rated_campaign(n=2)
    outsider = django_user_model.objects.create_user("out", password="pw-123456789")
    client.force_login(outsider)
    assert client.get(f"/rankings/campaign/{campaign.slug}/means/").status_code == 404
    assert client.get(f"/api/campaigns/{campaign.slug}/means/").status_code == 404


def test_thin_ranks_and_equal_ratings_are_marked_on_the_page_api_and_csv(client, django_user_model):
    """A reviewer's three judgements showed "31.00 [28.52-33.48] n=3 · rank 1" beside a
    run the minimum-data rule rejects, with no mark, and forty equal ratings an interval
    "[50.00-50.00]" with no word: now † and a note, and "all equal: no interval"."""
    from ranking.services.compute import ranking_run_compute
    from ranking.services.runs import ranking_run_create
    from tests.ranking.planted import thin_campaign_with_equal_ratings

    campaign, criterion = thin_campaign_with_equal_ratings()
    run = ranking_run_compute(
        run=ranking_run_create(campaign=campaign, criterion=criterion, runs=100, queue=False)
    )
    assert run.status == "done", run.error
    client.force_login(_member(django_user_model, campaign))
    url = f"/rankings/campaign/{campaign.slug}/means/"
    body = client.get(url).content.decode()
    # no system has 30 judgements, so every compared one is ranked, each marked thin
    assert body.count("data-thin>†</span>") == 4
    assert f"run #{run.pk} does not meet the minimum-data rule" in body
    assert "[all 3 equal: no interval]" in body  # s3
    assert "treats the ratings as independent" in body
    api = client.get(f"/api/campaigns/{campaign.slug}/means/").json()["criteria"][0]
    assert api["data_rule_met"] == {"all": False}
    cells = {s["system"]: s["cells"]["all"] for s in api["systems"]}
    assert cells["s0"]["thin"] is True and cells["s0"]["cluster"] is None
    assert cells["s3"]["all_equal"] is True and cells["s0"]["all_equal"] is False
    lines = client.get(url + "?format=csv").content.decode().splitlines()
    assert lines[0].endswith(",mean_of,caveat")
    s0 = next(line for line in lines if line.startswith("quality,0.95,s0,all,"))
    assert s0.endswith(",logarithms,thin; minimum-data rule not met")
    s3 = next(line for line in lines if line.startswith("quality,0.95,s3,all,"))
    assert s3.endswith(",logarithms,thin; minimum-data rule not met; all ratings equal")


def test_means_of_wmt_ranks_say_they_are_ranks(client, django_user_model, tmp_path):
    """A reviewer read "ranking scale 1-5 ... A 4.02 [3.69-4.34]" as a rating: these are
    means of 6 - rank. The page, the API and the CSV now say so."""
    from tests.reports.selectors.test_datasheet_claims import _wmt_campaign

    campaign = _wmt_campaign(tmp_path)
    client.force_login(_member(django_user_model, campaign))
    url = f"/rankings/campaign/{campaign.slug}/means/"
    body = client.get(url).content.decode()
    assert "data-ranks-note" in body and "stored as 5 + 1 &minus; rank" in body
    assert client.get(f"/api/campaigns/{campaign.slug}/means/").json()["criteria"][0]["of_ranks"]
    lines = client.get(url + "?format=csv").content.decode().splitlines()
    assert all(",ranks as k + 1 - rank," in line for line in lines[1:])
