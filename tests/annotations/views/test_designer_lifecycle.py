"""Designer pages for impossible settings, the plan and totals, the life cycle (archive,
restore, clone, delete), worker exclusion and the preview before tasks are built."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from annotations.models import Campaign, CampaignMembership, Criterion, Task
from annotations.services.campaigns import OutputRow, campaign_create, outputs_store
from annotations.services.criteria import criterion_from_preset
from annotations.services.demo import demo_campaign_seed
from tests.annotations.designer_data import add_member, judged_campaign, users

HX = {"HTTP_HX_REQUEST": "true"}
SIX = ("s1", "s2", "s3", "s4", "s5", "s6")


@pytest.fixture
def people(db):
    return users()


@pytest.fixture
def owner_client(client, people):
    client.force_login(people["owner"])
    return client


def _draft(owner, slug: str = "draft", systems: tuple[str, ...] = SIX) -> Campaign:
    campaign = campaign_create(slug=slug, name="Draft campaign", owner=owner)
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(
                item_id=f"i{i}",
                input="name[Aromi], eatType[pub]",
                system=s,
                text=f"Output of {s} for item {i}.",
            )
            for i in range(3)
            for s in systems
        ],
    )
    return campaign


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


# The plan and the totals ------------------------------------------------------------------------


def test_plan_page_estimate_equals_what_the_build_makes(owner_client, people):
    campaign = campaign_create(slug="ragged", owner=people["owner"], outputs_per_task=3)
    rows = [
        OutputRow(item_id=f"i{i}", input="x", system=s, text=f"{s}{i}")
        for i in range(8)
        for s in (SIX if i < 2 else SIX[:3])
    ]
    outputs_store(campaign=campaign, rows=rows)
    criterion_from_preset(campaign=campaign, preset="quality")
    url = reverse("annotations:designer-plan", args=[campaign.slug])
    estimate = owner_client.get(url).context["plan"]
    # 2 items of 6 systems: 2 tasks of 3; 6 items of 3 systems: 1 task each.
    assert (estimate.built, estimate.tasks) == (False, 10)
    owner_client.post(reverse("annotations:designer-build", args=[campaign.slug]))
    assert Task.objects.filter(campaign=campaign, kind="regular").count() == 10
    built = owner_client.get(url).context["plan"]
    assert (built.built, built.tasks, built.judgements) == (True, 10, estimate.judgements)


def test_overview_and_monitor_show_the_same_totals_on_the_demo(client, people):
    campaign = demo_campaign_seed().campaign
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    client.force_login(people["viewer"])
    overview = client.get(reverse("annotations:designer-campaign", args=[campaign.slug]))
    monitor = client.get(reverse("annotations:designer-monitor", args=[campaign.slug]))
    a, b = overview.context["totals"], monitor.context["totals"]
    # 158 regular tasks x 3 judgements to collect (the standard's item has one task per
    # criterion: its standard is not rated), plus 192 simulated (imported) ones.
    assert (a.planned, a.done, a.imported) == (b.planned, b.done, b.imported) == (666, 192, 192)

    def shown(html: str) -> str:
        match = re.search(r'id="judgement-totals">(.*?)</', html, re.S)
        assert match
        return re.sub(r"<[^>]+>|\s+", " ", match.group(1)).strip()

    assert "192 of 666" in shown(overview.content.decode())
    assert "192 of 666" in shown(monitor.content.decode())


# Life cycle pages ---------------------------------------------------------------------------------


def test_archive_from_closed_then_restore(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    slug = campaign.slug
    owner_client.post(reverse("annotations:designer-close", args=[slug]))
    html = owner_client.get(reverse("annotations:designer-campaign", args=[slug])).content
    assert b"Archive" in html and b"Clone for a new round" in html
    owner_client.post(reverse("annotations:designer-archive", args=[slug]))
    campaign.refresh_from_db()
    assert campaign.status == "archived"
    home = owner_client.get("/").content.decode()
    assert "Archived campaigns (1)" in home
    assert home.index("Archived campaigns") < home.index(f"/campaigns/{slug}/")
    owner_client.post(reverse("annotations:designer-unarchive", args=[slug]))
    campaign.refresh_from_db()
    assert campaign.status == "closed"


def test_refused_transition_shows_the_reason(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    response = owner_client.post(
        reverse("annotations:designer-archive", args=[campaign.slug]), follow=True
    )
    assert "A draft campaign cannot be archived" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.status == "draft"


def test_delete_page_states_what_is_lost_and_needs_the_slug(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    Campaign.objects.filter(pk=campaign.pk).update(status="closed")
    url = reverse("annotations:designer-delete", args=[campaign.slug])
    html = owner_client.get(url).content.decode()
    lost = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html[html.index('id="lost"') :]))
    assert "12 judgements" in lost and "3 workers" in lost and "0 ranking runs" in lost
    assert "Archive instead" in html
    response = owner_client.post(url, {"confirm_slug": "wrong"}, follow=True)
    assert "to delete it" in response.content.decode()
    assert Campaign.objects.filter(pk=campaign.pk).exists()
    response = owner_client.post(url, {"confirm_slug": campaign.slug})
    assert response.status_code == 302 and response["Location"] == "/"
    assert not Campaign.objects.filter(pk=campaign.pk).exists()


def test_delete_a_live_campaign_is_refused_and_only_owners_delete(client, people):
    campaign = judged_campaign(owner=people["owner"])
    add_member(campaign, people["designer"], CampaignMembership.Role.DESIGNER)
    client.force_login(people["designer"])
    url = reverse("annotations:designer-delete", args=[campaign.slug])
    assert client.get(url).status_code == 403
    assert client.post(url, {"confirm_slug": campaign.slug}).status_code == 403
    client.force_login(people["owner"])
    Campaign.objects.filter(pk=campaign.pk).update(status="live")
    assert "close it first" in client.get(url).content.decode()
    response = client.post(url, {"confirm_slug": campaign.slug}, follow=True)
    assert "close it first" in response.content.decode()
    assert Campaign.objects.filter(pk=campaign.pk).exists()


def test_delete_a_draft(owner_client, people):
    campaign = _draft(people["owner"])
    url = reverse("annotations:designer-delete", args=[campaign.slug])
    assert owner_client.post(url, {"confirm_slug": campaign.slug}).status_code == 302
    assert not Campaign.objects.filter(slug="draft").exists()


def test_clone_page_makes_a_second_round(client, people):
    campaign = judged_campaign(owner=people["owner"])
    add_member(campaign, people["designer"], CampaignMembership.Role.DESIGNER)
    client.force_login(people["designer"])
    url = reverse("annotations:designer-clone", args=[campaign.slug])
    page = client.get(url)
    assert page.context["form"].initial["slug"] == "judged-2"
    taken = client.post(url, {"name": "Again", "slug": campaign.slug})
    assert taken.status_code == 200 and "already exists" in taken.content.decode()
    response = client.post(url, {"name": "Round 2", "slug": "judged-2"})
    assert response.status_code == 302 and response["Location"] == "/campaigns/judged-2/"
    clone = Campaign.objects.get(slug="judged-2")
    assert clone.owner == people["designer"] and clone.status == "draft"
    assert clone.criteria.count() == 1 and clone.workers.count() == 0


def test_viewers_cannot_change_the_life_cycle(client, people):
    campaign = judged_campaign(owner=people["owner"])
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    client.force_login(people["viewer"])
    for name in ("designer-close", "designer-archive", "designer-clone", "designer-delete"):
        assert client.post(reverse(f"annotations:{name}", args=[campaign.slug])).status_code == 403
    campaign.refresh_from_db()
    assert campaign.status == "draft"


# The preview before tasks are built --------------------------------------------------------------


@pytest.mark.parametrize("scale", ["magnitude", "slider", "likert"])
def test_preview_works_before_tasks_are_built_in_every_scale(owner_client, people, scale):
    campaign = _draft(people["owner"])
    criterion_from_preset(campaign=campaign, preset="quality")
    criterion_from_preset(campaign=campaign, preset="grammar")
    Criterion.objects.create(
        campaign=campaign, name="overall", question="How good?", scale="slider", position=2
    )
    assert not campaign.tasks.exists()
    name = {"magnitude": "quality", "slider": "overall", "likert": "grammar"}[scale]
    response = owner_client.get(f"/w/{campaign.slug}/preview/", {"criterion": name})
    assert response.status_code == 200
    html = response.content.decode()
    assert f'data-scale="{scale}"' in html
    # A sample of the uploaded outputs: outputs_per_task (5) of item i0's 6 systems.
    shown = re.findall(r"Output of (s\d) for item 0\.", html)
    assert shown == ["s1", "s2", "s3", "s4", "s5"]
    assert not campaign.tasks.exists()  # nothing was stored


def test_preview_without_outputs_says_so(owner_client, people):
    campaign = campaign_create(slug="empty", owner=people["owner"])
    criterion_from_preset(campaign=campaign, preset="quality")
    response = owner_client.get(f"/w/{campaign.slug}/preview/")
    assert response.status_code == 200
    assert "data-scale" not in response.content.decode()


# The same rules through the API ------------------------------------------------------------


def test_api_refuses_impossible_settings_in_the_same_words(people):
    from rest_framework.test import APIClient

    campaign = _draft(people["owner"])
    client = APIClient()
    client.force_authenticate(people["owner"])
    url = f"/api/campaigns/{campaign.slug}/"
    response = client.patch(url, {"outputs_per_task": 7, "tasks_per_worker": 0}, format="json")
    assert response.status_code == 400
    body = response.content.decode()
    assert "Outputs per task: 7 is more than the 6 systems" in body
    assert "Tasks per worker: must be at least 1" in body
    assert "constraint" not in body.lower()
    campaign.refresh_from_db()
    assert (campaign.outputs_per_task, campaign.tasks_per_worker) == (5, 10)
