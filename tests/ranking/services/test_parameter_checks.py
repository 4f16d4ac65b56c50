"""A seed or method parameter that cannot work is refused up front, by the one check
(``ranking.stats.check_parameters``) the API, the web form and ``manage.py rank`` share:
400 naming the field, a form error, a command error naming the option; nothing stored."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from rest_framework.test import APIClient

from ranking import stats
from ranking.models import RankingRun
from tests.annotations.designer_data import judged_campaign, users
from tests.ranking.planted import planted_campaign

BAD = [
    ({"seed": -1}, "seed", "seed"),
    ({"parameters": {"sigma0": -1}}, "parameters", "sigma0"),
    ({"parameters": {"draw_probability": 1.5}}, "parameters", "draw_probability"),
    ({"method": "bradley_terry", "parameters": {"ridge": 0}}, "parameters", "ridge"),
    ({"parameters": {"tau": -0.1}}, "parameters", "tau"),
    ({"parameters": {"steps": 0}}, "parameters", "steps"),
    ({"method": "expected_wins", "parameters": {"draws_rule": "both"}}, "parameters", "draws_rule"),
]


@pytest.mark.parametrize("body,field,named", BAD)
def test_check_parameters_refuses_what_cannot_be_computed(body, field, named):
    with pytest.raises(stats.ParameterError) as error:
        stats.check_parameters(
            body.get("method", "wmt14"), body.get("parameters"), seed=body.get("seed")
        )
    assert error.value.field == field and named in str(error.value)


def test_check_parameters_accepts_the_defaults_and_edge_values():
    stats.check_parameters("wmt14", {"draw_probability": 0.0, "tau": 0.0, "beta": None}, seed=0)
    stats.check_parameters("bradley_terry", {"ridge": 1e-12}, seed=2**63 - 1)
    with pytest.raises(stats.ParameterError):
        stats.check_parameters("wmt14", seed=2**63)


@pytest.mark.django_db
@pytest.mark.parametrize("body,field,named", BAD)
def test_the_api_refuses_with_400_naming_the_field_and_stores_nothing(body, field, named):
    campaign, _ = planted_campaign(strengths=[10, 0, -10], n_judgements=4, k=3)
    people = users()
    campaign.owner = people["owner"]
    campaign.save(update_fields=["owner"])
    api = APIClient()
    api.force_authenticate(people["owner"])
    response = api.post(
        f"/api/campaigns/{campaign.slug}/rankings/",
        {"criterion": "quality", "runs": 10, **body},
        format="json",
    )
    assert response.status_code == 400, response.content
    data = response.json()
    assert field in data["fields"] and named in " ".join(data["fields"][field])
    assert not RankingRun.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "args,option,named",
    [
        (["--seed", "-1"], "--seed", "seed"),
        (["--param", "sigma0=-1"], "--param", "sigma0"),
        (["--param", "draw_probability=1.5"], "--param", "draw_probability"),
        (["--method", "bradley_terry", "--param", "ridge=0"], "--param", "ridge"),
    ],
)
def test_the_command_refuses_naming_the_option_and_stores_nothing(args, option, named):
    campaign, _ = planted_campaign(strengths=[10, 0, -10], n_judgements=4, k=3)
    with pytest.raises(CommandError) as error:
        call_command(
            "rank",
            campaign.slug,
            "--criterion",
            "quality",
            "--runs",
            "10",
            *args,
            stdout=StringIO(),
            stderr=StringIO(),
        )
    assert str(error.value).startswith(option) and named in str(error.value)
    assert not RankingRun.objects.exists()


@pytest.mark.django_db
def test_the_form_refuses_a_negative_seed(client):
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=6)
    client.force_login(people["owner"])
    response = client.post(
        reverse("ranking:campaign-runs", args=[campaign.slug]),
        {"criterion": "quality", "method": "wmt14", "runs": 20, "seed": -1, "confidence": 0.95},
    )
    assert response.status_code == 200
    assert "The seed must be a whole number from 0" in response.content.decode()
    assert not RankingRun.objects.exists()
