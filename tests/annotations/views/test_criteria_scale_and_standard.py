"""The criterion form shows the chosen scale's fields only, and says when the standard
is also among the outputs workers rate."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.models import Campaign, Output, TaskOutput
from annotations.services.criteria import criterion_from_preset, criterion_rankme_set
from tests.annotations.designer_data import judged_campaign, users

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(client):
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=0)
    Campaign.objects.filter(pk=campaign.pk).update(status="draft")
    client.force_login(people["owner"])
    return client, campaign


def test_a_magnitude_criterion_form_shows_no_likert_levels(world):
    client, campaign = world
    url = reverse("annotations:designer-criteria", args=[campaign.slug])
    html = client.get(url, {"preset": "naturalness"}).text
    assert 'name="standard_text"' in html and "Likert levels:</label>" not in html
    html = client.get(url, {"preset": "grammar"}).text
    assert "Likert levels:</label>" in html and "The standard (magnitude estimation)" not in html
    # Without JavaScript: the button redraws the form for the scale chosen, unsaved.
    posted = client.post(
        url,
        {"action": "show-scale", "scale": "likert", "question": "How good?", "name": "good"},
    ).text
    assert (
        "Likert levels:</label>" in posted and "The standard (magnitude estimation)" not in posted
    )
    assert "How good?</textarea>" in posted
    assert not campaign.criteria.filter(name="good").exists()
    assert 'value="show-scale"' in posted and 'hx-vals=\'{"action": "show-scale"}\'' in posted


def test_the_criterion_page_warns_when_its_standard_is_rated_in_its_tasks(world):
    client, campaign = world
    quality = campaign.criteria.get(name="quality")
    first = TaskOutput.objects.filter(task__criterion=quality).first()
    assert first is not None
    rated = first.output
    # Chosen after its tasks were built (an older build, the admin): it is rated too.
    type(quality).objects.filter(pk=quality.pk).update(
        standard_output=rated, standard_text=rated.text
    )
    url = reverse("annotations:designer-criterion", args=[campaign.slug, quality.pk])
    html = client.get(url).text
    assert "data-standard-rated" in html and "Rebuild the tasks" in html
    # A criterion whose standard is in no task: said to be left out, no warning.
    other = criterion_from_preset(campaign=campaign, preset="naturalness")
    criterion_rankme_set(criterion=other, standard_output=Output.objects.first())
    html = client.get(
        reverse("annotations:designer-criterion", args=[campaign.slug, other.pk])
    ).text
    assert "data-standard-rated" not in html and "data-standard-excluded" in html


def test_the_designer_writes_the_worked_example_on_the_criterion_form_and_the_api(world):
    client, campaign = world
    other = criterion_from_preset(campaign=campaign, preset="naturalness")
    url = reverse("annotations:designer-criterion", args=[campaign.slug, other.pk])
    html = client.get(url).text
    assert 'name="example"' in html and "generated from the standard" in html
    form = {
        "question": other.question,
        "scale": "magnitude",
        "standard": 100,
        "standard_output": "",
        "standard_text": "Cotto is a pub, near the river.",
        "example": "A text **better** than the standard: 130.",
    }
    assert client.post(url, form).status_code == 302
    other.refresh_from_db()
    assert other.example == "A text **better** than the standard: 130."
    preview = client.get(reverse("annotations:designer-preview-intro", args=[campaign.slug]))
    assert "<strong>better</strong> than the standard: 130." in preview.text
    api = f"/api/campaigns/{campaign.slug}/criteria/{other.pk}/"
    assert client.get(api).json()["example"] == other.example
    changed = client.patch(api, {"example": ""}, content_type="application/json")
    assert changed.status_code == 200, changed.content
    other.refresh_from_db()
    assert other.example == ""


def test_the_criterion_page_says_when_workers_see_no_worked_example(world):
    client, campaign = world
    other = criterion_from_preset(campaign=campaign, preset="naturalness")
    url = reverse("annotations:designer-criterion", args=[campaign.slug, other.pk])
    type(other).objects.filter(pk=other.pk).update(standard_text="Cotto.")
    assert "data-no-example" in client.get(url).text
    # naturalness hides the input: one clause gives no copy to compare (a copy with
    # information left out is not what it asks about)
    type(other).objects.filter(pk=other.pk).update(
        standard_text="Cotto is a coffee shop near the river."
    )
    assert "a clause said twice, not information left out" in client.get(url).text
    type(other).objects.filter(pk=other.pk).update(
        standard_text="Cotto is a coffee shop near the river, and it serves Italian food."
    )
    html = client.get(url).text
    assert "data-no-example" not in html and "data-generated-example" in html


def test_the_criteria_list_says_which_criteria_show_workers_no_worked_example(world):
    """A reviewer's one-clause standard ("Blue Spice is a nice place.") gave workers no
    example; only the criterion's own page said so, which the reviewer never opened."""
    client, campaign = world
    quality = criterion_from_preset(campaign=campaign, preset="quality")
    type(quality).objects.filter(pk=quality.pk).update(standard_text="Blue Spice is a nice place.")
    url = reverse("annotations:designer-criteria", args=[campaign.slug])
    html = client.get(url).text
    assert "Workers see no worked example: none can be generated from this standard" in html
    type(quality).objects.filter(pk=quality.pk).update(
        standard_text="Blue Spice is a pub in the city centre."
    )
    assert "Workers see no worked example" not in client.get(url).text
