"""A crowd worker's session, the reads: the worker of a session link, their assignments,
their progress (pages done of the pages they owe), the session's plan (which positions
are checks), and the campaign's and criteria's texts in their language. The writes are ``services.sessions``; the task page a session
shows is read by ``selectors.judgements``.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from django.db.models import QuerySet

from annotations.core.languages import CAMPAIGN_TEXTS, translated_for
from annotations.models import Assignment, Campaign, Criterion, Task, Worker
from common.queries import prepared


@dataclass(frozen=True)
class Progress:
    """Pages done of the pages a worker owes (``tasks_per_worker``)."""

    done: int
    total: int

    @property
    def current(self) -> int:
        return min(self.done + 1, self.total)


@prepared(slug=str)
def _campaign_by_slug(slug: str) -> QuerySet[Campaign]:
    return Campaign.objects.filter(slug=slug).order_by()[:1]


def campaign_by_slug(*, slug: str) -> Campaign | None:
    """The campaign of a worker's entry link (prepared: every arrival reads it)."""
    return next(iter(_campaign_by_slug(slug=slug)), None)


@prepared(worker_id=int, slug=str)
def _session_worker(worker_id: int, slug: str) -> QuerySet[Worker]:
    return (
        Worker.objects.select_related("campaign")
        .filter(pk=worker_id, campaign__slug=slug)
        .order_by()[:1]
    )


def session_worker(*, worker_id: int, slug: str) -> Worker | None:
    """The worker of a session link, with its campaign, if the link's campaign is theirs.

    Every fetch and submit reads it first: the query is prepared (compiled once)."""
    return next(iter(_session_worker(worker_id=worker_id, slug=slug)), None)


@prepared(assignment_id=int, worker_id=int)
def _assignment_of(with_campaign: bool, assignment_id: int, worker_id: int) -> QuerySet[Assignment]:
    related = ("task__criterion", "task__item") + (() if with_campaign else ("task__campaign",))
    return (
        Assignment.objects.filter(pk=assignment_id, worker_id=worker_id)
        .select_related(*related)
        .order_by()[:1]
    )


def assignment_for_worker(*, worker: Worker, assignment_id: int) -> Assignment | None:
    """The worker's assignment with its task, criterion, item and campaign (the worker's,
    when it was read with the worker, else read with the assignment)."""
    campaign = worker.campaign if Worker.campaign.is_cached(worker) else None  # type: ignore[attr-defined]
    assignment = next(
        iter(
            _assignment_of(campaign is not None, assignment_id=assignment_id, worker_id=worker.pk)
        ),
        None,
    )
    if assignment is not None and campaign is not None:
        assignment.task.campaign = campaign
    return assignment


def is_together(campaign: Campaign) -> bool:
    """Set-up 1: every criterion of a group on one page (a page is then a group)."""
    return campaign.setup == Campaign.Setup.TOGETHER


# The session's plan ---------------------------------------------------------------------------
# Which kind of task each position of a worker's session holds, fixed by seeds: the
# hand-out (``services.assignment``) reads it.

KIND_REGULAR = "regular"
KIND_ATTENTION = "attention"
KIND_REPEAT = "repeat"


def session_seed(*parts: int) -> list[int]:
    """The seed of one of a session's generators, from its parts (the campaign's
    ``task_seed``, the worker, what it draws for)."""
    # numpy seeds must be non-negative; task_seed is a signed 64-bit field.
    return [int(p) % (2**63) for p in parts]


def _fraction(x: float) -> float:
    """What ``x`` has beyond its whole part; below 1e-9 it is float noise (0.2 * 10): 0."""
    return max(0.0, x - math.floor(x + 1e-9) - 1e-9)


def _rounded(x: float, u: float) -> int:
    """``x`` rounded down, or up with probability equal to its fraction (``u`` uniform in
    [0, 1)): on average ``x``."""
    return math.floor(x + 1e-9) + int(u < _fraction(x))


def session_plan(*, campaign: Campaign, worker: Worker) -> list[str]:
    """The kind of task at each position of the worker's session, fixed by seeds.

    ``regular``, ``attention`` or ``repeat``; ``rate * tasks_per_worker`` of each check,
    rounded up or down at random (seeded per worker) so that the share over all workers
    is the rate: 10% of 4 tasks gives 40% of the workers one check each, where rounding
    would give nobody any. Repeats never in the first two positions (something must be
    there to repeat).
    """
    n = campaign.tasks_per_worker
    rng = np.random.default_rng(session_seed(campaign.task_seed, worker.pk, 1))
    repeats, checks = n * campaign.repeat_rate, n * campaign.attention_check_rate
    # Every fetch plans: the generator of the rounding only when a count has a fraction.
    up = (
        np.random.default_rng(session_seed(campaign.task_seed, worker.pk, 4)).random(2)
        if _fraction(repeats) or _fraction(checks)
        else (1.0, 1.0)
    )
    n_repeat = min(_rounded(repeats, up[0]), max(0, n - 2))
    n_attention = min(_rounded(checks, up[1]), n - n_repeat)
    plan = [KIND_REGULAR] * n
    repeat_at: Iterable[np.integer] = (
        rng.choice(np.arange(2, n), size=n_repeat, replace=False) if n_repeat else []
    )
    for p in repeat_at:
        plan[int(p)] = KIND_REPEAT
    # Not the first task when there are others: a check is a copy of a task of the
    # worker's own criteria, which the worker has none of before their first task.
    free = np.array(
        [i for i in range(n) if plan[i] == KIND_REGULAR and (i or n_attention >= n - n_repeat)],
        dtype=np.int64,
    )
    attention_at: Iterable[np.integer] = (
        rng.choice(free, size=n_attention, replace=False) if n_attention else []
    )
    for p in attention_at:
        plan[int(p)] = KIND_ATTENTION
    # A repeat needs an earlier regular task that was not the one just done (see
    # _pick_repeat): where only the position right before it is regular, move an earlier
    # attention check between them, the first one (so every repeat before gains one too).
    # [A, R, rep] -> [R, A, rep].
    for r in range(n):
        if plan[r] != KIND_REPEAT or any(k == KIND_REGULAR for k in plan[: r - 1]):
            continue
        if plan[r - 1] == KIND_REGULAR:
            a = min(i for i in range(r - 1) if plan[i] == KIND_ATTENTION)
            plan[a], plan[r - 1] = plan[r - 1], plan[a]
    return plan


