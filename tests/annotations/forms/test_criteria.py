"""RankME's rules in the criterion form (``annotations.forms.criteria``): presets fill the
form (what is saved is what was shown), the standard, and launching needs one."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from annotations.models import Campaign, Criterion
from annotations.services.campaigns import campaign_launch
from annotations.services.criteria import criterion_launch_problems, criterion_rankme_set
from common.errors import DomainError
from tests.annotations.designer_data import judged_campaign, users
from tests.factories import CriterionFactory, OutputFactory, task_with_outputs

pytestmark = pytest.mark.django_db


HX = {"HTTP_HX_REQUEST": "true"}


# -- presets fill the form; what is saved is what was shown ----------------------------


@pytest.fixture
def designer(client: Client):
    people = users()
    client.force_login(people["owner"])
    campaign = Campaign.objects.create(slug="pilot", name="Pilot", owner=people["owner"])
    campaign.memberships.create(user=people["owner"], role="owner")
    return client, campaign


def _selected(html: str, name: str) -> str:
    import re

    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert select, f"no select {name}"
    chosen = re.search(r'<option value="([^"]*)"[^>]*selected', select.group(1))
    return chosen.group(1) if chosen else ""


@pytest.mark.parametrize("preset", ["grammar", "fluency", "relevance"])
def test_likert_preset_fills_the_form_and_is_saved_as_shown(designer, preset):
    client, campaign = designer
    url = reverse("annotations:designer-criteria", args=[campaign.slug])
    page = client.get(url, {"preset": preset})
    form = page.context["form"]
    html = page.content.decode()
    # The page shows the preset's scale (the bug: the Scale dropdown said magnitude).
    assert _selected(html, "scale") == "likert"
    assert "Perfectly grammatical" in html or "Completely fluent" in html or "nothing else" in html
    # Post exactly what the page shows.
    data = {k: v for k, v in form.initial.items() if v not in (None, False, [])}
    assert client.post(url, data).status_code == 302
    saved = campaign.criteria.get(name=preset)
    assert saved.scale == Criterion.Scale.LIKERT and len(saved.likert_levels) == 5
    assert (
        saved.likert_levels[4]["descriptor"]
        == form.initial["levels"].splitlines()[4].split(" | ")[2]
    )
    assert saved.show_input is (preset == "relevance")


def test_preset_fill_with_htmx_swaps_only_the_form(designer):
    client, campaign = designer
    url = reverse("annotations:designer-criteria", args=[campaign.slug])
    partial = client.get(url, {"preset": "fluency"}, **HX).content.decode()
    assert partial.lstrip().startswith('<form method="post"') and "<html" not in partial
    assert _selected(partial, "scale") == "likert"
    full = client.get(url).content.decode()
    assert 'hx-get="' + url in full and 'action="' + url in full  # works without JS too


def test_the_old_overriding_post_saves_nothing_on_the_wrong_scale(designer):
    client, campaign = designer
    url = reverse("annotations:designer-criteria", args=[campaign.slug])
    # What the old page sent: the preset plus the Scale dropdown left at its default.
    response = client.post(url, {"preset": "grammar", "scale": "magnitude", "question": ""})
    assert response.status_code == 200
    assert not campaign.criteria.filter(scale="magnitude").exists()


def test_informativeness_preset_prompts_for_the_standard_and_saves_it(designer):
    client, campaign = designer
    output = OutputFactory(item__campaign=campaign, text="The Eagle is a pub.")
    url = reverse("annotations:designer-criteria", args=[campaign.slug])
    page = client.get(url, {"preset": "informativeness"})
    html = page.content.decode()
    assert "How informative is the utterance, relative to the standard?" in html
    assert "data-standard-prompt" in html
    assert f'<option value="{output.pk}">' in html and output.item.external_id in html
    data = {k: v for k, v in page.context["form"].initial.items() if v not in (None, False)}
    data["standard_output"] = str(output.pk)
    assert client.post(url, data).status_code == 302
    saved = campaign.criteria.get(name="informativeness")
    assert saved.scale == "magnitude" and saved.show_input
    assert saved.content_checks == ["added", "missing", "perfect"]
    assert saved.standard_output == output and saved.standard_text == "The Eagle is a pub."
    assert saved.standard_input == output.item.input and saved.standard == 100


def test_edit_writes_a_standard_in_and_clears_the_picked_output(designer):
    client, campaign = designer
    output = OutputFactory(item__campaign=campaign)
    criterion = CriterionFactory(campaign=campaign, name="quality")
    criterion_rankme_set(criterion=criterion, standard_output=output)
    url = reverse("annotations:designer-criterion", args=[campaign.slug, criterion.pk])
    data = {
        "question": "Better?",
        "scale": "magnitude",
        "show_input": "on",
        "standard": "80",
        "standard_output": "",
        "standard_input": "name[Zizzi]",
        "standard_text": "Zizzi is a pub.",
        "content_checks": ["perfect"],
    }
    assert client.post(url, data).status_code == 302
    criterion.refresh_from_db()
    assert criterion.standard_output is None and criterion.standard_text == "Zizzi is a pub."
    assert criterion.standard == 80 and criterion.content_checks == ["perfect"]


def test_a_picked_output_and_a_typed_standard_are_refused_together(designer):
    """Both an uploaded output and a written-in text: the typed text was dropped without
    a word and the output saved. Now the text's field says to clear one."""
    client, campaign = designer
    output = OutputFactory(item__campaign=campaign, text="The Eagle is a pub.")
    url = reverse("annotations:designer-criteria", args=[campaign.slug])
    data = {
        "name": "quality",
        "question": "Better?",
        "scale": "magnitude",
        "standard": "100",
        "standard_output": str(output.pk),
        "standard_text": "Zizzi is a pub.",
    }
    page = client.post(url, data)
    assert page.status_code == 200 and not campaign.criteria.exists()
    assert "clear this written-in text" in page.context["form"].errors["standard_text"][0]
    # The chosen output's own text (as typed again) is no conflict.
    assert client.post(url, {**data, "standard_text": " The Eagle is a pub. "}).status_code == 302
    assert campaign.criteria.get().standard_output == output


