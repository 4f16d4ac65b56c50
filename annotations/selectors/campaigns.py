"""Reads. Query-shaped functions that return querysets or plain data."""

from __future__ import annotations

import string
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Exists, IntegerField, Model, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from annotations.access.campaigns import campaigns_visible_to
from annotations.core.inputs import mr_attributes
from annotations.core.languages import direction
from annotations.models import Campaign, Criterion, Item, Judgement, Output, System
from annotations.selectors.criteria import (
    WITHOUT_STANDARD,
    criterion_by_name,
    criterion_missing,
    standard_outputs_left_out,
)
from annotations.selectors.judgements import SlotView, TaskPage
from annotations.selectors.sessions import criterion_in_language
from common.errors import DomainError

# A campaign's settings, in the order the settings page shows them (``task_seed`` last:
# building the tasks sets it, the page does not show it). The one list of them: the
# design form, the REST serializers, ``campaign_settings_update`` and clones read it.
SETTINGS_ORDER: tuple[str, ...] = (
    "name",
    "description",
    "setup",
    "outputs_per_task",
    "judgements_per_task",
    "tasks_per_worker",
    "assignment_timeout_minutes",
    "min_seconds_per_task",
    "min_time_policy",
    "merge_identical_outputs",
    "attention_check_rate",
    "repeat_rate",
    "quality_threshold",
    "stop_failed_workers",
    "adaptive_design",
    "adaptive_batch_tasks",
    "accept_prolific",
    "accept_mturk",
    "accept_link",
    "completion_code",
    "failed_check_code",
    "screened_out_code",
    "consent_text",
    "instructions",
    "task_seed",
)
SETTINGS_FIELDS = frozenset(SETTINGS_ORDER)
#: settings that ``campaign_settings_problems`` requires to be at least 1, in its words:
#: the page's form and the API leave the check to it (not the column's "at least 0")
AT_LEAST_ONE = frozenset(
    {
        "outputs_per_task",
        "judgements_per_task",
        "tasks_per_worker",
        "assignment_timeout_minutes",
        "adaptive_batch_tasks",
    }
)
#: the most each count setting may be, with its unit, the same on every database
#: (SQLite held 2**63 - 1 workers' minutes, and the first session page then failed)
AT_MOST: dict[str, tuple[int, str]] = {
    "outputs_per_task": (50, "outputs"),
    "judgements_per_task": (1_000, "judgements"),
    "tasks_per_worker": (100_000, "tasks"),
    "min_seconds_per_task": (86_400, "seconds (a day)"),
    "assignment_timeout_minutes": (43_200, "minutes (30 days)"),
    "adaptive_batch_tasks": (10_000, "tasks"),
}
#: the longest each text setting may be, in characters (2 MB of instructions were taken,
#: and every page that shows them grew to match)
TEXT_AT_MOST: dict[str, int] = {
    "description": 5_000,
    "instructions": 50_000,
    "consent_text": 20_000,
}
# The settings the settings page edits (the seed is the tasks' own).
SETTINGS_ON_PAGE: tuple[str, ...] = tuple(f for f in SETTINGS_ORDER if f != "task_seed")
# Settings that shape the task design: they change only while the campaign is a draft.
DESIGN_FIELDS = frozenset(
    {
        "setup",
        "outputs_per_task",
        "judgements_per_task",
        "tasks_per_worker",
        "merge_identical_outputs",
        "task_seed",
        "attention_check_rate",
        "repeat_rate",
    }
)
# What a closed or archived campaign may still change: how it is called.
ALWAYS_EDITABLE = frozenset({"name", "description"})


def count_of(model: type[Model]) -> Coalesce:
    """The number of ``model`` rows of the campaign in the outer query.

    One subquery per count: joining several relations at once would multiply their rows
    (21 systems x 630 items x 2,826 tasks for the E2E campaign).
    """
    rows = (
        model._default_manager.filter(campaign=OuterRef("pk"))
        .order_by()
        .values("campaign")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(rows, output_field=IntegerField()), 0)


def campaign_list(*, user: User | AnonymousUser) -> QuerySet[Campaign]:
    """The campaigns the user may see, newest first, with their sizes."""
    return (
        campaigns_visible_to(user)
        .annotate(
            n_systems=count_of(System), n_items=count_of(Item), n_criteria=count_of(Criterion)
        )
        .order_by("-created_at")
    )


