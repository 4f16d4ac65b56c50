"""Campaigns: creation, settings, life cycle, deletion and clones. Every path (pages,
REST API, CLI, importers, admin's slug rule) goes through these, so a rule written here
holds on all of them. (Their systems, items and outputs are written by
``annotations.services.outputs``.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from annotations.models import (
    Campaign,
    CampaignMembership,
    Criterion,
    Item,
    Output,
    System,
    Task,
)
from annotations.selectors.campaigns import (
    AT_MOST,
    SETTINGS_FIELDS,
    TEXT_AT_MOST,
    campaign_build_blockers,
    campaign_fixed_fields,
)
from annotations.services.bulk import analyze_when_grown
from annotations.services.criteria import criteria_check_launchable
from annotations.services.validation import SETTING_NAMES, model_check
from common.errors import DomainError, FieldsRefused
from common.queries import refused_when_taken

# Slugs that would collide with designer pages under /campaigns/.
RESERVED_SLUGS = frozenset({"new", "account"})

# What a clone copies: the whole design and what workers read, not the name, the design
# seed or the completion codes (a new round gets fresh codes, so that one round's code
# never pays for another). Identity, owner and status are not settings.
CLONED_FIELDS = SETTINGS_FIELDS - {
    "name",
    "task_seed",
    "completion_code",
    "failed_check_code",
    "screened_out_code",
}


class CampaignSettingsError(FieldsRefused):
    """Settings that cannot work together; ``problems`` maps each field to its reason.

    The message names every field in words, so the CLI can show it as it is; the API
    lists each reason under its field (``fields``), forms put each next to its field.
    """

    def __init__(self, problems: dict[str, str]) -> None:
        super().__init__(problems, labels=SETTING_NAMES)


def _outputs_problem(campaign: Campaign, k: int | None, n_systems: int) -> str | None:
    """What is wrong with the outputs per task: none, more than the systems, or one
    (PlainME) under criteria of another scale than magnitude estimation."""
    if k is None or k < 1:
        return "must be at least 1."
    if n_systems and k > n_systems:
        return f"{k} is more than the {n_systems} systems with outputs; choose at most {n_systems}."
    if k == 1 and campaign.pk:
        others = list(
            campaign.criteria.exclude(scale=Criterion.Scale.MAGNITUDE).values_list(
                "name", flat=True
            )
        )
        if others:
            return (
                "1 output per task (plain magnitude estimation) needs magnitude-estimation "
                f"criteria; {', '.join(others)} use{'s' if len(others) == 1 else ''} another "
                "scale. Choose 2 or more, or change the scale."
            )
    return None


def _adaptive_problem(campaign: Campaign, k: int | None, n_systems: int) -> str | None:
    """Why adaptive batches cannot work with these settings (None: they can)."""
    if campaign.setup == Campaign.Setup.TOGETHER:
        return (
            "adaptive batches choose systems per criterion; set-up 1 shows every "
            "criterion of an item on one page. Choose set-up 2 (separate) for it."
        )
    if k is not None and k < 2:
        return (
            "adaptive batches choose which systems to compare: it needs 2 or more outputs per task."
        )
    if n_systems and n_systems < 3:
        return "with 2 systems every task shows both: there is nothing to choose."
    return None


def _share_problems(campaign: Campaign, tasks: int | None) -> dict[str, str]:
    """The shares (attention checks, repeats, quality threshold) out of [0, 1], and
    checks and repeats that leave a worker no real task."""
    problems: dict[str, str] = {}
    for name in ("attention_check_rate", "repeat_rate", "quality_threshold"):
        value = getattr(campaign, name)
        if value is None or not 0 <= value <= 1:
            problems[name] = "must be between 0 and 1 (a share: 0.1 is one task in ten)."
    checks, repeats = campaign.attention_check_rate or 0, campaign.repeat_rate or 0
    if "attention_check_rate" in problems or "repeat_rate" in problems:
        return problems
    real = 1 - checks - repeats
    if real <= 1e-9:
        problems["repeat_rate"] = (
            f"attention checks ({checks:.0%}) and repeats ({repeats:.0%}) together take "
            "every task: no real task would be left. Keep their sum below 100%."
        )
    elif tasks and tasks >= 1 and tasks * real < 1:
        problems["repeat_rate"] = (
            f"with {tasks} task{'s' if tasks != 1 else ''} per worker, attention checks "
            f"({checks:.0%}) and repeats ({repeats:.0%}) leave no real task for a worker. "
            "Lower the shares or give workers more tasks."
        )
    return problems


def _timeout_problem(campaign: Campaign) -> str | None:
    """A task's time limit below a minute or below the minimum time per task."""
    timeout = campaign.assignment_timeout_minutes
    if timeout is None or timeout < 1:
        return "must be at least 1 minute."
    if campaign.min_seconds_per_task and timeout * 60 < campaign.min_seconds_per_task:
        return (
            f"{timeout} minute{'s' if timeout != 1 else ''} is shorter than the minimum time "
            f"per task ({campaign.min_seconds_per_task} s): no worker could submit in time."
        )
    return None


