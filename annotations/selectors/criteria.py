"""Reads about criteria for the designer's pages."""

from __future__ import annotations

from django.db.models import Q

from annotations.models import Criterion, Output, Task, TaskOutput


def standard_rated_tasks(*, criterion: Criterion) -> int:
    """How many of the criterion's tasks rate its standard: the uploaded output chosen as
    the standard, or an output with the same text. Building leaves them out (RankME's
    standard was not among the rated outputs), so this is above 0 only for tasks built
    before the standard was chosen."""
    if not criterion.standard_output_id:
        return 0
    standard = Output.objects.filter(pk=criterion.standard_output_id).first()
    if standard is None:
        return 0
    same = Q(output_id=standard.pk) | Q(output__canonical_id=standard.pk)
    if standard.canonical_id:
        same |= Q(output_id=standard.canonical_id) | Q(output__canonical_id=standard.canonical_id)
    return (
        TaskOutput.objects.filter(same, task__criterion=criterion)
        .exclude(task__kind=Task.Kind.IMPORTED)
        .values("task_id")
        .distinct()
        .count()
    )
