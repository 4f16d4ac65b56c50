"""``annotations/selectors/campaigns.py``: the one lookup by slug, and the one statement
of what building a campaign's tasks needs (which the campaign page, building and
launching all read)."""

from __future__ import annotations

import pytest

from annotations.models import Campaign
from annotations.selectors.campaigns import (
    campaign_build_blockers,
    campaign_by_slug,
    campaign_find,
    campaign_steps,
)
from common.errors import DomainError
from tests.factories import CampaignFactory, CriterionFactory, SystemFactory

pytestmark = pytest.mark.django_db


def test_the_lookup_by_slug_refuses_in_one_wording():
    campaign = CampaignFactory(slug="toy")
    assert campaign_by_slug("toy") == campaign == campaign_find("toy")
    assert campaign_find("nope") is None
    with pytest.raises(DomainError) as refused:
        campaign_by_slug("nope")
    assert str(refused.value) == "No campaign with the slug 'nope'."


def test_the_build_blockers_are_read_in_one_query_in_the_order_to_supply_them(
    django_assert_num_queries,
):
    campaign = CampaignFactory()
    with django_assert_num_queries(1):
        assert campaign_build_blockers(campaign=campaign) == {
            "systems": "upload system outputs",
            "criteria": "add a criterion",
        }
    criterion = CriterionFactory(campaign=campaign)
    assert list(campaign_build_blockers(campaign=campaign)) == ["systems", "standards"]
    SystemFactory(campaign=campaign)
    # A magnitude criterion without its standard: built, its tasks could never launch.
    assert campaign_build_blockers(campaign=campaign) == {
        "standards": "choose the standard of each magnitude criterion"
    }
    criterion.standard_text = " "
    criterion.save()
    assert list(campaign_build_blockers(campaign=campaign)) == ["standards"]
    criterion.standard_text = "The Standard serves English food."
    criterion.save()
    assert campaign_build_blockers(campaign=campaign) == {}
    CriterionFactory(campaign=campaign, scale="likert", scale_settings={"levels": [1, 2]})
    assert campaign_build_blockers(campaign=campaign) == {}


def test_the_campaign_pages_next_step_follows_the_blockers_then_the_build(
    django_assert_num_queries,
):
    campaign = CampaignFactory()
    steps = campaign_steps(campaign=campaign, built=False)
    assert steps.next_step == "upload"
    assert steps.blocked == "First upload system outputs and add a criterion."
    SystemFactory(campaign=campaign)
    assert campaign_steps(campaign=campaign, built=False).next_step == "criteria"
    criterion = CriterionFactory(campaign=campaign)
    unready = campaign_steps(campaign=campaign, built=False)
    assert (unready.next_step, unready.blocked) == (
        "standards",
        "First choose the standard of each magnitude criterion.",
    )
    criterion.standard_text = "The Standard serves English food."
    criterion.save()
    ready = campaign_steps(campaign=campaign, built=False)
    assert (ready.next_step, ready.blocked) == ("build", "")
    assert campaign_steps(campaign=campaign, built=True).next_step == "launch"
    assert campaign_steps(campaign=campaign, built=True).blocked == ""
    # Past the draft nothing is read: a paused campaign is launched again, a live or
    # ended one has no next step.
    with django_assert_num_queries(0):
        campaign.status = Campaign.Status.PAUSED
        assert campaign_steps(campaign=campaign, built=True).next_step == "launch"
        campaign.status = Campaign.Status.LIVE
        assert campaign_steps(campaign=campaign, built=True).next_step == ""


def test_the_preview_before_the_build_shows_outputs_in_their_language_and_direction():
    """Arabic outputs were previewed as lang="en" dir="ltr" until tasks were built."""
    from annotations.core.outputs import OutputRow
    from annotations.selectors.campaigns import sample_task_page
    from annotations.services.outputs import outputs_store

    campaign = CampaignFactory()
    CriterionFactory(campaign=campaign)
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(item_id="1", input="name[A]", system=s, text=f"مطعم {s}", language="ar")
            for s in ("a", "b")
        ],
    )
    page = sample_task_page(campaign=campaign)
    assert page is not None
    assert (page.language, page.direction) == ("ar", "rtl")
    assert [slot.text for slot in page.slots] == ["مطعم a", "مطعم b"]


def test_the_preview_before_the_build_leaves_the_standard_out():
    """The standard (an uploaded output) was shown as output A before the build; the
    built tasks leave it out, as RankME's standard stood outside the rated set."""
    from annotations.core.outputs import OutputRow
    from annotations.models import Output
    from annotations.selectors.campaigns import sample_task_page
    from annotations.services.criteria import criterion_rankme_set
    from annotations.services.outputs import outputs_store

    campaign = CampaignFactory()
    criterion = CriterionFactory(campaign=campaign)
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(item_id="1", input="name[A]", system=s, text=f"A by {s}.")
            for s in ("a", "b", "c")
        ],
    )
    standard = Output.objects.get(item__campaign=campaign, system__label="a")
    criterion_rankme_set(criterion=criterion, standard_output=standard)
    page = sample_task_page(campaign=campaign)
    assert page is not None
    assert [slot.text for slot in page.slots] == ["A by b.", "A by c."]


def test_the_preview_before_the_build_leaves_a_standards_twin_out_as_the_build_does():
    """Where identical outputs are not merged, an output with the standard's text was still
    shown before the build, which leaves it out of every task."""
    from annotations.core.outputs import OutputRow
    from annotations.models import Campaign, Output
    from annotations.selectors.campaigns import sample_task_page
    from annotations.services.criteria import criterion_rankme_set
    from annotations.services.outputs import outputs_detect_identical, outputs_store

    campaign = CampaignFactory()
    Campaign.objects.filter(pk=campaign.pk).update(merge_identical_outputs=False)
    campaign.refresh_from_db()
    criterion = CriterionFactory(campaign=campaign)
    texts = {"a": "A is here.", "b": "A is here.", "c": "A by c."}
    outputs_store(
        campaign=campaign,
        rows=[OutputRow(item_id="1", input="name[A]", system=s, text=t) for s, t in texts.items()],
    )
    outputs_detect_identical(campaign=campaign)
    standard = Output.objects.get(item__campaign=campaign, system__label="a")
    twin = Output.objects.get(item__campaign=campaign, system__label="b")
    assert twin.canonical_id == standard.pk
    criterion_rankme_set(criterion=criterion, standard_output=standard)
    page = sample_task_page(campaign=campaign)
    assert page is not None
    assert [slot.text for slot in page.slots] == ["A by c."]
