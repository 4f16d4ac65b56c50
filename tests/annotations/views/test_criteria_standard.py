"""The standard-exemplar picker searches every output, with and without JavaScript."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.models import Output
from annotations.services.criteria import criterion_from_preset
from tests.annotations.designer_data import users
from tests.factories import CampaignFactory, ItemFactory, OutputFactory, SystemFactory

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def setup(client):
    """A draft campaign of 630 outputs (E2E's number: 126 items x 5 systems)."""
    people = users()
    client.force_login(people["owner"])
    campaign = CampaignFactory(slug="std", status="draft")
    from annotations.models import CampaignMembership

    CampaignMembership.objects.create(
        campaign=campaign, user=people["owner"], role=CampaignMembership.Role.OWNER
    )
    systems = [SystemFactory(campaign=campaign, label=f"sys{s}") for s in range(5)]
    for n in range(126):
        item = ItemFactory(
            campaign=campaign, external_id=f"mr{n}", input=f"name[Place {n}]", position=n
        )
        for system in systems:
            OutputFactory(item=item, system=system, text=f"{system.label} writes about place {n}.")
    return client, campaign


def test_the_picker_says_how_many_outputs_it_leaves_out(setup) -> None:
    client, campaign = setup
    page = client.get(reverse("annotations:designer-criteria", args=[campaign.slug]))
    html = page.content.decode()
    assert "630 outputs uploaded; the first 200 are listed: search to find the others" in html
    assert 'name="standard_q"' in html and 'value="search-standard"' in html
    assert "Item mr125" not in html  # beyond the first 200


def test_htmx_search_swaps_the_picker_alone(setup) -> None:
    client, campaign = setup
    url = reverse("annotations:designer-criteria", args=[campaign.slug])
    page = client.get(url, {"standard_q": "mr125"}, **HX)
    html = page.content.decode()
    assert html.lstrip().startswith('<div id="standard-picker"')
    assert "Item mr125" in html and "Item mr1:" not in html
    assert "5 outputs match “mr125”" in html
    texts = client.get(url, {"standard_q": "sys3 writes about place 124."}, **HX).content.decode()
    assert "Item mr124" in texts and "1 output matches" in texts


def test_search_without_javascript_keeps_what_was_typed_and_saves_nothing(setup) -> None:
    client, campaign = setup
    url = reverse("annotations:designer-criteria", args=[campaign.slug])
    page = client.post(
        url,
        {
            "action": "search-standard",
            "standard_q": "mr125",
            "name": "informativeness",
            "question": "How informative?",
            "scale": "magnitude",
        },
    )
    assert page.status_code == 200
    html = page.content.decode()
    assert "Item mr125" in html and "How informative?" in html
    assert not campaign.criteria.exists()


@pytest.mark.parametrize("edit", [False, True])
def test_an_output_beyond_the_first_200_can_be_the_standard(setup, edit: bool) -> None:
    client, campaign = setup
    far = Output.objects.get(item__external_id="mr125", system__label="sys3")
    data = {
        "name": "quality",
        "question": "How good?",
        "scale": "magnitude",
        "standard": "100",
        "standard_output": str(far.pk),
    }
    if edit:
        criterion = criterion_from_preset(campaign=campaign, preset="quality")
        url = reverse("annotations:designer-criterion", args=[campaign.slug, criterion.pk])
    else:
        url = reverse("annotations:designer-criteria", args=[campaign.slug])
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[-2000:]
    criterion = campaign.criteria.get(name="quality")
    assert criterion.standard_output_id == far.pk
    assert criterion.standard_text == far.text and criterion.standard_input == "name[Place 125]"