def test_the_edit_forms_prefilled_standard_does_not_conflict_with_a_new_pick(designer):
    """The edit form fills in the current standard's text; picking another output while
    that text stays as shown picks the output."""
    client, campaign = designer
    first = OutputFactory(item__campaign=campaign, text="The Eagle is a pub.")
    second = OutputFactory(item__campaign=campaign, text="Zizzi is a coffee shop.")
    criterion = CriterionFactory(campaign=campaign, name="quality")
    criterion_rankme_set(criterion=criterion, standard_output=first)
    url = reverse("annotations:designer-criterion", args=[campaign.slug, criterion.pk])
    data = {
        "question": "Better?",
        "scale": "magnitude",
        "standard": "100",
        "standard_output": str(second.pk),
        "standard_input": first.item.input,
        "standard_text": "The Eagle is a pub.",
    }
    assert client.post(url, data).status_code == 302
    criterion.refresh_from_db()
    assert criterion.standard_output == second
    assert criterion.standard_text == "Zizzi is a coffee shop."
    typed = client.post(url, {**data, "standard_text": "Typed anew."})
    assert typed.status_code == 200 and "standard_text" in typed.context["form"].errors


# -- launching needs a standard -----------------------------------------------------------


def test_launch_refuses_a_magnitude_criterion_without_a_standard():
    campaign = judged_campaign()
    criterion = campaign.criteria.get()
    Criterion.objects.filter(pk=criterion.pk).update(standard_text="", standard_input="")
    likert = CriterionFactory(
        campaign=campaign, name="fluency", scale="likert", scale_settings={"levels": []}
    )
    task_with_outputs(campaign=campaign, criterion=likert)
    [problem] = criterion_launch_problems(campaign=campaign)
    assert "'quality'" in problem and "no standard" in problem
    with pytest.raises(DomainError, match="no standard"):
        campaign_launch(campaign=campaign)
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.DRAFT
    Criterion.objects.filter(pk=criterion.pk).update(standard_text="Standard is a pub.")
    assert campaign_launch(campaign=campaign).status == Campaign.Status.LIVE


def test_plan_page_says_which_criterion_lacks_a_standard(client: Client):
    people = users()
    campaign = judged_campaign(owner=people["owner"])
    client.force_login(people["owner"])
    url = reverse("annotations:designer-plan", args=[campaign.slug])
    assert "Not ready to launch" not in client.get(url).content.decode()
    Criterion.objects.filter(campaign=campaign).update(standard_text="")
    html = client.get(url).content.decode()
    assert "Not ready to launch" in html and "Criterion &#x27;quality&#x27;" in html


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("1 - Very unclear\n2 - Clear", [(1, "Very unclear"), (2, "Clear")]),
        ("1: Bad\n2) Fair\n3. Good", [(1, "Bad"), (2, "Fair"), (3, "Good")]),
        ("1 | Bad | cannot be read\n2 | Good", [(1, "Bad"), (2, "Good")]),
    ],
)
def test_likert_levels_written_as_people_write_lists_are_read(written, expected):
    """A reviewer wrote "1 - Very unclear" and got "Line 1: the value must be a whole
    number." with no example of the format."""
    from annotations.forms.criteria import CriterionForm

    form = CriterionForm({"levels": written}, outputs=[])
    form.is_valid()
    assert "levels" not in form.errors, form.errors
    assert [(lv["value"], lv["label"]) for lv in form.cleaned_data["levels"]] == expected


def test_a_level_without_its_number_is_refused_with_the_format_and_an_example():
    from annotations.forms.criteria import CriterionForm

    form = CriterionForm({"levels": "Very unclear | 1"}, outputs=[])
    form.is_valid()
    message = str(form.errors["levels"][0])
    assert message.startswith("Line 1: 'Very unclear | 1' does not start with the level's")
    assert "e.g. 1 | Very unclear | The text cannot be understood." in message