def campaigns_listed(*, user: User | AnonymousUser, status: str = "") -> QuerySet[Campaign]:
    """The campaigns the user may see, newest first, with their owners; only those of
    ``status`` when given (the campaigns API's list)."""
    qs = campaigns_visible_to(user).select_related("owner").order_by("-created_at")
    if status:
        qs = qs.filter(status=status)
    return qs


def campaign_find(slug: str) -> Campaign | None:
    """The campaign with the slug ``slug``, or None: the one lookup by slug for the
    command line (pages and APIs find a campaign among the user's: ``access``)."""
    return Campaign.objects.filter(slug=slug).first()


def campaign_by_slug(slug: str) -> Campaign:
    """The campaign with the slug ``slug``; DomainError, in one wording, when there is none."""
    campaign = campaign_find(slug)
    if campaign is None:
        raise DomainError(f"No campaign with the slug '{slug}'.")
    return campaign


def campaign_reread(*, campaign: Campaign) -> Campaign:
    """The campaign as stored, as a separate instance: a form or serializer given it may
    change it and fail without changing ``campaign``, which the page or response shows."""
    return Campaign.objects.get(pk=campaign.pk)


def campaign_criterion_get(
    *, campaign_slug: str, criterion_name: str
) -> tuple[Campaign, Criterion]:
    """A campaign and one of its criteria by name; DomainError says what exists instead."""
    campaign = campaign_by_slug(campaign_slug)
    criterion = criterion_by_name(campaign, criterion_name)
    if criterion is None:
        names = list(campaign.criteria.values_list("name", flat=True))
        raise criterion_missing(campaign, criterion_name, others=names)
    return campaign, criterion


#: What building a campaign's tasks (and so launching it) needs, each with the step that
#: supplies it, in the order to take them.
BUILD_NEEDS: dict[str, str] = {
    "systems": "upload system outputs",
    "criteria": "add a criterion",
    "standards": "choose the standard of each magnitude criterion",
}


def campaign_build_blockers(*, campaign: Campaign) -> dict[str, str]:
    """What of :data:`BUILD_NEEDS` the campaign lacks (``"systems"``, ``"criteria"``,
    ``"standards"``: a magnitude criterion without its standard, as
    :data:`~annotations.selectors.criteria.WITHOUT_STANDARD`), with the step that supplies it; empty when its tasks may be built. One query. The
    one statement of the rule: the campaign page says it, building and launching refuse
    by it."""
    there = (
        Campaign.objects.filter(pk=campaign.pk)
        .annotate(
            has_systems=Exists(System.objects.filter(campaign=OuterRef("pk"))),
            has_criteria=Exists(Criterion.objects.filter(campaign=OuterRef("pk"))),
            has_standards=~Exists(
                Criterion.objects.filter(WITHOUT_STANDARD, campaign=OuterRef("pk"))
            ),
        )
        .values_list("has_systems", "has_criteria", "has_standards")
        .first()
    ) or (False, False, False)
    return {
        need: step
        for (need, step), present in zip(BUILD_NEEDS.items(), there, strict=True)
        if not present
    }


@dataclass(frozen=True)
class CampaignSteps:
    """What the campaign page offers next: ``next_step`` gets the primary button
    (``upload``, ``criteria``, ``standards``, ``build`` or ``launch``; empty once live
    or ended), and
    ``blocked`` says why a draft cannot be built and launched yet."""

    next_step: str
    blocked: str


def campaign_steps(*, campaign: Campaign, built: bool) -> CampaignSteps:
    """The campaign page's next step (``built``: the plan's, whether tasks are built) and
    what blocks building (:func:`campaign_build_blockers`)."""
    if campaign.status == Campaign.Status.PAUSED:
        return CampaignSteps(next_step="launch", blocked="")
    if campaign.status != Campaign.Status.DRAFT:
        return CampaignSteps(next_step="", blocked="")
    missing = campaign_build_blockers(campaign=campaign)
    if "systems" in missing:
        next_step = "upload"
    elif "criteria" in missing:
        next_step = "criteria"
    elif "standards" in missing:
        next_step = "standards"
    else:
        next_step = "launch" if built else "build"
    return CampaignSteps(
        next_step=next_step, blocked=f"First {' and '.join(missing.values())}." if missing else ""
    )