def campaign_settings_problems(*, campaign: Campaign) -> dict[str, str]:
    """What makes the campaign's settings impossible, by field (empty when they work).

    Checked on every save and again before building and launching (systems and
    criteria may have been added since): a task cannot show more outputs than there are
    systems; one output per task is plain magnitude estimation (PlainME) and needs
    magnitude-estimation criteria; a worker needs a platform to arrive from, at least
    one task, and real tasks among the checks and repeats; and a task's time limit must
    leave the minimum time per task.
    """
    found: dict[str, str | None] = {}
    k = campaign.outputs_per_task
    n_systems = campaign.systems.count() if campaign.pk else 0
    found["outputs_per_task"] = _outputs_problem(campaign, k, n_systems)
    if campaign.adaptive_design:
        found["adaptive_design"] = _adaptive_problem(campaign, k, n_systems)
    batch = campaign.adaptive_batch_tasks
    if batch is None or batch < 1:
        found["adaptive_batch_tasks"] = "must be between 1 and 10,000 tasks."
    if campaign.judgements_per_task is None or campaign.judgements_per_task < 1:
        found["judgements_per_task"] = "must be at least 1: every task needs a judge."
    tasks = campaign.tasks_per_worker
    if tasks is None or tasks < 1:
        found["tasks_per_worker"] = "must be at least 1: a worker needs a task to do."
    found.update(_share_problems(campaign, tasks))
    if not (campaign.accept_prolific or campaign.accept_mturk or campaign.accept_link):
        found["accept_prolific"] = (
            "accept at least one platform (Prolific, MTurk or the plain link): "
            "otherwise no worker can start."
        )
    found["assignment_timeout_minutes"] = _timeout_problem(campaign)
    for name, (most, unit) in AT_MOST.items():
        value = getattr(campaign, name)
        if found.get(name) is None and value is not None and value > most:
            found[name] = f"must be at most {most:,} {unit}."
    for name, longest in TEXT_AT_MOST.items():
        length = len(getattr(campaign, name) or "")
        if length > longest:
            found[name] = f"must be at most {longest:,} characters ({length:,} given)."
    seen: dict[str, str] = {}
    for field in COMPLETION_CODE_FIELDS:
        code = getattr(campaign, field) or ""
        if not COMPLETION_CODE.fullmatch(code):
            found[field] = (
                "use 1 to 64 letters, digits, '-' or '_': Prolific's codes are letters and "
                "digits, and the code goes into the link back to the platform."
            )
        elif code.casefold() in seen:
            found[field] = (
                f"the same as the {seen[code.casefold()]}: workers who end differently get "
                "different codes, or the platform cannot tell them apart."
            )
        else:
            seen[code.casefold()] = CODE_NAMES[field]
    return {field: reason for field, reason in found.items() if reason is not None}


COMPLETION_CODE_FIELDS = ("completion_code", "failed_check_code", "screened_out_code")
#: each code in words, for the refusal of a code that repeats another
CODE_NAMES = {
    "completion_code": "completion code",
    "failed_check_code": "failed-check code",
    "screened_out_code": "screened-out code",
}
#: what a completion code may hold (it is shown to workers and put in the platform's URL)
COMPLETION_CODE = re.compile(r"[A-Za-z0-9_-]{1,64}")


