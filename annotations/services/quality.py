"""Quality control of workers: attention checks, repeats, uniform scoring, flagging.

* **Attention check**: a task (``Task.kind=attention``) in which one output is replaced
  by a degraded copy of another output of the same task (``annotations.core.degrade``). The
  worker passes when the copy is rated strictly below its original, and, when the
  criterion asks the "missing" content check and the copy left a stretch of the
  original out, when the copy is ticked "misses information from the input".
* **Repeat**: a task the worker did earlier, shown again (``Assignment.kind=repeat``).
  The worker passes when the two judgements order the outputs alike: the share of
  output pairs ordered the same way (ties agreeing with ties) is at least
  ``REPEAT_MIN_AGREEMENT``.
* **Uniform scoring**: the same score for every output in ``UNIFORM_RUN`` judgements in
  a row is a failed check.

Whether a worker is below the campaign's ``quality_threshold`` is
``selectors.quality.quality_verdict`` (each kind of check rated on its own pass rate:
attention checks never pooled with repeats); below it the worker is flagged, and stopped
when the campaign stops failed workers. Flags are only ever set here, never cleared (an
organizer decides that).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from django.db import transaction
from django.db.models import Count

from annotations.core.degrade import degrade, drops_content
from annotations.models import (
    Assignment,
    Criterion,
    Judgement,
    JudgementScore,
    Task,
    TaskOutput,
    Worker,
    WorkerCheck,
)
from annotations.selectors.quality import quality_verdict, worker_checks

REPEAT_MIN_AGREEMENT = 0.6
UNIFORM_RUN = 3


def pairwise_agreement(first: Sequence[float], second: Sequence[float]) -> float:
    """Share of pairs (i, j) that both score lists order the same way (ties count as an order).

    >>> pairwise_agreement([3, 2, 1], [30, 20, 10])
    1.0
    >>> pairwise_agreement([3, 2, 1], [1, 2, 3])
    0.0
    """
    if len(first) != len(second):
        raise ValueError("Both score lists must have one score per output.")
    n = len(first)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    if not pairs:
        return 1.0
    same = sum(np.sign(first[i] - first[j]) == np.sign(second[i] - second[j]) for i, j in pairs)
    return float(same) / len(pairs)


def _group_of(task: Task) -> list[Task]:
    """The tasks shown on one page with ``task``: its group's (set-up 1), else itself."""
    if task.group is None:
        return [task]
    return list(
        Task.objects.filter(campaign_id=task.campaign_id, kind=task.kind, group=task.group)
        .order_by("criterion__position", "criterion__name", "criterion_id", "id")
        .select_related("criterion")
    )


@transaction.atomic
def attention_task_create(*, task: Task, rng: np.random.Generator) -> Task:
    """An attention-check copy of ``task``: one slot's outputs replaced by a degraded copy.

    The copy is made from the output of another slot (its ``TaskOutput`` has
    ``role=degraded``, that output as ``output`` and the degraded ``text``); the source
    slot stays in the task so the worker sees the original beside its copy.

    A check looks like the worker's other pages: in set-up 1 (a task of a group) every
    task of the group is copied, each with the same degraded slot, and the copies share
    a group of their own (numbered by the first copy's id; attention groups are told
    apart from the design's by their kind), so the check is a page of every criterion.
    Returns the copy of ``task``.
    """
    group = _group_of(task)
    task_outputs = list(task.task_outputs.select_related("output").order_by("slot", "id"))
    slots = sorted({to.slot for to in task_outputs})
    if len(slots) < 2:
        raise ValueError(f"Task {task.pk} has fewer than two slots: no attention check possible.")
    source_slot, target_slot = (slots[int(i)] for i in rng.choice(len(slots), 2, replace=False))
    source = next(to for to in task_outputs if to.slot == source_slot)
    # A clause left out is visible only beside the input: where a criterion hides the
    # input (naturalness), the copy says a clause twice instead, which a reader sees.
    hidden = Criterion.objects.filter(
        pk__in={member.criterion_id for member in group}, show_input=False
    ).exists()
    copy = degrade(source.shown_text, rng=rng, method="repeat" if hidden else None)
    checks = Task.objects.bulk_create(
        [
            Task(
                campaign_id=member.campaign_id,
                criterion_id=member.criterion_id,
                item_id=member.item_id,
                language=member.language,
                kind=Task.Kind.ATTENTION,
                number=member.number,
            )
            for member in group
        ]
    )
    if task.group is not None:
        for check in checks:
            check.group = checks[0].pk
        Task.objects.filter(pk__in=[c.pk for c in checks]).update(group=checks[0].pk)
    rows = []
    for member, check in zip(group, checks, strict=True):
        outputs = task_outputs if member.pk == task.pk else member.task_outputs.order_by("slot")
        rows += [
            TaskOutput(task=check, output_id=to.output_id, slot=to.slot, role=to.role, text=to.text)
            for to in outputs
            if to.slot != target_slot
        ]
        rows.append(
            TaskOutput(
                task=check,
                output_id=source.output_id,
                slot=target_slot,
                role=TaskOutput.Role.DEGRADED,
                text=copy.text,
            )
        )
    TaskOutput.objects.bulk_create(rows)
    return checks[[m.pk for m in group].index(task.pk)]


