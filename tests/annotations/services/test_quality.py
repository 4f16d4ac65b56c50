"""Quality control: attention checks, repeats, uniform scoring, flagging and stopping."""

from __future__ import annotations

import numpy as np
import pytest
from django.utils import timezone

from annotations.models import Assignment, Campaign, TaskOutput, WorkerCheck
from annotations.selectors.quality import worker_checks
from annotations.services.judgements import judgement_submit
from annotations.services.quality import (
    UNIFORM_RUN,
    attention_task_create,
    pairwise_agreement,
)
from tests.factories import CampaignFactory, WorkerFactory, task_with_outputs

pytestmark = pytest.mark.django_db


def _assign(worker, task, kind="regular"):
    return Assignment.objects.create(
        worker=worker,
        task=task,
        item=task.item,
        criterion=task.criterion,
        kind=kind,
        started_at=timezone.now(),
        display_order=[0, 1, 2],
    )


def test_pairwise_agreement():
    assert pairwise_agreement([3, 2, 1], [300, 200, 100]) == 1.0
    assert pairwise_agreement([3, 2, 1], [1, 2, 3]) == 0.0
    assert pairwise_agreement([1, 1, 2], [1, 1, 3]) == 1.0
    assert pairwise_agreement([1, 2, 3], [1, 3, 2]) == pytest.approx(2 / 3)
    assert pairwise_agreement([5], [7]) == 1.0
    with pytest.raises(ValueError):
        pairwise_agreement([1, 2], [1])


def test_attention_task_replaces_one_slot_by_a_degraded_copy():
    task = task_with_outputs()
    check = attention_task_create(task=task, rng=np.random.default_rng(3))
    assert check.kind == "attention" and check.item_id == task.item_id
    degraded = check.task_outputs.get(role=TaskOutput.Role.DEGRADED)
    original = check.task_outputs.get(role=TaskOutput.Role.REGULAR, output=degraded.output)
    assert degraded.slot != original.slot
    assert degraded.text and degraded.text != original.output.text
    assert sorted(set(check.task_outputs.values_list("slot", flat=True))) == [0, 1, 2]
    assert check.task_outputs.count() == 3


def _attention_setup(**campaign_fields):
    campaign = CampaignFactory(status=Campaign.Status.LIVE, **campaign_fields)
    task = task_with_outputs(campaign=campaign)
    check = attention_task_create(task=task, rng=np.random.default_rng(1))
    degraded = check.task_outputs.get(role="degraded")
    original = check.task_outputs.get(role="regular", output=degraded.output)
    return campaign, check, degraded.slot, original.slot


def test_attention_check_passed_when_copy_rated_below_original():
    campaign, check, copy_slot, original_slot = _attention_setup()
    worker = WorkerFactory(campaign=campaign)
    scores = {0: 100, 1: 100, 2: 100}
    scores[copy_slot], scores[original_slot] = 20, 150
    judgement_submit(assignment=_assign(worker, check), scores=scores)
    result = WorkerCheck.objects.get(worker=worker)
    assert result.kind == "attention" and result.passed
    worker.refresh_from_db()
    assert not worker.flagged


def test_failed_attention_check_flags_and_stops_when_campaign_says_so():
    campaign, check, copy_slot, original_slot = _attention_setup(
        quality_threshold=0.5, stop_failed_workers=True
    )
    worker = WorkerFactory(campaign=campaign)
    scores = {0: 100, 1: 100, 2: 100}
    scores[copy_slot], scores[original_slot] = 150, 150  # a tie is not "below"
    judgement_submit(assignment=_assign(worker, check), scores=scores)
    assert WorkerCheck.objects.get(worker=worker).passed is False
    worker.refresh_from_db()
    assert worker.flagged and worker.stopped
    checks = worker_checks(campaign=campaign)[worker.pk]
    assert (checks.n, checks.attention_passed, checks.attention_pass_rate) == (1, 0, 0.0)


def test_failed_check_without_stop_only_flags():
    campaign, check, copy_slot, original_slot = _attention_setup(stop_failed_workers=False)
    worker = WorkerFactory(campaign=campaign)
    scores = {0: 50, 1: 50, 2: 50}
    scores[copy_slot], scores[original_slot] = 200, 10
    judgement_submit(assignment=_assign(worker, check), scores=scores)
    worker.refresh_from_db()
    assert worker.flagged and not worker.stopped


def test_repeat_checks_self_consistency():
    campaign = CampaignFactory(status=Campaign.Status.LIVE, quality_threshold=0.5)
    task = task_with_outputs(campaign=campaign)
    consistent, flip = WorkerFactory(campaign=campaign), WorkerFactory(campaign=campaign)
    for worker, again in ((consistent, {0: 300, 1: 150, 2: 20}), (flip, {0: 10, 1: 50, 2: 90})):
        judgement_submit(assignment=_assign(worker, task), scores={0: 200, 1: 100, 2: 50})
        judgement_submit(assignment=_assign(worker, task, kind="repeat"), scores=again)
    good = WorkerCheck.objects.get(worker=consistent)
    bad = WorkerCheck.objects.get(worker=flip)
    assert (good.kind, good.passed, good.detail["agreement"]) == ("repeat", True, 1.0)
    assert (bad.kind, bad.passed, bad.detail["agreement"]) == ("repeat", False, 0.0)
    flip.refresh_from_db()
    assert flip.flagged


