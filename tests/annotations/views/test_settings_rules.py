"""The settings page refuses impossible settings beside their field and shows a closed campaign's as text."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.models import Campaign
from tests.annotations.designer_data import judged_campaign
from tests.annotations.draft_campaign import _draft


def _settings_data(client, url: str, **changes: object) -> dict[str, object]:
    form = client.get(url).context["form"]
    data = {
        k: v
        for k, v in form.initial.items()
        if v is not None and v is not False and not form.fields[k].disabled
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not False}


def _field_errors(html: str, field: str) -> str:
    """The settings page's block of ``field``: its label, input, help and errors."""
    at = html.index(f'id="id_{field}"')
    start = html.rfind('<div class="field', 0, at)
    end = html.find('<div class="field', at)
    return html[start : end if end != -1 else None]


# Impossible settings on the design page ------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"outputs_per_task": 7}, "outputs_per_task", "7 is more than the 6 systems"),
        ({"tasks_per_worker": 0}, "tasks_per_worker", "Must be at least 1"),
        # A negative number in the same words (it got "greater than or equal to 0").
        ({"judgements_per_task": -1}, "judgements_per_task", "every task needs a judge"),
        ({"judgements_per_task": 0}, "judgements_per_task", "every task needs a judge"),
        ({"assignment_timeout_minutes": -5}, "assignment_timeout_minutes", "at least 1 minute"),
        # One code for a finished and a failed worker: the platform could not tell them apart.
        (
            {"completion_code": "SAME1", "failed_check_code": "same1"},
            "failed_check_code",
            "same as the completion code",
        ),
        (
            {
                "completion_code": "DONE1",
                "failed_check_code": "FAIL1",
                "screened_out_code": "FAIL1",
            },
            "screened_out_code",
            "same as the failed-check code",
        ),
        (
            {"attention_check_rate": 0.6, "repeat_rate": 0.4},
            "repeat_rate",
            "no real task would be left",
        ),
        (
            {"assignment_timeout_minutes": 1, "min_seconds_per_task": 120},
            "assignment_timeout_minutes",
            "shorter than the minimum time per task (120 s)",
        ),
        (
            {"accept_prolific": False, "accept_mturk": False, "accept_link": False},
            "accept_prolific",
            "Accept at least one platform",
        ),
    ],
)
def test_impossible_settings_are_refused_beside_their_field(
    owner_client, people, changes, field, words
):
    campaign = _draft(people["owner"])
    url = reverse("annotations:designer-settings", args=[campaign.slug])
    before = Campaign.objects.filter(pk=campaign.pk).values().get()
    response = owner_client.post(url, _settings_data(owner_client, url, **changes))
    assert response.status_code == 200
    html = response.content.decode()
    assert words in _field_errors(html, field)
    # No database constraint names, no internal field prefixes.
    assert "constraint" not in html.lower() and "_gte_" not in html
    assert f"{field}:" not in html
    assert Campaign.objects.filter(pk=campaign.pk).values().get() == before


def test_possible_settings_save(owner_client, people):
    campaign = _draft(people["owner"])
    url = reverse("annotations:designer-settings", args=[campaign.slug])
    data = _settings_data(
        owner_client, url, outputs_per_task=6, tasks_per_worker=4, attention_check_rate=0.25
    )
    assert owner_client.post(url, data).status_code == 302
    campaign.refresh_from_db()
    assert (campaign.outputs_per_task, campaign.tasks_per_worker) == (6, 4)


def test_closed_campaign_shows_settings_as_text_except_its_name(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    Campaign.objects.filter(pk=campaign.pk).update(status="closed")
    url = reverse("annotations:designer-settings", args=[campaign.slug])
    html = owner_client.get(url).content.decode()
    assert 'name="name"' in html and 'name="instructions"' not in html
    assert 'name="completion_code"' not in html and campaign.completion_code in html
    data = _settings_data(owner_client, url, name="Renamed")
    assert owner_client.post(url, data).status_code == 302
    campaign.refresh_from_db()
    assert campaign.name == "Renamed"