def _checked_on_page(task: Task) -> bool:
    """Whether a judgement of the attention task ``task`` is checked: always in set-up 2;
    in set-up 1 only the page's first criterion's (a dropped clause may leave a sentence
    natural, so the page is one check, rated on the criterion a page leads with)."""
    if task.group is None:
        return True
    first = (
        Task.objects.filter(campaign_id=task.campaign_id, kind=task.kind, group=task.group)
        .order_by("criterion__position", "criterion__name", "criterion_id", "id")
        .values_list("pk", flat=True)
        .first()
    )
    return first == task.pk


def _slot_scores(judgement: Judgement) -> dict[int, float]:
    return dict(
        JudgementScore.objects.filter(judgement=judgement)
        .order_by("slot")
        .values_list("slot", "score")
        .distinct()
    )


def _check_attention(
    judgement: Judgement, scores: Sequence[JudgementScore] | None = None
) -> WorkerCheck | None:
    if scores is not None:
        rows = [(js.output_id, js.role, js.score, js.slot, js.checks) for js in scores]
    else:
        rows = list(
            JudgementScore.objects.filter(judgement=judgement).values_list(
                "output_id", "role", "score", "slot", "checks"
            )
        )
    degraded = [(o, s) for o, r, s, _, _ in rows if r == TaskOutput.Role.DEGRADED]
    if not degraded:
        return None
    originals = {o: s for o, r, s, _, _ in rows if r == TaskOutput.Role.REGULAR}
    compared = [(s, originals[o]) for o, s in degraded if o in originals]
    if not compared:
        return None
    passed = all(copy < original for copy, original in compared)
    detail: dict[str, object] = {"copy_vs_original": compared}
    if "missing" in (judgement.criterion.content_checks or []):
        # A copy that dropped part of its original misses information of the input:
        # an attentive worker ticks "missing" for it.
        ticked = {slot: list(keys) for _, r, _, slot, keys in rows if r == TaskOutput.Role.DEGRADED}
        copies = TaskOutput.objects.filter(
            task_id=judgement.task_id, role=TaskOutput.Role.DEGRADED
        ).select_related("output")
        dropped = [to.slot for to in copies if drops_content(to.output.text, to.text)]
        missed = [slot for slot in dropped if "missing" not in ticked.get(slot, [])]
        detail["dropped_slots"] = dropped
        detail["missing_not_ticked"] = missed
        passed = passed and not missed
    return WorkerCheck(
        worker_id=judgement.worker_id,
        assignment_id=judgement.assignment_id,
        kind=WorkerCheck.Kind.ATTENTION,
        passed=passed,
        detail=detail,
    )