def test_uniform_scoring_detected_after_a_run():
    campaign = CampaignFactory(status=Campaign.Status.LIVE)
    worker = WorkerFactory(campaign=campaign)
    tasks = [task_with_outputs(campaign=campaign) for _ in range(UNIFORM_RUN + 1)]
    judgement_submit(assignment=_assign(worker, tasks[0]), scores={0: 100, 1: 90, 2: 80})
    for task in tasks[1:UNIFORM_RUN]:
        judgement_submit(assignment=_assign(worker, task), scores={0: 100, 1: 100, 2: 100})
    assert not WorkerCheck.objects.filter(worker=worker).exists()
    judgement_submit(
        assignment=_assign(worker, tasks[UNIFORM_RUN]), scores={0: 100, 1: 100, 2: 100}
    )
    check = WorkerCheck.objects.get(worker=worker)
    assert check.kind == "uniform" and not check.passed
    assert len(check.detail["judgements"]) == UNIFORM_RUN


# -- content checks in attention checks (RankME's "misses information") ------------------


def _attention_with_copy(method: str, content_checks: list[str]):
    """An attention check whose degraded copy was made by ``method`` (drop / shuffle)."""
    from annotations.core.degrade import degrade

    campaign, check, copy_slot, original_slot = _attention_setup()
    criterion = check.criterion
    criterion.content_checks = content_checks
    criterion.save(update_fields=["content_checks"])
    copy = check.task_outputs.get(role="degraded")
    copy.text = degrade(copy.output.text, rng=np.random.default_rng(0), method=method).text
    copy.save(update_fields=["text"])
    return campaign, check, copy_slot, original_slot


def _submit_check(campaign, check, copy_slot, original_slot, ticked):
    worker = WorkerFactory(campaign=campaign)
    scores = {0: 100, 1: 100, 2: 100}
    scores[copy_slot], scores[original_slot] = 20, 150  # the copy is rated lower: good
    if "perfect" in (check.criterion.content_checks or []):
        # The checklist wants a tick for every output: the others reflect the input.
        ticked = {slot: ticked.get(slot, ["perfect"]) for slot in scores}
    judgement_submit(assignment=_assign(worker, check), scores=scores, checks=ticked)
    return WorkerCheck.objects.get(worker=worker)


def test_dropped_content_copy_must_be_ticked_missing():
    campaign, check, copy_slot, original_slot = _attention_with_copy(
        "drop", ["added", "missing", "perfect"]
    )
    failed = _submit_check(campaign, check, copy_slot, original_slot, {copy_slot: ["added"]})
    assert failed.passed is False
    assert failed.detail["dropped_slots"] == [copy_slot]
    assert failed.detail["missing_not_ticked"] == [copy_slot]

    passed = _submit_check(campaign, check, copy_slot, original_slot, {copy_slot: ["missing"]})
    assert passed.passed is True and passed.detail["missing_not_ticked"] == []


def test_shuffled_copy_or_criterion_without_the_missing_check_needs_no_tick():
    campaign, check, copy_slot, original_slot = _attention_with_copy("shuffle", ["missing"])
    result = _submit_check(campaign, check, copy_slot, original_slot, {})
    assert result.passed is True and result.detail["dropped_slots"] == []

    campaign, check, copy_slot, original_slot = _attention_with_copy("drop", [])
    result = _submit_check(campaign, check, copy_slot, original_slot, {})
    assert result.passed is True and "dropped_slots" not in result.detail


@pytest.mark.parametrize("seed", range(6))
def test_a_check_on_a_criterion_that_hides_the_input_is_visibly_worse(seed):
    """The defect: a naturalness check (input hidden) could leave a clause out, which
    leaves a perfectly natural text a careful worker must still score lower."""
    from annotations.core.degrade import drops_content

    task = task_with_outputs()
    task.criterion.show_input = False
    task.criterion.save(update_fields=["show_input"])
    for link in task.task_outputs.select_related("output"):
        link.output.text = "Cotto is a coffee shop, near The Bakers, and it serves Italian food."
        link.output.save(update_fields=["text"])
    check = attention_task_create(task=task, rng=np.random.default_rng(seed))
    degraded = check.task_outputs.get(role=TaskOutput.Role.DEGRADED)
    assert not drops_content(degraded.output.text, degraded.text)
    assert len(degraded.text.split()) > len(degraded.output.text.split())  # said twice
