"""Pages as organizers use them: the monitor's cost, imported campaigns, criteria that can
no longer change, member roles, signing out and previewing each criterion."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotations.models import Campaign, CampaignMembership, Output, Task, TaskOutput
from annotations.selectors import monitoring
from annotations.services.criteria import criterion_from_preset
from tests.annotations.designer_data import judged_campaign, users

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def people(db):
    return users()


@pytest.fixture
def owner_client(client, people):
    client.force_login(people["owner"])
    return client


def _queries(client, url, **extra):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **extra)
    assert response.status_code == 200
    return len(captured.captured_queries)


def test_monitor_poll_renders_only_the_progress(owner_client, people, django_assert_num_queries):
    campaign = judged_campaign(owner=people["owner"])
    url = reverse("annotations:designer-monitor", args=[campaign.slug])
    # session, user, campaign, role; criteria with task counts, three judgement counts,
    # throughput.
    with django_assert_num_queries(8):
        partial = owner_client.get(url, **HX)
    text = partial.content.decode()
    assert text.lstrip().startswith('<div id="live"') and 'hx-trigger="every 5s"' in text
    assert "12 of 12 judgements" in text and "Complete." in text
    # The heavy tables (read from every score) are neither queried nor rendered per poll.
    assert "Agreement" not in text and "PID0000" not in text


def test_monitor_page_queries_do_not_grow_with_workers(client, people):
    small = judged_campaign(owner=people["owner"], slug="small", n_workers=2)
    large = judged_campaign(owner=people["owner"], slug="large", n_workers=6)
    client.force_login(people["owner"])
    counts = [
        _queries(client, reverse("annotations:designer-monitor", args=[c.slug]))
        for c in (small, large)
    ]
    assert counts[0] == counts[1]
    page = client.get(reverse("annotations:designer-monitor", args=[large.slug]))
    assert len(page.context["workers"]) == 6
    assert page.context["agreement"][0].judgements == 6 * 4


def test_monitor_of_a_closed_campaign_stops_polling(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.CLOSED)
    html = owner_client.get(
        reverse("annotations:designer-monitor", args=[campaign.slug])
    ).content.decode()
    # No polling (the crowd-versus-experts panel still loads once).
    assert 'id="live"' in html and 'hx-trigger="every' not in html
    assert "no longer change" in html


def test_shared_judgements_give_the_same_tables(people):
    campaign = judged_campaign(owner=people["owner"])
    judgements = monitoring.campaign_judgements(campaign=campaign)
    assert len(judgements) == 12 and all("signs" in j for j in judgements.values())
    alone = monitoring.worker_table(campaign=campaign)
    shared = monitoring.worker_table(campaign=campaign, judgements=judgements)
    assert [(r.worker.pk, r.tasks_done, r.agreement) for r in alone] == [
        (r.worker.pk, r.tasks_done, r.agreement) for r in shared
    ]
    a = monitoring.campaign_agreement(campaign=campaign)[0]
    b = monitoring.campaign_agreement(campaign=campaign, judgements=judgements)[0]
    assert (a.judgements, a.workers) == (b.judgements, b.workers) == (12, 3)
    assert a.preference_alpha == pytest.approx(b.preference_alpha)
    assert a.score_alpha == pytest.approx(b.score_alpha)


def test_imported_campaign_overview_and_plan_say_imported(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    campaign.tasks.update(kind=Task.Kind.IMPORTED)
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.CLOSED)
    plan = monitoring.campaign_plan(campaign=campaign)
    assert plan.imported_only and (plan.imported_tasks, plan.imported_judgements) == (4, 12)
    html = owner_client.get(
        reverse("annotations:designer-campaign", args=[campaign.slug])
    ).content.decode()
    assert "4 imported" in html and "12 imported" in html and "not built" not in html
    assert "show workers that the study is closed" in html
    plan_html = owner_client.get(
        reverse("annotations:designer-plan", args=[campaign.slug])
    ).content.decode()
    assert "imported from a finished evaluation" in plan_html


def test_criteria_with_tasks_offer_no_edit_or_remove(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    html = owner_client.get(
        reverse("annotations:designer-criteria", args=[campaign.slug])
    ).content.decode()
    criterion = campaign.criteria.get()
    assert "fixed: has tasks" in html
    assert reverse("annotations:designer-criterion", args=[campaign.slug, criterion.pk]) not in html
    # Still a draft: new criteria may be added next to the fixed one.
    assert "Add a criterion" in html


def test_design_page_groups_fields_and_marks_the_fixed_ones(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    html = owner_client.get(
        reverse("annotations:designer-settings", args=[campaign.slug])
    ).content.decode()
    for legend in ("Task design", "Quality control", "Timing", "Where workers come from"):
        assert f"<legend>{legend}</legend>" in html
    assert 'Outputs per task <span class="fixed">(fixed)</span>' in html
    assert "Amazon Mechanical Turk" in html


def test_member_form_offers_viewer_first(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    page = owner_client.get(reverse("annotations:designer-members", args=[campaign.slug]))
    assert page.context["form"]["role"].value() == CampaignMembership.Role.VIEWER
    assert '<option value="viewer" selected>' in page.content.decode()


def test_header_signs_out_with_a_post_form(owner_client, client, people):
    html = owner_client.get(reverse("annotations:home")).content.decode()
    assert f'action="{reverse("logout")}"' in html and "Sign out" in html
    assert reverse("annotations:designer-account") in html
    response = owner_client.post(reverse("logout"))
    assert response.status_code == 302
    assert "Sign out" not in owner_client.get(reverse("annotations:home")).content.decode()


def test_preview_shows_a_task_of_the_criterion_asked_for(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    naturalness = criterion_from_preset(campaign=campaign, preset="naturalness")
    item = campaign.items.order_by("position").first()
    assert item is not None
    task = Task.objects.create(campaign=campaign, criterion=naturalness, item=item, number=0)
    for slot, output in enumerate(Output.objects.filter(item=item).order_by("system__label")):
        TaskOutput.objects.create(task=task, output=output, slot=slot)
    url = reverse("annotations:worker-preview", args=[campaign.slug])
    first = owner_client.get(url)
    assert first.context["criterion"].name == "quality"
    html = first.content.decode()
    assert '?criterion=naturalness"' in html and "Back to the campaign" in html
    chosen = owner_client.get(url, {"criterion": "naturalness"})
    assert chosen.status_code == 200 and chosen.context["criterion"] == naturalness
