"""The monitor's reads (annotations/selectors/monitor.py): the worker table from the
stored checks, the counted rule, the rate and the totals."""

from __future__ import annotations

import numpy as np
import pytest

from annotations.selectors.monitor import campaign_progress, campaign_totals
from tests.annotations.designer_data import judged_campaign

pytestmark = pytest.mark.django_db


# -- the monitor shows the quality checks' stored verdicts -------------------------------


def _assign(worker, task, kind="regular"):
    from tests.factories import AssignmentFactory

    return AssignmentFactory(worker=worker, task=task, kind=kind, display_order=[0, 1, 2])


def test_worker_table_reads_the_stored_checks_so_monitor_and_checks_agree():
    from annotations.core.degrade import degrade
    from annotations.models import Campaign, WorkerCheck
    from annotations.selectors.monitor import worker_table
    from annotations.selectors.payments import payment_rows
    from annotations.services.judgements import judgement_submit
    from annotations.services.quality import attention_task_create
    from tests.factories import CampaignFactory, WorkerFactory, task_with_outputs

    campaign = CampaignFactory(status=Campaign.Status.LIVE, quality_threshold=0.0)
    task = task_with_outputs(campaign=campaign)
    criterion = task.criterion
    criterion.content_checks = ["missing"]
    criterion.save(update_fields=["content_checks"])
    check = attention_task_create(task=task, rng=np.random.default_rng(1))
    copy = check.task_outputs.get(role="degraded")
    copy.text = degrade(copy.output.text, rng=np.random.default_rng(0), method="drop").text
    copy.save(update_fields=["text"])
    original = check.task_outputs.get(role="regular", output=copy.output)

    def check_scores(copy_score, original_score):
        scores = {0: 100, 1: 100, 2: 100}
        scores[copy.slot], scores[original.slot] = copy_score, original_score
        return scores

    careful, careless, sloppy = (WorkerFactory(campaign=campaign) for _ in range(3))
    # Rates the copy lower and ticks "misses information": passes.
    judgement_submit(
        assignment=_assign(careful, check),
        scores=check_scores(20, 150),
        checks={copy.slot: ["missing"]},
    )
    # Rates the copy lower but does not tick "missing" for a copy that dropped content:
    # services.quality fails it (a recount from the scores alone would pass it).
    judgement_submit(assignment=_assign(careless, check), scores=check_scores(20, 150))
    # Rates the copy as high as its original: fails.
    judgement_submit(assignment=_assign(sloppy, check), scores=check_scores(150, 150))
    # Repeats: one consistent worker, one who reverses the order.
    consistent, flip = WorkerFactory(campaign=campaign), WorkerFactory(campaign=campaign)
    for worker, again in ((consistent, {0: 300, 1: 150, 2: 20}), (flip, {0: 10, 1: 50, 2: 90})):
        judgement_submit(assignment=_assign(worker, task), scores={0: 200, 1: 100, 2: 50})
        judgement_submit(assignment=_assign(worker, task, kind="repeat"), scores=again)

    everyone = (careful, careless, sloppy, consistent, flip)
    rows = {row.worker.pk: row for row in worker_table(campaign=campaign)}
    payments = {row.worker.pk: row for row in payment_rows(campaign=campaign)}
    for worker in everyone:
        stored = WorkerCheck.objects.filter(worker=worker)
        attention = list(stored.filter(kind="attention").values_list("passed", flat=True))
        repeats = [c.detail["agreement"] for c in stored.filter(kind="repeat")]
        row = rows[worker.pk]
        assert row.attention_checks == len(attention) == payments[worker.pk].attention_checks
        assert row.attention_pass_rate == (sum(attention) / len(attention) if attention else None)
        assert row.attention_pass_rate == payments[worker.pk].attention_pass_rate
        assert row.self_consistency == (sum(repeats) / len(repeats) if repeats else None)
    assert [rows[w.pk].attention_pass_rate for w in everyone] == [1, 0, 0, None, None]
    assert [rows[w.pk].self_consistency for w in everyone] == [None, None, None, 1, 0]
    # Tasks done count only the judgements that count: no attention check, no repeat.
    assert [rows[w.pk].tasks_done for w in everyone] == [0, 0, 0, 1, 1]


