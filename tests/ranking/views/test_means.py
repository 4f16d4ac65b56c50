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
