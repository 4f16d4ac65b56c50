"""Campaign settings that must work together and the life cycle of a campaign
(annotations/services/campaigns.py): draft -> live -> paused -> closed -> archived,
clone, delete."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from annotations.core.outputs import OutputRow
from annotations.models import (
    Campaign,
    Criterion,
    Judgement,
    Output,
    Worker,
)
from annotations.selectors import campaigns as campaign_selectors
from annotations.selectors.campaigns import campaign_contents
from annotations.services import campaigns as campaign_services
from annotations.services import criteria as criteria_services
from annotations.services import tasks as task_services
from annotations.services.campaigns import CampaignSettingsError, campaign_create
from annotations.services.criteria import criterion_from_preset
from annotations.services.outputs import outputs_store
from annotations.services.tasks import tasks_build
from common.errors import DomainError
from tests.annotations.designer_data import judged_campaign
from tests.at_once import at_once

pytestmark = pytest.mark.django_db


SIX = ("s1", "s2", "s3", "s4", "s5", "s6")


def _with_outputs(
    slug: str = "c", systems: tuple[str, ...] = SIX, items: int = 3, **fields: Any
) -> Campaign:
    campaign = campaign_create(slug=slug, **fields)
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(item_id=f"i{i}", input=f"name[P{i}]", system=s, text=f"{s} on {i}")
            for i in range(items)
            for s in systems
        ],
    )
    return campaign


def _problems(excinfo: pytest.ExceptionInfo[CampaignSettingsError]) -> dict[str, str]:
    return excinfo.value.problems


# Impossible settings -----------------------------------------------------------------------


def test_more_outputs_per_task_than_systems_is_refused_on_save():
    campaign = _with_outputs()
    with pytest.raises(CampaignSettingsError) as excinfo:
        campaign_services.campaign_settings_update(campaign=campaign, outputs_per_task=7)
    assert "more than the 6 systems" in _problems(excinfo)["outputs_per_task"]
    assert str(excinfo.value).startswith("Outputs per task: 7 is more than the 6 systems")
    campaign.refresh_from_db()
    assert campaign.outputs_per_task == 5
    campaign_services.campaign_settings_update(campaign=campaign, outputs_per_task=6)
    campaign.refresh_from_db()
    assert campaign.outputs_per_task == 6


def test_more_outputs_per_task_than_systems_is_refused_at_build_and_launch():
    # Saved before any upload (nothing to compare with yet), then 6 systems arrive.
    campaign = campaign_create(slug="early", outputs_per_task=7)
    criterion_from_preset(campaign=campaign, preset="quality")
    outputs_store(
        campaign=campaign,
        rows=[OutputRow(item_id="i", input="x", system=s, text=s) for s in SIX],
    )
    with pytest.raises(CampaignSettingsError, match="7 is more than the 6 systems"):
        task_services.campaign_tasks_build(campaign=campaign, seed=1)
    assert not campaign.tasks.exists()


def test_no_platform_is_refused_naming_the_platforms():
    campaign = _with_outputs()
    with pytest.raises(CampaignSettingsError) as excinfo:
        campaign_services.campaign_settings_update(
            campaign=campaign, accept_prolific=False, accept_mturk=False, accept_link=False
        )
    assert "at least one platform" in _problems(excinfo)["accept_prolific"]
    assert str(excinfo.value).startswith("Platforms: accept at least one platform")
    campaign.refresh_from_db()
    assert campaign.accept_prolific


def test_zero_tasks_per_worker_is_refused_in_words_not_a_constraint_name():
    campaign = _with_outputs()
    with pytest.raises(CampaignSettingsError) as excinfo:
        campaign_services.campaign_settings_update(campaign=campaign, tasks_per_worker=0)
    message = str(excinfo.value)
    assert "Tasks per worker: must be at least 1" in message
    assert "constraint" not in message.lower() and "gte" not in message


@pytest.mark.parametrize(
    ("checks", "repeats", "tasks", "refused"),
    [
        (0.6, 0.4, 10, True),  # nothing left
        (0.7, 0.5, 10, True),
        (0.5, 0.3, 2, True),  # 0.4 real tasks for a worker of 2 tasks
        (0.5, 0.3, 5, False),  # one real task each
        (0.1, 0.1, 10, False),
    ],
)
def test_checks_and_repeats_must_leave_real_tasks(checks, repeats, tasks, refused):
    campaign = _with_outputs()
    update = dict(attention_check_rate=checks, repeat_rate=repeats, tasks_per_worker=tasks)
    if refused:
        with pytest.raises(CampaignSettingsError) as excinfo:
            campaign_services.campaign_settings_update(campaign=campaign, **update)
        assert "no real task" in _problems(excinfo)["repeat_rate"]
    else:
        campaign_services.campaign_settings_update(campaign=campaign, **update)
        campaign.refresh_from_db()
        assert campaign.repeat_rate == repeats


def test_time_limit_shorter_than_the_minimum_time_is_refused():
    campaign = _with_outputs()
    with pytest.raises(CampaignSettingsError) as excinfo:
        campaign_services.campaign_settings_update(
            campaign=campaign, assignment_timeout_minutes=1, min_seconds_per_task=90
        )
    assert (
        "shorter than the minimum time per task (90 s)"
        in (_problems(excinfo)["assignment_timeout_minutes"])
    )
    campaign_services.campaign_settings_update(
        campaign=campaign, assignment_timeout_minutes=2, min_seconds_per_task=90
    )


def test_one_output_per_task_needs_magnitude_criteria():
    campaign = _with_outputs()
    criterion_from_preset(campaign=campaign, preset="quality")
    campaign_services.campaign_settings_update(campaign=campaign, outputs_per_task=1)  # PlainME
    campaign_services.campaign_settings_update(campaign=campaign, outputs_per_task=5)
    criterion_from_preset(campaign=campaign, preset="fluency")  # a Likert scale
    with pytest.raises(CampaignSettingsError) as excinfo:
        campaign_services.campaign_settings_update(campaign=campaign, outputs_per_task=1)
    assert "fluency uses another scale" in _problems(excinfo)["outputs_per_task"]


def test_the_rules_hold_when_a_campaign_is_created_too():
    # The API's and the CLI's way in: campaign_create.
    with pytest.raises(CampaignSettingsError, match="Tasks per worker"):
        campaign_create(slug="bad", tasks_per_worker=0)
    with pytest.raises(CampaignSettingsError, match="Platforms"):
        campaign_create(slug="bad", accept_prolific=False, accept_mturk=False, accept_link=False)
    assert not Campaign.objects.filter(slug="bad").exists()


def test_design_fields_are_fixed_once_tasks_are_built_and_almost_all_once_closed():
    campaign = judged_campaign()
    assert (
        campaign_selectors.campaign_fixed_fields(campaign=campaign)
        == campaign_selectors.DESIGN_FIELDS
    )
    with pytest.raises(DomainError, match="judgements per task"):
        campaign_services.campaign_settings_update(campaign=campaign, judgements_per_task=5)
    campaign_services.campaign_settings_update(campaign=campaign, instructions="Read *carefully*.")
    campaign_services.campaign_close(campaign=campaign)
    campaign.refresh_from_db()
    assert campaign_selectors.campaign_fixed_fields(campaign=campaign) == (
        campaign_selectors.SETTINGS_FIELDS - {"name", "description"}
    )
    with pytest.raises(DomainError, match="The campaign is closed"):
        campaign_services.campaign_settings_update(campaign=campaign, instructions="Other.")
    campaign_services.campaign_settings_update(campaign=campaign, name="Round 1 (done)")
    campaign.refresh_from_db()
    assert (campaign.name, campaign.instructions) == ("Round 1 (done)", "Read *carefully*.")


# Life cycle --------------------------------------------------------------------------------


def _built(slug: str = "life") -> Campaign:
    campaign = _with_outputs(
        slug=slug, outputs_per_task=3, consent_text="You may stop at any time."
    )
    criterion_from_preset(campaign=campaign, preset="quality")
    # A magnitude criterion launches with a standard (RankME's modulus).
    campaign.criteria.update(standard_text="A standard text.")
    task_services.campaign_tasks_build(campaign=campaign, seed=1)
    return campaign


def _status(campaign: Campaign) -> str:
    campaign.refresh_from_db()
    return campaign.status


def test_every_allowed_transition():
    campaign = _built()
    campaign_services.campaign_launch(campaign=campaign)
    assert _status(campaign) == "live"
    campaign_services.campaign_pause(campaign=campaign)
    assert _status(campaign) == "paused"
    campaign_services.campaign_launch(campaign=campaign)  # resume
    assert _status(campaign) == "live"
    campaign_services.campaign_close(campaign=campaign)
    assert _status(campaign) == "closed"
    campaign_services.campaign_archive(campaign=campaign)
    assert _status(campaign) == "archived"
    campaign_services.campaign_unarchive(campaign=campaign)
    assert _status(campaign) == "closed"
    draft = _built("draft-close")
    campaign_services.campaign_close(campaign=draft)
    assert _status(draft) == "closed"


@pytest.mark.parametrize(
    ("status", "action", "verb"),
    [
        ("draft", campaign_services.campaign_pause, "paused"),
        ("draft", campaign_services.campaign_archive, "archived"),
        ("draft", campaign_services.campaign_unarchive, "restored"),
        ("live", campaign_services.campaign_archive, "archived"),
        ("paused", campaign_services.campaign_archive, "archived"),
        ("closed", campaign_services.campaign_launch, "launched"),
        ("closed", campaign_services.campaign_pause, "paused"),
        ("archived", campaign_services.campaign_launch, "launched"),
        ("archived", campaign_services.campaign_close, "closed"),
    ],
)
def test_refused_transitions_say_why_and_change_nothing(status, action, verb):
    """(An action whose state the campaign is already in succeeds and changes nothing:
    ``test_an_action_sent_twice_succeeds_once_and_then_changes_nothing``.)"""
    campaign = _built()
    Campaign.objects.filter(pk=campaign.pk).update(status=status)
    campaign.refresh_from_db()
    with pytest.raises(DomainError, match=f"cannot be {verb}"):
        action(campaign=campaign)
    assert _status(campaign) == status


@pytest.mark.parametrize("consent", ["", "  \n "])
def test_launch_needs_a_consent_text(consent):
    """Every worker is asked to agree to "the information above": a campaign without it
    is not launched, nor resumed after its text was emptied."""
    campaign = _built()
    campaign.consent_text = consent
    campaign.save(update_fields=["consent_text"])
    with pytest.raises(DomainError, match="Write the consent text"):
        campaign_services.campaign_launch(campaign=campaign)
    assert _status(campaign) == "draft"
    campaign.consent_text = "You may stop at any time."
    campaign.save(update_fields=["consent_text"])
    campaign_services.campaign_launch(campaign=campaign)
    campaign_services.campaign_pause(campaign=campaign)
    Campaign.objects.filter(pk=campaign.pk).update(consent_text="")
    campaign.refresh_from_db()
    with pytest.raises(DomainError, match="Write the consent text"):
        campaign_services.campaign_launch(campaign=campaign)
    assert _status(campaign) == "paused"


def test_launch_checks_the_settings_again():
    campaign = _built()
    Campaign.objects.filter(pk=campaign.pk).update(outputs_per_task=9)  # as an old row might
    campaign.refresh_from_db()
    with pytest.raises(CampaignSettingsError, match="Outputs per task"):
        campaign_services.campaign_launch(campaign=campaign)
    assert _status(campaign) == "draft"


@pytest.mark.parametrize("status", ["draft", "closed", "archived"])
def test_delete_a_draft_or_an_ended_campaign_with_everything_in_it(status):
    campaign = judged_campaign(slug=f"gone-{status}")
    Campaign.objects.filter(pk=campaign.pk).update(status=status)
    campaign.refresh_from_db()
    contents = campaign_contents(campaign=campaign)
    assert (contents.judgements, contents.workers, contents.outputs) == (12, 3, 20)
    campaign_services.campaign_delete(campaign=campaign)
    assert not Campaign.objects.filter(pk=campaign.pk).exists()
    assert not Judgement.objects.filter(criterion__campaign_id=campaign.pk).exists()
    assert not Worker.objects.filter(campaign_id=campaign.pk).exists()


def test_deleting_a_campaign_deleted_meanwhile_does_nothing():
    """A double click on Delete: the second request holds the campaign as its page read
    it, deleted since by the first (it was a 500, DoesNotExist)."""
    campaign = judged_campaign(slug="gone-twice")
    Campaign.objects.filter(pk=campaign.pk).update(status="closed")
    campaign.refresh_from_db()
    campaign_services.campaign_delete(campaign=campaign)
    campaign_services.campaign_delete(campaign=campaign)
    assert not Campaign.objects.filter(pk=campaign.pk).exists()


@pytest.mark.parametrize("status", ["live", "paused"])
def test_delete_a_running_campaign_is_refused(status):
    campaign = judged_campaign()
    Campaign.objects.filter(pk=campaign.pk).update(status=status)
    campaign.refresh_from_db()
    with pytest.raises(DomainError, match="close it first"):
        campaign_services.campaign_delete(campaign=campaign)
    assert Judgement.objects.filter(criterion__campaign=campaign).count() == 12


def test_clone_copies_design_criteria_and_outputs_not_workers_or_judgements():
    user = User.objects.create(username="second")
    campaign = judged_campaign(slug="round-1")
    campaign.instructions = "# Read\n\n- every text"
    campaign.attention_check_rate = 0.1
    campaign.save()
    quality = campaign.criteria.get()
    standard = Output.objects.filter(item__campaign=campaign).order_by("id").first()
    assert standard is not None
    quality.standard_input = "name[Standard]"
    quality.standard_text = standard.text
    quality.standard_output = standard
    quality.content_checks = ["added", "missing"]
    quality.scale_settings = {"standard": 80, "max_digits": 6}
    quality.save()
    Campaign.objects.filter(pk=campaign.pk).update(status="closed")
    campaign.refresh_from_db()

    clone = campaign_services.campaign_clone(
        campaign=campaign, user=user, slug="round-2", name="Round 2"
    )
    assert (clone.status, clone.owner, clone.name) == ("draft", user, "Round 2")
    assert clone.memberships.get().user == user
    for field in ("instructions", "attention_check_rate", "outputs_per_task", "setup"):
        assert getattr(clone, field) == getattr(campaign, field)
    assert clone.completion_code != campaign.completion_code
    copy = clone.criteria.get()
    assert copy.pk != quality.pk
    for field in ("name", "question", "scale", "scale_settings", "standard_input"):
        assert getattr(copy, field) == getattr(quality, field)
    assert (copy.standard_text, copy.content_checks) == (standard.text, ["added", "missing"])
    assert copy.standard_output is not None and copy.standard_output.item.campaign == clone
    assert copy.standard_output.text == standard.text
    assert sorted(clone.systems.values_list("label", flat=True)) == sorted(
        campaign.systems.values_list("label", flat=True)
    )
    assert list(clone.items.values_list("external_id", "input", "position")) == list(
        campaign.items.values_list("external_id", "input", "position")
    )
    old = Output.objects.filter(item__campaign=campaign)
    new = Output.objects.filter(item__campaign=clone)
    assert sorted(new.values_list("item__external_id", "system__label", "text")) == sorted(
        old.values_list("item__external_id", "system__label", "text")
    )
    # The identical outputs stay merged, within the clone.
    twins = new.filter(canonical__isnull=False)
    assert twins.count() == old.filter(canonical__isnull=False).count() == 1
    canonical = twins.get().canonical
    assert canonical is not None and canonical.item.campaign == clone
    contents = campaign_contents(campaign=clone)
    assert (contents.workers, contents.judgements, contents.tasks) == (0, 0, 0)
    # The original is untouched.
    assert campaign_contents(campaign=campaign).judgements == 12


def test_clone_refuses_a_taken_or_reserved_slug():
    campaign = judged_campaign(slug="round-1")
    user = User.objects.create(username="u")
    for slug in ("round-1", "new"):
        with pytest.raises(DomainError):
            campaign_services.campaign_clone(campaign=campaign, user=user, slug=slug)
    assert Campaign.objects.count() == 1


def test_criteria_of_the_clone_are_editable_while_the_original_is_not():
    campaign = judged_campaign(slug="round-1")
    clone = campaign_services.campaign_clone(
        campaign=campaign, user=User.objects.create(username="u"), slug="round-2"
    )
    criterion = clone.criteria.get()
    criteria_services.criterion_update(criterion=criterion, question="New question?")
    assert Criterion.objects.get(pk=criterion.pk).question == "New question?"
    assert campaign.criteria.get().question != "New question?"


@pytest.mark.parametrize("slug", sorted(campaign_services.RESERVED_SLUGS))
def test_every_way_of_making_a_campaign_refuses_a_reserved_slug(slug):
    from annotations.services.campaigns import campaign_get_or_create

    with pytest.raises(DomainError, match="reserved"):
        campaign_create(slug=slug)
    with pytest.raises(DomainError, match="reserved"):
        campaign_get_or_create(slug=slug)
    assert not Campaign.objects.filter(slug=slug).exists()


def test_tasks_build_itself_refuses_a_campaign_that_is_not_a_draft():
    campaign = _with_outputs(slug="live-one")
    criterion_from_preset(campaign=campaign, preset="quality")
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.LIVE)
    with pytest.raises(DomainError, match="only while the campaign is a draft"):
        tasks_build(campaign=campaign, seed=1)
    assert not campaign.tasks.exists()


def test_a_clone_keeps_languages_translations_attributes_and_output_languages():
    from annotations.core.outputs import OutputRow

    user = User.objects.create(username="mtg-round-2")
    campaign = campaign_services.campaign_create(slug="mtg-1", outputs_per_task=2)
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(
                item_id=f"{tag}-1",
                input="x",
                system=label,
                text=f"{label} {tag}",
                language=tag,
                attributes=(("domain", "food"),),
            )
            for tag in ("en", "de")
            for label in ("a", "b")
        ],
    )
    grammar = criterion_from_preset(campaign=campaign, preset="grammar")
    Campaign.objects.filter(pk=campaign.pk).update(
        language_quotas={"de": 5}, translations={"de": {"instructions": "Lesen."}}
    )
    grammar.translations = {"de": {"question": "Wie?"}}
    grammar.save(update_fields=["translations"])
    campaign.refresh_from_db()
    clone = campaign_services.campaign_clone(campaign=campaign, user=user, slug="mtg-2")
    assert clone.languages == ["en", "de"] and clone.language_quotas == {"de": 5}
    assert clone.translations == {"de": {"instructions": "Lesen."}}
    assert clone.criteria.get().translations == {"de": {"question": "Wie?"}}
    assert sorted(clone.items.values_list("external_id", "language", "attributes")) == [
        ("de-1", "de", {"domain": "food"}),
        ("en-1", "en", {"domain": "food"}),
    ]
    assert sorted(Output.objects.filter(item__campaign=clone).values_list("text", "language")) == [
        ("a de", "de"),
        ("a en", "en"),
        ("b de", "de"),
        ("b en", "en"),
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="Threads writing at once need PostgreSQL (SQLite's test database locks the table).",
)
def test_five_campaigns_with_one_slug_at_once_make_one_and_refuse_four():
    """Five requests creating (or cloning into) one slug at once all pass the slug check;
    the inserts after the first hit the unique constraint. Those were IntegrityErrors (a
    500 on PostgreSQL); now each gets the refusal a second request one after the other
    gets."""
    owner = User.objects.create_user("racing-owner")

    def create() -> int | str:
        try:
            return campaign_services.campaign_start(user=owner, slug="race", name="R").pk
        except DomainError as error:
            return str(error)

    outcomes = at_once(create, times=5)
    made = [o for o in outcomes if isinstance(o, int)]
    refused = [o for o in outcomes if isinstance(o, str)]
    assert len(made) == 1 and len(refused) == 4, outcomes
    assert set(refused) == {"A campaign with the slug 'race' already exists."}
    assert Campaign.objects.filter(slug="race").count() == 1


# A magnitude criterion's standard before the build ----------------------------------------


def test_a_magnitude_criterion_without_standard_is_not_built_so_its_campaign_can_launch():
    """Built without its standard, a magnitude criterion could never get one (a criterion
    with tasks no longer changes) and launch refused it: the campaign was a dead end
    that only a clone left. The build now refuses first, naming the criterion, and
    builds nothing."""
    campaign = _with_outputs(consent_text="You may stop at any time.")
    quality = criterion_from_preset(campaign=campaign, preset="quality")
    criterion_from_preset(campaign=campaign, preset="naturalness")
    with pytest.raises(DomainError) as refused:
        task_services.campaign_tasks_build(campaign=campaign, seed=1)
    assert "Criterion 'quality', 'naturalness' uses magnitude estimation" in str(refused.value)
    assert refused.value.field == "criteria"
    assert not campaign.tasks.exists()
    # The standard can still be chosen, so the designer is not stuck.
    output = Output.objects.filter(item__campaign=campaign).first()
    for criterion in campaign.criteria.all():
        criteria_services.criterion_rankme_set(criterion=criterion, standard_output=output)
    task_services.campaign_tasks_build(campaign=campaign, seed=1)
    assert campaign.tasks.filter(criterion=quality).exists()
    launched = campaign_services.campaign_launch(campaign=campaign)
    assert launched.status == Campaign.Status.LIVE


def test_an_action_sent_twice_succeeds_once_and_then_changes_nothing():
    """A double click on Launch, Pause, Close or Archive (or a second tab) showed the
    second request an error for an action that had succeeded."""
    campaign = judged_campaign()
    campaign.criteria.update(standard_text="The standard.")
    for action, status in (
        (campaign_services.campaign_launch, Campaign.Status.LIVE),
        (campaign_services.campaign_pause, Campaign.Status.PAUSED),
        (campaign_services.campaign_close, Campaign.Status.CLOSED),
        (campaign_services.campaign_archive, Campaign.Status.ARCHIVED),
    ):
        stale = Campaign.objects.get(pk=campaign.pk)  # the second tab's page
        assert action(campaign=campaign).status == status
        assert action(campaign=stale).status == status
        assert action(campaign=Campaign.objects.get(pk=campaign.pk)).status == status
    # What cannot happen is still refused, in English.
    with pytest.raises(DomainError, match=r"^An archived campaign cannot be paused\."):
        campaign_services.campaign_pause(campaign=campaign)


def test_reopening_an_ended_campaign_points_to_a_clone():
    """Launching a closed campaign said only that it could not be; the way on is a
    clone for a new round."""
    campaign = judged_campaign()
    campaign_services.campaign_close(campaign=campaign)
    with pytest.raises(DomainError) as refused:
        campaign_services.campaign_launch(campaign=campaign)
    assert str(refused.value) == (
        "A closed campaign cannot be launched. Clone it for a new round with the same set-up."
    )
    campaign_services.campaign_archive(campaign=campaign)
    with pytest.raises(DomainError, match=r"archived campaign cannot be paused\. Clone it"):
        campaign_services.campaign_pause(campaign=campaign)