def campaign_settings_check(*, campaign: Campaign) -> None:
    """Raise ``CampaignSettingsError`` naming every impossible setting."""
    problems = campaign_settings_problems(campaign=campaign)
    if problems:
        raise CampaignSettingsError(problems)


def campaign_slug_check(*, slug: str) -> None:
    """Refuse a slug no campaign may take (``DomainError``): one that would collide with
    the designer pages under ``/campaigns/``. ``campaign_create`` and the admin's campaign
    form ask this one rule."""
    if slug in RESERVED_SLUGS:
        raise DomainError(f"The slug '{slug}' is reserved; choose another.", field="slug")


@transaction.atomic
def campaign_create(
    *,
    slug: str,
    name: str = "",
    owner: User | None = None,
    **fields: Any,
) -> Campaign:
    """Create a campaign (draft); its owner gets an owner membership.

    Every way of making a campaign ends here (the pages, the API, clones, importers and
    their commands), so the slug rules hold on all of them.
    """
    campaign_slug_check(slug=slug)
    if Campaign.objects.filter(slug=slug).exists():
        raise DomainError(f"A campaign with the slug '{slug}' already exists.", field="slug")
    campaign = Campaign(slug=slug, name=name or slug, owner=owner, **fields)
    campaign_settings_check(campaign=campaign)
    campaign.full_clean()
    with refused_when_taken(f"A campaign with the slug '{slug}' already exists.", field="slug"):
        campaign.save()
    if owner is not None:
        CampaignMembership.objects.create(
            campaign=campaign, user=owner, role=CampaignMembership.Role.OWNER
        )
    return campaign


def campaign_get_or_create(*, slug: str, name: str = "", **fields: Any) -> tuple[Campaign, bool]:
    """The campaign with this slug, created as a draft when there is none."""
    campaign = Campaign.objects.filter(slug=slug).first()
    if campaign is not None:
        return campaign, False
    return campaign_create(slug=slug, name=name, **fields), True


@transaction.atomic
def campaign_start(*, user: User, slug: str, name: str = "", **fields: Any) -> Campaign:
    """A new draft campaign owned by ``user`` (the designer's "New campaign")."""
    return campaign_create(slug=slug, name=name, owner=user, **fields)


def _named(fields: Iterable[str]) -> str:
    return ", ".join(SETTING_NAMES.get(f, f.replace("_", " ")).lower() for f in sorted(fields))


def campaign_fixed_check(*, campaign: Campaign, changed: Iterable[str]) -> None:
    """Refuse (``DomainError``) a change to settings that can no longer change
    (``campaign_fixed_fields``: the design once tasks are built, almost everything once
    the campaign has ended), naming them: the one rule and its wording, which
    ``campaign_settings_update`` and the settings page's form ask."""
    fixed = sorted(set(changed) & campaign_fixed_fields(campaign=campaign))
    if not fixed:
        return
    if campaign.has_ended:
        why = f"The campaign is {campaign.get_status_display().lower()}"
    else:
        why = "Tasks are built already"
    raise DomainError(
        f"{why}; these settings can no longer change: {_named(fixed)}. "
        "Clone the campaign to run a new round with other settings."
    )


@transaction.atomic
def campaign_settings_update(*, campaign: Campaign, **fields: Any) -> Campaign:
    """Change a campaign's settings (locks the campaign row).

    Fields in ``campaign_fixed_fields`` are refused (design fields once tasks are built,
    almost everything once closed). The result must pass ``campaign_settings_check``:
    ``CampaignSettingsError`` names each impossible field and why; nothing is saved.
    """
    unknown = set(fields) - SETTINGS_FIELDS
    if unknown:
        raise DomainError(f"These settings cannot be changed here: {', '.join(sorted(unknown))}.")
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    changed = {k: v for k, v in fields.items() if getattr(campaign, k) != v}
    campaign_fixed_check(campaign=campaign, changed=changed)
    if not changed:
        return campaign
    for key, value in changed.items():
        setattr(campaign, key, value)
    campaign_settings_check(campaign=campaign)
    model_check(instance=campaign)
    campaign.save(update_fields=[*changed, "updated_at"])
    return campaign


