"""The crowd-versus-experts page (annotations/views/experts.py) and its CSV, as organizers
use them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.models import Worker

pytestmark = pytest.mark.django_db


def test_page_shows_each_worker_with_an_interval_and_the_ranking_correlation(client, experts_world):
    people, campaign, _ = experts_world
    client.force_login(people["viewer"])
    url = reverse("annotations:designer-experts", args=[campaign.slug])
    page = client.get(url).content.decode()
    assert "2 experts" in page
    assert page.index("careless") < page.index("careful")  # least agreeing first
    assert "Spearman ρ <strong>1.000</strong>" in page  # noqa: RUF001
    assert "Exclude these workers" not in page  # a viewer cannot exclude
    assert client.post(url, {"criterion": "quality", "threshold": "0.5"}).status_code == 403
    assert not Worker.objects.filter(excluded=True).exists()
    # A query parameter naming a criterion the campaign lacks is a bad request, not a
    # missing page (the page and its CSV alike).
    for path in (url, reverse("annotations:designer-experts-export", args=[campaign.slug])):
        refused = client.get(path + "?criterion=nope")
        assert refused.status_code == 400
        assert (
            f"Campaign &#x27;{campaign.slug}&#x27; has no criterion &#x27;nope&#x27;."
            in refused.content.decode()
        )


def test_designer_excludes_below_a_threshold_and_sees_who(client, experts_world):
    people, campaign, _ = experts_world
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
    assert (
        bad.status_code == 200
        and "Enter a number as the agreement threshold." in bad.content.decode()
    )
    high = client.post(url, {"criterion": "quality", "threshold": "3"}, follow=True)
    assert "a number from -1 to 1" in high.content.decode()


def test_csv_download(client, experts_world):
    people, campaign, _ = experts_world
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