def campaign_systems(*, campaign: Campaign) -> list[System]:
    """The campaign's systems by label."""
    return list(campaign.systems.order_by("label"))


@dataclass(frozen=True)
class CampaignContents:
    """What a campaign holds: what deleting it loses."""

    criteria: int
    systems: int
    items: int
    outputs: int
    tasks: int
    workers: int
    judgements: int
    ranking_runs: int


def campaign_contents(*, campaign: Campaign) -> CampaignContents:
    """Counts of everything deleting the campaign would delete."""
    return CampaignContents(
        criteria=campaign.criteria.count(),
        systems=campaign.systems.count(),
        items=campaign.items.count(),
        outputs=Output.objects.filter(item__campaign=campaign).count(),
        tasks=campaign.tasks.count(),
        workers=campaign.workers.count(),
        judgements=Judgement.objects.filter(criterion__campaign=campaign).count(),
        # The reverse relation of ranking.RankingRun (annotations never imports ranking).
        ranking_runs=campaign.ranking_runs.count(),  # type: ignore[attr-defined]
    )


def sample_task_page(*, campaign: Campaign, criterion_name: str | None = None) -> TaskPage | None:
    """A task page made from the uploaded outputs, for previews before tasks are built.

    The first item (in upload order) with the most outputs, up to ``outputs_per_task``
    of them in system order (identical texts shown once when the campaign merges them),
    under the named criterion or the first one. Nothing is stored; None without
    criteria or outputs.
    """
    criteria = campaign.criteria.order_by("position", "name")
    criterion = (criterion_by_name(campaign, criterion_name) if criterion_name else None) or (
        criteria.first()
    )
    if criterion is None:
        return None
    item = (
        campaign.items.annotate(n=Count("outputs"))
        .filter(n__gt=0)
        .order_by("-n", "position", "id")
        .first()
    )
    if item is None:
        return None
    texts: list[str] = []
    language = ""  # a task never mixes languages: the first output's
    # Building leaves the standards, and the outputs sharing their text, out of every task
    # (RankME's standard stood outside the rated set): the preview before the build does
    # too, by the same rule (it showed the standard as output A, then a standard's twin
    # where the campaign does not merge identical outputs).
    shown = item.outputs.exclude(standard_outputs_left_out(criteria=list(criteria)))
    for output in shown.select_related("system").order_by("language", "system__label", "id"):
        if campaign.merge_identical_outputs and output.canonical_id is not None:
            continue
        language = language or output.language or item.language
        if (output.language or item.language) != language:
            continue
        texts.append(output.text)
        if len(texts) == campaign.outputs_per_task:
            break
    language = language or campaign.default_language
    if language != campaign.default_language:
        criterion = criterion_in_language(criterion, language)
    letters = string.ascii_uppercase
    return TaskPage(
        campaign=campaign,
        criterion=criterion,
        item=item,
        # The outputs' language and direction, as a built task of them has them.
        language=language,
        direction=direction(language),
        input_language=item.language,
        input_direction=direction(item.language),
        input_pairs=mr_attributes(item.input) if criterion.show_input else None,
        slots=[
            SlotView(slot=i, letter=letters[i % 26] * (1 + i // 26), text=text)
            for i, text in enumerate(texts)
        ],
        assignment=None,
    )


def campaign_fixed_fields(*, campaign: Campaign) -> frozenset[str]:
    """The settings that can no longer change, and so are shown read-only.

    The design fields once tasks are built (the built tasks would no longer match them;
    a live, paused or closed campaign always has tasks), and everything but the name
    and description once the campaign is closed or archived.
    """
    if campaign.has_ended:
        return frozenset(SETTINGS_FIELDS - ALWAYS_EDITABLE)
    if campaign.status != Campaign.Status.DRAFT or campaign.tasks.exists():
        return DESIGN_FIELDS
    return frozenset()


def campaign_design_token(*, campaign: Campaign) -> str:
    """The design a designer sees: ``"none"`` before any task, else the seed of the tasks
    built. The build form sends it back (``design``), so that a build sent twice, or from
    a second tab, does not rebuild what the first one built."""
    if not campaign.tasks.exists():
        return "none"
    return str(Campaign.objects.values_list("task_seed", flat=True).get(pk=campaign.pk))