def _check_repeat(judgement: Judgement, assignment: Assignment) -> WorkerCheck | None:
    original = (
        Judgement.objects.filter(
            worker_id=judgement.worker_id,
            task_id=judgement.task_id,
            assignment__kind=Assignment.Kind.REGULAR,
        )
        .order_by("submitted_at")
        .first()
    )
    if original is None:
        return None
    now_scores, then_scores = _slot_scores(judgement), _slot_scores(original)
    slots = sorted(set(now_scores) & set(then_scores))
    agreement = pairwise_agreement([then_scores[s] for s in slots], [now_scores[s] for s in slots])
    return WorkerCheck(
        worker_id=judgement.worker_id,
        assignment_id=assignment.pk,
        kind=WorkerCheck.Kind.REPEAT,
        passed=agreement >= REPEAT_MIN_AGREEMENT,
        detail={"original_judgement": original.pk, "agreement": agreement},
    )


def _uniform(n_slots: int, n_values: int) -> bool:
    """A uniform judgement: two or more outputs shown, one value given to all of them."""
    return n_slots >= 2 and n_values == 1


def _check_uniform(
    judgement: Judgement, scores: Sequence[JudgementScore] | None = None
) -> WorkerCheck | None:
    if scores is not None and not _uniform(
        len({s.slot for s in scores}), len({s.score for s in scores})
    ):
        # This judgement is not uniform, so no run of uniform ones ends here: nothing to read.
        return None
    recent = list(
        Judgement.objects.filter(worker_id=judgement.worker_id)
        .order_by("-submitted_at", "-id")
        .annotate(
            n_slots=Count("scores__slot", distinct=True),
            n_values=Count("scores__score", distinct=True),
        )
        .values_list("pk", "n_slots", "n_values")[:UNIFORM_RUN]
    )
    if len(recent) < UNIFORM_RUN:
        return None
    if all(_uniform(n_slots, n_values) for _, n_slots, n_values in recent):
        return WorkerCheck(
            worker_id=judgement.worker_id,
            assignment_id=judgement.assignment_id,
            kind=WorkerCheck.Kind.UNIFORM,
            passed=False,
            detail={"judgements": [pk for pk, _, _ in recent]},
        )
    return None


@transaction.atomic(savepoint=False)
def quality_after_judgement(
    *, judgement: Judgement, scores: Sequence[JudgementScore] | None = None
) -> list[WorkerCheck]:
    """Run the checks a new judgement triggers, store their results, update the worker.

    ``scores``: the judgement's score rows when the caller has them (it just wrote them);
    read here otherwise. Each check reads only what its kind needs.
    """
    assignment = judgement.assignment
    checks: list[WorkerCheck | None] = []
    if judgement.task.kind == Task.Kind.ATTENTION and _checked_on_page(judgement.task):
        checks.append(_check_attention(judgement, scores))
    if assignment.kind == Assignment.Kind.REPEAT:
        checks.append(_check_repeat(judgement, assignment))
    checks.append(_check_uniform(judgement, scores))
    made = [c for c in checks if c is not None]
    if made:
        WorkerCheck.objects.bulk_create(made, ignore_conflicts=True)
        worker_quality_update(
            worker=Worker.objects.select_related("campaign").get(pk=judgement.worker_id)
        )
    return made


@transaction.atomic(savepoint=False)
def worker_quality_update(*, worker: Worker) -> Worker:
    """Flag (and, if the campaign says so, stop) a worker below the quality threshold
    (``selectors.quality.quality_verdict``, the rule every page shows)."""
    campaign = worker.campaign
    checks = worker_checks(campaign=campaign, worker_ids=[worker.pk]).get(worker.pk)
    if quality_verdict(checks, threshold=campaign.quality_threshold).below:
        changed = []
        if not worker.flagged:
            worker.flagged = True
            changed.append("flagged")
        if campaign.stop_failed_workers and not worker.stopped:
            worker.stopped = True
            changed.append("stopped")
        if changed:
            worker.save(update_fields=changed)
    return worker