def test_the_counted_rule_is_the_same_for_monitor_exports_and_rankings():
    from annotations.exports.judgements import judgements_for_export
    from annotations.models import Judgement, Task, Worker
    from annotations.selectors.judgements import judgements_counted, scores_counted
    from ranking.selectors.runs import ranking_inputs, ranking_scores

    campaign = judged_campaign(n_items=3, n_workers=3)
    criterion = campaign.criteria.get(name="quality")
    # One worker excluded, one judgement turned into an attention check's.
    first = criterion.judgements.order_by("id").first()
    attention = criterion.judgements.order_by("-id").first()
    assert first is not None and attention is not None
    Worker.objects.filter(pk=first.worker_id).update(excluded=True)
    Task.objects.filter(pk=attention.task_id).update(kind=Task.Kind.ATTENTION)

    counted = set(judgements_counted(criterion=criterion).values_list("pk", flat=True))
    assert counted == set(
        Judgement.objects.filter(criterion=criterion).values_list("pk", flat=True)
    ) - {j.pk for j in Judgement.objects.filter(task__kind=Task.Kind.ATTENTION)}
    assert {j.pk for j in judgements_for_export(criterion=criterion)} == counted
    kept = set(
        judgements_counted(criterion=criterion, exclude_excluded_workers=True).values_list(
            "pk", flat=True
        )
    )
    assert {
        j.pk for j in judgements_for_export(criterion=criterion, include_excluded=False)
    } == kept
    progress = {p.criterion.pk: p for p in campaign_progress(campaign=campaign)}
    assert progress[criterion.pk].collected == len(counted)
    assert ranking_inputs(criterion=criterion)["judgements_used"] == len(kept)
    assert ranking_scores(criterion=criterion).n_judgements == len(kept)
    assert (
        set(
            scores_counted(criterion=criterion, exclude_excluded_workers=True).values_list(
                "judgement_id", flat=True
            )
        )
        == kept
    )


def test_the_rate_counts_from_the_first_judgement_and_a_closed_campaign_gets_no_finish():
    """12 judgements submitted 30 minutes ago in a campaign live since then: 24 an hour
    over the last 30 minutes (it said 4 an hour "over the last 3 hours"); closed, no
    estimated finish (it still gave one)."""
    from datetime import timedelta

    from django.utils import timezone

    from annotations.models import Campaign, Judgement

    campaign = judged_campaign()
    now = timezone.now()

    def submitted(ago: timedelta) -> None:
        Judgement.objects.filter(criterion__campaign=campaign).update(
            started_at=now - ago - timedelta(minutes=1), submitted_at=now - ago
        )

    submitted(timedelta(minutes=30))
    Campaign.objects.filter(pk=campaign.pk).update(
        status=Campaign.Status.LIVE, judgements_per_task=6
    )
    campaign.refresh_from_db()
    [p] = campaign_progress(campaign=campaign, now=now)
    assert p.collected == 12 and p.remaining == 12
    assert p.rate_window == "30 minutes" and p.per_hour == pytest.approx(24.0)
    assert p.finish_at == now + timedelta(minutes=30)
    submitted(timedelta(hours=5))
    [old] = campaign_progress(campaign=campaign, now=now)
    assert old.per_hour == 0 and old.finish_at is None and old.rate_window == "3 hours"

    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.CLOSED)
    campaign.refresh_from_db()
    submitted(timedelta(minutes=30))
    [closed] = campaign_progress(campaign=campaign, now=now)
    assert closed.per_hour == pytest.approx(24.0) and closed.finish_at is None


def test_totals_count_imported_and_collected_judgements_once():
    campaign = judged_campaign()
    progress = campaign_progress(campaign=campaign)
    totals = campaign_totals(campaign=campaign)
    assert totals.planned == sum(p.planned for p in progress) == 12
    assert totals.done == 12 and totals.imported == 0 and totals.to_collect == 12
