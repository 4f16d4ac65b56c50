"""Which judgements count: the one rule the monitor, the exports, the payment page and
the rankings read.

A judgement counts when it answers a real task (a task of the design or one imported
from a finished evaluation, never an attention check) for the first time (not a repeat
assignment); of its scores, those of the regular outputs count (never an attention
check's degraded copy). Judgements of workers an organizer excluded stay stored and
count unless the reader leaves them out (``exclude_excluded_workers``): rankings do by
default, exports keep them and mark the worker.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db.models import Q, QuerySet

from annotations.core.slices import LANGUAGE, attribute_name_check
from annotations.models import (
    Assignment,
    Campaign,
    Criterion,
    Judgement,
    JudgementScore,
    Task,
    TaskOutput,
)

COUNTED_TASK_KINDS: tuple[str, ...] = (Task.Kind.REGULAR, Task.Kind.IMPORTED)


def slice_q(where: Mapping[str, str] | None, *, prefix: str = "") -> Q:
    """Judgements of the items in a slice (``core.slices``): every ``name=value`` of
    ``where`` met by the task's item attributes (``language``: the task's language). An
    empty slice is every item. One ``Q`` of all the conditions, built in one step (a
    chain of ``&=`` copies the conditions so far at each step: quadratic)."""
    lookups = {
        f"{prefix}task__language"
        if name == LANGUAGE
        else f"{prefix}task__item__attributes__{attribute_name_check(name)}": value
        for name, value in (where or {}).items()
    }
    return Q(**lookups)


def counted_q(
    *,
    prefix: str = "",
    exclude_excluded_workers: bool = False,
    where: Mapping[str, str] | None = None,
) -> Q:
    """The rule as a ``Q`` on judgements; ``prefix`` reaches them from another model
    (``"judgement__"`` from ``JudgementScore``); ``where`` keeps a slice of the items."""
    q = Q(**{f"{prefix}task__kind__in": COUNTED_TASK_KINDS}) & ~Q(
        **{f"{prefix}assignment__kind": Assignment.Kind.REPEAT}
    )
    if exclude_excluded_workers:
        q &= ~Q(**{f"{prefix}worker__excluded": True})
    return q & slice_q(where, prefix=prefix)


def judgement_counts(*, task_kind: str, assignment_kind: str | None) -> bool:
    """The rule for a judgement already read as values (its task's and assignment's kind)."""
    return task_kind in COUNTED_TASK_KINDS and assignment_kind != Assignment.Kind.REPEAT


def judgement_is_repeat(*, task_kind: str, assignment_kind: str | None) -> bool:
    """A second answer to a real task (kept for intra-annotator agreement, not counted)."""
    return task_kind in COUNTED_TASK_KINDS and assignment_kind == Assignment.Kind.REPEAT


def judgements_counted(
    *,
    criterion: Criterion | None = None,
    campaign: Campaign | None = None,
    exclude_excluded_workers: bool = False,
    where: Mapping[str, str] | None = None,
) -> QuerySet[Judgement]:
    """The judgements that count, of one criterion or of a whole campaign (of a slice of
    its items with ``where``)."""
    qs = Judgement.objects.filter(
        counted_q(exclude_excluded_workers=exclude_excluded_workers, where=where)
    )
    if criterion is not None:
        qs = qs.filter(criterion=criterion)
    if campaign is not None:
        qs = qs.filter(criterion__campaign=campaign)
    return qs


def scores_counted(
    *,
    criterion: Criterion,
    exclude_excluded_workers: bool = False,
    where: Mapping[str, str] | None = None,
) -> QuerySet[JudgementScore]:
    """The scores that count: the regular outputs' scores of the counted judgements (of a
    slice of the items with ``where``)."""
    return JudgementScore.objects.filter(
        counted_q(
            prefix="judgement__", exclude_excluded_workers=exclude_excluded_workers, where=where
        ),
        judgement__criterion=criterion,
        role=TaskOutput.Role.REGULAR,
    )


def judgements_left_out(
    *, criterion: Criterion, where: Mapping[str, str] | None = None
) -> dict[str, int]:
    """How many of a criterion's judgements (of a slice with ``where``) the rule leaves
    out, and why: ``attention_checks`` (answers to an attention check), ``repeats``
    (second answers to a task, other than attention checks)."""
    judgements = Judgement.objects.filter(slice_q(where), criterion=criterion)
    return {
        "attention_checks": judgements.filter(task__kind=Task.Kind.ATTENTION).count(),
        "repeats": judgements.exclude(task__kind=Task.Kind.ATTENTION)
        .filter(assignment__kind=Assignment.Kind.REPEAT)
        .count(),
    }


def item_attributes(*, campaign: Campaign) -> dict[str, list[str]]:
    """Every attribute of the campaign's items with its values (sorted), for choosing a
    slice; ``language`` too when the campaign has more than one."""
    found: dict[str, set[str]] = {}
    if len(campaign.languages or []) > 1:
        found[LANGUAGE] = set(campaign.languages)
    for attributes in campaign.items.exclude(attributes={}).values_list("attributes", flat=True):
        for name, value in attributes.items():
            found.setdefault(name, set()).add(str(value))
    return {name: sorted(values) for name, values in sorted(found.items())}