# Pages -------------------------------------------------------------------------------------
# A page is the unit of ``tasks_per_worker``: what a worker submits at once. The rule is
# stated here once; the session's progress, the monitor's worker table and the plan count
# by it.

#: The kinds of task whose set-up 1 copies share a page (a group): the designed tasks and
#: their attention checks. Imported tasks have no group.
GROUPED_TASK_KINDS = frozenset({Task.Kind.REGULAR, Task.Kind.ATTENTION})


def page_key(
    *,
    together: bool,
    group: int | None,
    task_kind: str,
    assignment_kind: str | None,
    own: tuple[str, int],
) -> tuple[str, int]:
    """The page a task was shown on, as a key: in set-up 1 (``together``) a grouped task
    (:data:`GROUPED_TASK_KINDS`) handed out as itself, not as a repeat, is on its group's
    page (one per criterion of the group); anything else (set-up 2, a repeat: a page of
    one task) is a page of its own, ``own`` (the assignment's or judgement's key)."""
    if (
        together
        and group is not None
        and task_kind in GROUPED_TASK_KINDS
        and assignment_kind not in (Assignment.Kind.REPEAT, Assignment.Kind.IMPORTED)
    ):
        return (f"group-{task_kind}", group)
    return own


def tasks_per_regular_page(*, campaign: Campaign, criteria: int) -> int:
    """How many tasks a regular page holds (:func:`page_key`'s rule for a campaign with
    ``criteria`` criteria): one per criterion in set-up 1, one in set-up 2. An attention
    check or a repeat is a page of one task in either."""
    return max(criteria, 1) if is_together(campaign) else 1


def pages_done(*, worker: Worker, campaign: Campaign) -> int:
    """Pages the worker submitted (:func:`page_key`): assignments, counted once per
    group in set-up 1."""
    rows = Assignment.objects.filter(worker=worker, state=Assignment.State.SUBMITTED)
    if not is_together(campaign):
        return rows.count()
    keys = {
        page_key(
            together=True,
            group=group,
            task_kind=task_kind,
            assignment_kind=kind,
            own=("assignment", pk),
        )
        for pk, kind, group, task_kind in rows.values_list(
            "pk", "kind", "task__group", "task__kind"
        )
    }
    return len(keys)


def worker_progress(*, worker: Worker, campaign: Campaign) -> Progress:
    """Pages done of the worker's ``tasks_per_worker`` (a group is one page in set-up 1)."""
    return Progress(
        done=pages_done(worker=worker, campaign=campaign), total=campaign.tasks_per_worker
    )


def criterion_in_language(criterion: Criterion, language: str) -> Criterion:
    """The criterion as a worker judging in ``language`` reads it: its question, Likert
    level descriptors and standard text from ``Criterion.translations[language]`` where
    the designer gave them (a tag with the same base language stands in, as on every worker
    page: ``translated_for``), else as entered. A copy for display, never saved."""
    given = translated_for(criterion.translations, language)
    if not given:
        return criterion
    shown = copy.copy(criterion)
    shown.question = given.get("question") or criterion.question
    shown.standard_text = given.get("standard_text") or criterion.standard_text
    shown.example = given.get("example") or criterion.example
    levels = given.get("levels") or []
    if levels and criterion.likert_levels:
        translated = []
        for level, text in zip(criterion.likert_levels, levels, strict=False):
            if isinstance(text, dict):
                level = {
                    **level,
                    **{k: v for k, v in text.items() if k in ("label", "descriptor") and v},
                }
            elif text:
                level = {**level, "descriptor": str(text)}
            translated.append(level)
        translated += criterion.likert_levels[len(translated) :]
        shown.scale_settings = {**criterion.scale_settings, "levels": translated}
    return shown


def campaign_in_language(campaign: Campaign, language: str) -> Campaign:
    """The campaign's worker-facing texts (name, description, instructions, consent) in
    ``language`` where the designer gave them (``Campaign.translations``, read as
    ``translated_for`` reads it). A copy for display, never saved."""
    given = translated_for(campaign.translations, language)
    if not given:
        return campaign
    shown = copy.copy(campaign)
    for field in CAMPAIGN_TEXTS:
        if given.get(field):
            setattr(shown, field, given[field])
    return shown