# Life cycle ---------------------------------------------------------------------------------


def _a_campaign(campaign: Campaign) -> str:
    """'A live campaign', 'An archived campaign': the campaign's status in words."""
    status = campaign.get_status_display().lower()
    return f"{'An' if status[:1] in 'aeiou' else 'A'} {status} campaign"


def _transition(campaign: Campaign, allowed_from: set[str], to: str, verb: str) -> Campaign:
    """Move the campaign to ``to`` under its row lock. A campaign already there is left
    as it is: the same action sent twice (a double click, a second tab, a retried API
    call) succeeds once and then changes nothing, instead of refusing what happened."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.status == to:
        return campaign
    if campaign.status not in allowed_from:
        ended = campaign.status in {Campaign.Status.CLOSED, Campaign.Status.ARCHIVED}
        reopening = to in {Campaign.Status.LIVE, Campaign.Status.PAUSED}
        then = " Clone it for a new round with the same set-up." if ended and reopening else ""
        raise DomainError(f"{_a_campaign(campaign)} cannot be {verb}.{then}")
    campaign.status = to
    campaign.save(update_fields=["status", "updated_at"])
    return campaign


def campaign_consent_missing(*, campaign: Campaign) -> bool:
    """Whether the campaign has no consent text (``campaign_launch`` refuses it; the plan
    page says so)."""
    return not campaign.consent_text.strip()


#: Why a campaign without a consent text is not launched: every worker is asked to
#: agree to "the information above" before their first task.
CONSENT_MISSING = (
    "Write the consent text (Settings) before launching: every worker is asked to agree "
    "to it before the first task."
)


@transaction.atomic
def campaign_launch(*, campaign: Campaign) -> Campaign:
    """Open a draft or paused campaign to workers (locks the campaign row).

    A campaign needs criteria, systems, built tasks, at least one entry platform, a
    consent text and settings that pass ``campaign_settings_check``.
    """
    if campaign.status == Campaign.Status.DRAFT or campaign.status == Campaign.Status.PAUSED:
        campaign_settings_check(campaign=campaign)
        if "criteria" in campaign_build_blockers(campaign=campaign):
            raise DomainError("Add at least one criterion before launching.")
        if not campaign.tasks.filter(kind=Task.Kind.REGULAR).exists():
            raise DomainError("Build the tasks before launching.")
        if not (campaign.accept_prolific or campaign.accept_mturk or campaign.accept_link):
            raise DomainError("Accept at least one entry platform before launching.")
        if campaign_consent_missing(campaign=campaign):
            raise DomainError(CONSENT_MISSING)

        criteria_check_launchable(campaign=campaign)  # magnitude criteria need a standard
    return _transition(
        campaign, {Campaign.Status.DRAFT, Campaign.Status.PAUSED}, Campaign.Status.LIVE, "launched"
    )


@transaction.atomic
def campaign_pause(*, campaign: Campaign) -> Campaign:
    """Stop handing out tasks; submitted work stays and running assignments may finish."""
    return _transition(campaign, {Campaign.Status.LIVE}, Campaign.Status.PAUSED, "paused")


@transaction.atomic
def campaign_close(*, campaign: Campaign) -> Campaign:
    """End the campaign for good."""
    return _transition(
        campaign,
        {Campaign.Status.DRAFT, Campaign.Status.LIVE, Campaign.Status.PAUSED},
        Campaign.Status.CLOSED,
        "closed",
    )


@transaction.atomic
def campaign_archive(*, campaign: Campaign) -> Campaign:
    """Put a closed campaign away: off the campaign list, read-only, nothing deleted."""
    return _transition(campaign, {Campaign.Status.CLOSED}, Campaign.Status.ARCHIVED, "archived")


@transaction.atomic
def campaign_unarchive(*, campaign: Campaign) -> Campaign:
    """Bring an archived campaign back as closed (to rank or export it again)."""
    return _transition(campaign, {Campaign.Status.ARCHIVED}, Campaign.Status.CLOSED, "restored")


# Statuses a campaign may be deleted in: a draft has collected nothing; a closed or
# archived one has ended (deleting a live or paused one would pull tasks from workers).
DELETABLE = frozenset({Campaign.Status.DRAFT, Campaign.Status.CLOSED, Campaign.Status.ARCHIVED})


@transaction.atomic
def campaign_delete(*, campaign: Campaign) -> None:
    """Delete a draft, closed or archived campaign with everything it holds (locks the row).

    Judgements, workers, tasks, outputs and ranking runs go with it; the confirmation
    page shows their counts first (``selectors.campaigns.campaign_contents``). Deleting
    a campaign deleted meanwhile (a double click, a second tab) does nothing: it is gone.
    """
    found = Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
    if found is None:
        return
    campaign = found
    if campaign.status not in DELETABLE:
        raise DomainError(
            f"{_a_campaign(campaign)} cannot be deleted: "
            "close it first, so that no worker is in the middle of a task."
        )
    campaign.delete()


@transaction.atomic
def campaign_clone(*, campaign: Campaign, user: User, slug: str, name: str = "") -> Campaign:
    """A new draft with the campaign's settings, languages (with quotas and translations),
    criteria, systems, items (with attributes and language) and outputs (with language).

    For a second round: workers, tasks, assignments, judgements and ranking runs are not
    copied; ``user`` owns the clone. Settings copied are ``CLONED_FIELDS``. Criteria keep
    every field (scale, standard, content checks); a standard copied from an output
    points to the clone's output.
    """
    fields = {name: getattr(campaign, name) for name in CLONED_FIELDS}
    # What workers read in each language, and who may judge in it, belong to the design.
    fields |= {
        "languages": campaign.languages_or_default,
        "language_quotas": dict(campaign.language_quotas or {}),
        "translations": dict(campaign.translations or {}),
    }
    clone = campaign_create(
        slug=slug, name=name or f"{campaign.name} (round 2)", owner=user, **fields
    )
    systems = {
        s.pk: System(campaign=clone, label=s.label, name=s.name, metadata=s.metadata)
        for s in campaign.systems.all()
    }
    System.objects.bulk_create(systems.values())
    items = {
        i.pk: Item(
            campaign=clone,
            external_id=i.external_id,
            input=i.input,
            position=i.position,
            attributes=i.attributes,
            language=i.language,
        )
        for i in campaign.items.all()
    }
    Item.objects.bulk_create(items.values(), batch_size=2000)
    analyze_when_grown(model=Item, rows=len(items))
    old_outputs = list(
        Output.objects.filter(item__campaign=campaign)
        .order_by("id")
        .values_list("id", "item_id", "system_id", "text", "canonical_id", "language")
    )
    outputs = {
        pk: Output(item=items[item_id], system=systems[system_id], text=text, language=language)
        for pk, item_id, system_id, text, _, language in old_outputs
    }
    Output.objects.bulk_create(outputs.values(), batch_size=2000)
    analyze_when_grown(model=Output, rows=len(outputs))
    twins = []
    for pk, _, _, _, canonical_id, _ in old_outputs:
        if canonical_id is not None and canonical_id in outputs:
            outputs[pk].canonical = outputs[canonical_id]
            twins.append(outputs[pk])
    Output.objects.bulk_update(twins, ["canonical"], batch_size=2000)
    criteria = []
    for criterion in campaign.criteria.order_by("position", "name"):
        copy = Criterion(
            **{
                f.attname: getattr(criterion, f.attname)
                for f in Criterion._meta.concrete_fields
                if f.name not in ("id", "campaign", "standard_output")
            },
            campaign=clone,
        )
        if criterion.standard_output_id in outputs:
            copy.standard_output = outputs[criterion.standard_output_id]
        criteria.append(copy)
    Criterion.objects.bulk_create(criteria)
    return clone
