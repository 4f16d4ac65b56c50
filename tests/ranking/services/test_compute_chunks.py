"""Chunked ranking runs (ranking/services/compute.py): one Celery task per chunk, stored in
the database, merged by the chunk stored last; cancel; and the runs created before
chunking, which still compute as one stream."""

from __future__ import annotations

import numpy as np
import pytest
from django.db.models import F

from ranking import stats
from ranking.models import RankingChunk, RankingRun
from ranking.selectors import runs as selectors
from ranking.services import compute
from ranking.services.compute import ranking_chunk_compute, ranking_run_compute
from ranking.services.runs import ranking_run_cancel, ranking_run_create
from tests.ranking.chunked_runs import _reference, _values

pytestmark = pytest.mark.django_db


RUNS = 60  # three chunks of 25, 25 and 10 runs


@pytest.fixture(autouse=True)
def chunks_of_25(monkeypatch):
    """New runs store chunks of 25 runs here, whatever the default."""
    monkeypatch.setattr(stats, "DEFAULT_CHUNK_RUNS", 25)


def test_a_new_run_stores_its_chunk_size_and_is_computed_in_chunks(
    planted, django_capture_on_commit_callbacks
):
    campaign, criterion = planted
    with django_capture_on_commit_callbacks(execute=True):
        run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, seed=4)
    run.refresh_from_db()
    assert run.chunk_runs == 25
    assert run.status == RankingRun.Status.DONE, run.error
    chunks = list(run.chunks.order_by("index"))
    assert [c.runs for c in chunks] == stats.chunk_sizes(RUNS, run.chunk_runs)
    assert all(c.state == RankingChunk.State.DONE and c.result for c in chunks)
    assert run.progress == 1.0 and run.runs_done == RUNS
    # Eager Celery (tasks run here) == the pure in-process computation, exactly.
    assert _values(run) == _reference(run)


def test_fan_out_in_any_completion_order_equals_in_process(planted, dispatched):
    campaign, criterion = planted
    cli = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    ranking_run_compute(run=cli, fan_out=False)  # the ``rank`` command's way
    assert cli.status == RankingRun.Status.DONE, cli.error
    for order in ([2, 0, 1], [1, 2, 0]):
        run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
        dispatched.clear()
        ranking_run_compute(run=run)  # plans and dispatches the three chunks
        assert sorted(dispatched) == [(run.pk, 0), (run.pk, 1), (run.pk, 2)]
        run.refresh_from_db()
        assert run.status == RankingRun.Status.RUNNING and run.progress == 0
        outcomes = []
        for n, index in enumerate(order, start=1):
            outcomes.append(ranking_chunk_compute(run_id=run.pk, index=index))
            run.refresh_from_db()
            assert run.progress == pytest.approx(n / 3)
        assert outcomes == ["computed", "computed", "merged"]
        assert run.status == RankingRun.Status.DONE
        assert run.runs_done == RUNS
        assert _values(run) == _values(cli) == _reference(cli)
        # A redelivered chunk message after the end computes nothing.
        assert ranking_chunk_compute(run_id=run.pk, index=0) == "skipped"


def test_progress_counts_chunks_done_and_runs_done(planted, dispatched):
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    ranking_run_compute(run=run)
    ranking_chunk_compute(run_id=run.pk, index=2)  # the short one: 10 runs
    run.refresh_from_db()
    assert (run.progress, run.runs_done) == (pytest.approx(1 / 3), 10)
    ranking_chunk_compute(run_id=run.pk, index=0)
    run.refresh_from_db()
    assert (run.progress, run.runs_done) == (pytest.approx(2 / 3), 35)


def test_a_duplicate_message_never_takes_over_a_computing_chunk(planted, dispatched):
    """A copy of a chunk's message (sent again while it was queued, or given back by the
    broker) arriving while another worker computes it is skipped: that worker keeps it,
    and the copy costs no attempt."""
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    ranking_run_compute(run=run)
    assert compute._claim_chunk(run_id=run.pk, index=0) is not None  # computing now
    assert ranking_chunk_compute(run_id=run.pk, index=0) == "skipped"
    chunk = run.chunks.get(index=0)
    assert chunk.attempts == 1 and chunk.state == RankingChunk.State.RUNNING


def test_a_dropped_database_connection_gives_the_chunk_back_without_failing_the_run(
    planted, dispatched, monkeypatch
):
    """The database terminated the connection mid-chunk: the run is not failed, the chunk
    is pending again (the task retries it with a backoff), and it then finishes."""
    from django.db import OperationalError

    from ranking import tasks

    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    ranking_run_compute(run=run)
    real = stats.compute_chunks

    def dropped(*args, **kwargs):
        raise OperationalError("terminating connection due to administrator command")

    monkeypatch.setattr(stats, "compute_chunks", dropped)
    with pytest.raises(OperationalError):
        ranking_chunk_compute(run_id=run.pk, index=0)
    run.refresh_from_db()
    assert run.status == RankingRun.Status.RUNNING and not run.error
    assert run.chunks.get(index=0).state == RankingChunk.State.PENDING
    assert OperationalError in tasks.ranking_chunk_compute_task.autoretry_for  # type: ignore[attr-defined]
    monkeypatch.setattr(stats, "compute_chunks", real)
    for index in range(3):
        ranking_chunk_compute(run_id=run.pk, index=index)
    run.refresh_from_db()
    assert run.status == RankingRun.Status.DONE, run.error
    assert _values(run) == _reference(run)


def test_cancel_mid_run_stops_the_remaining_chunks(planted, dispatched):
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    ranking_run_compute(run=run)
    assert ranking_chunk_compute(run_id=run.pk, index=0) == "computed"
    ranking_run_cancel(run=run)
    assert ranking_chunk_compute(run_id=run.pk, index=1) == "skipped"
    assert ranking_chunk_compute(run_id=run.pk, index=2) == "skipped"
    run.refresh_from_db()
    assert run.status == RankingRun.Status.CANCELLED and not run.results.exists()
    assert list(run.chunks.values_list("state", flat=True)) == ["done", "pending", "pending"]


def test_cancel_stops_a_chunk_at_its_next_progress_report(planted, dispatched, monkeypatch):
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    ranking_run_compute(run=run)
    real = compute._chunk_heartbeat
    reports: list[float] = []

    def heartbeat(run_, chunk):
        beat = real(run_, chunk)

        def cancel_then_beat(fraction: float) -> None:
            reports.append(fraction)
            if len(reports) == 1:
                ranking_run_cancel(run=RankingRun.objects.get(pk=run_.pk))
            beat(fraction)

        return cancel_then_beat

    monkeypatch.setattr(compute, "_chunk_heartbeat", heartbeat)
    assert ranking_chunk_compute(run_id=run.pk, index=0) == "skipped"
    assert len(reports) == 1, "the chunk went on after the cancellation"
    assert not run.chunks.filter(state=RankingChunk.State.DONE).exists()


def test_a_redelivered_plan_re_dispatches_only_the_chunks_not_done(planted, dispatched):
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    ranking_run_compute(run=run)
    ranking_chunk_compute(run_id=run.pk, index=1)
    dispatched.clear()
    ranking_run_compute(run=run)  # the compute_run message delivered again
    assert sorted(dispatched) == [(run.pk, 0), (run.pk, 2)]
    run.refresh_from_db()
    assert run.attempts == 1 and run.chunks.count() == 3


def test_judgements_changed_between_chunks_fail_the_run(planted, dispatched):
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=50, queue=False)
    ranking_run_compute(run=run)
    ranking_chunk_compute(run_id=run.pk, index=0)
    RankingChunk.objects.filter(run=run, index=0).update(fingerprint="an older import")
    with pytest.raises(Exception, match="judgements changed"):
        ranking_chunk_compute(run_id=run.pk, index=1)
    run.refresh_from_db()
    assert run.status == RankingRun.Status.FAILED and "retry it" in run.error
    assert not run.results.exists()


def test_runs_created_before_chunking_still_compute_as_one_stream(planted):
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    RankingRun.objects.filter(pk=run.pk).update(chunk_runs=None)  # as migrated
    run.refresh_from_db()
    ranking_run_compute(run=run)
    assert run.status == RankingRun.Status.DONE and not run.chunks.exists()
    data = selectors.ranking_scores(criterion=criterion)
    single = stats.compute(
        method=run.method,
        n_systems=len(data.systems),
        judgement=data.judgement,
        system=data.system,
        score=data.score,
        slot=data.slot,
        runs=RUNS,
        rng=np.random.default_rng(run.seed),
    )
    by_label = {r.system.label: r.value for r in run.results.select_related("system")}
    assert [by_label[data.systems[int(s)].label] for s in single.ranked] == list(single.value)


def test_a_chunk_beats_its_heartbeat_at_most_once_a_second(
    planted, dispatched, django_assert_num_queries
):
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    ranking_run_compute(run=run)
    claimed = compute._claim_chunk(run_id=run.pk, index=0)
    assert claimed is not None
    beat = compute._chunk_heartbeat(claimed[0], [claimed[1]])
    with django_assert_num_queries(2):  # the chunk's and the run's heartbeat
        beat(0.1)
    with django_assert_num_queries(0):
        beat(0.2)


def test_chunks_computed_together_stop_when_one_is_taken_over(planted, dispatched, settings):
    """The heartbeat of chunks computed together stops them all when any one of them was
    handed to a newer attempt (the sweep re-sent it) or the run stopped."""
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    ranking_run_compute(run=run)
    claimed = [compute._claim_chunk(run_id=run.pk, index=i) for i in (0, 1)]
    assert all(claimed)
    settings.RANKING_BEAT_EVERY = 0.0
    beat = compute._chunk_heartbeat(run, [c[1] for c in claimed if c])
    beat(0.1)
    RankingChunk.objects.filter(run=run, index=1).update(attempts=F("attempts") + 1)
    with pytest.raises(compute.RunStopped):
        beat(0.2)


def test_a_worker_reads_a_runs_scores_once_for_all_its_chunks(planted, dispatched, monkeypatch):
    """A Celery worker given several chunks of one run read and packed the judgements for
    each (0.4 s per chunk of E2E quality: 50 chunks of a 2,000-run request spent 20 s
    reading); it keeps the last run's scores and comparisons. A retried run is a new
    attempt and reads again."""
    from ranking.services.runs import ranking_run_retry

    reads = []
    real = selectors.ranking_scores

    def counted(**kw):
        reads.append(kw)
        return real(**kw)

    monkeypatch.setattr(selectors, "ranking_scores", counted)
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    ranking_run_compute(run=run)
    outcomes = [ranking_chunk_compute(run_id=run.pk, index=i) for i in (0, 1, 2)]
    assert outcomes == ["computed", "computed", "merged"]
    assert len(reads) == 1
    run.refresh_from_db()
    assert run.status == RankingRun.Status.DONE and _values(run) == _reference(run)

    RankingRun.objects.filter(pk=run.pk).update(status=RankingRun.Status.FAILED)
    run.refresh_from_db()
    ranking_run_retry(run=run)
    ranking_run_compute(run=run)
    reads.clear()
    for i in (0, 1, 2):
        ranking_chunk_compute(run_id=run.pk, index=i)
    assert len(reads) == 1
    run.refresh_from_db()
    assert run.status == RankingRun.Status.DONE and _values(run) == _reference(run)


def test_a_run_goes_out_in_a_few_tasks_per_worker_and_equals_in_process(
    planted, dispatched, settings
):
    """The fan-out sends a few tasks per worker (settings.RANKING_WORKERS), each of
    consecutive chunks claimed, computed together and stored together; the numbers are
    those of the run computed in one process, whatever the workers."""
    campaign, criterion = planted
    create = {"campaign": campaign, "criterion": criterion, "method": "bootstrap", "runs": 200}
    cli = ranking_run_create(**create, queue=False)
    ranking_run_compute(run=cli, fan_out=False)
    assert cli.status == RankingRun.Status.DONE and cli.chunks.count() == 8
    expected = {
        1: [[0, 1, 2], [3, 4, 5], [6, 7]],
        2: [[0, 1], [2, 3], [4], [5], [6], [7]],
        8: [[i] for i in range(8)],
    }
    for workers, groups in expected.items():
        settings.RANKING_WORKERS = workers
        run = ranking_run_create(**create, queue=False)
        dispatched.clear()
        ranking_run_compute(run=run)
        assert dispatched.groups == groups
        outcomes = [
            ranking_chunk_compute(run_id=run.pk, index=g[0], count=len(g)) for g in reversed(groups)
        ]
        assert outcomes == ["computed"] * (len(groups) - 1) + ["merged"]
        run.refresh_from_db()
        assert run.status == RankingRun.Status.DONE and run.runs_done == 200
        assert all(c.attempts == 1 for c in run.chunks.all())
        assert _values(run) == _values(cli) == _reference(cli)


def test_wmt14_chunks_go_out_in_whole_side_by_side_passes(planted, dispatched, settings):
    """WMT14's chunks travel in whole compiled passes (SIDE_BY_SIDE_LANES runs): 8 chunks
    of 25 runs are one pass, hence one task, however many workers."""
    settings.RANKING_WORKERS = 8
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=200, queue=False)
    ranking_run_compute(run=run)
    assert dispatched.groups == [list(range(8))]


def test_a_task_of_several_chunks_leaves_out_those_done_or_computing_elsewhere(
    planted, dispatched, settings
):
    """A task of chunks 0-2 whose chunk 1 is done and chunk 2 computing in another worker
    (a re-sent message, or a chunk the sweep handed out) claims and stores chunk 0 only;
    the store of the last chunk merges."""
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    ranking_run_compute(run=run)
    assert ranking_chunk_compute(run_id=run.pk, index=1) == "computed"
    assert compute._claim_chunk(run_id=run.pk, index=2) is not None
    assert ranking_chunk_compute(run_id=run.pk, index=0, count=3) == "computed"
    assert [c.attempts for c in run.chunks.order_by("index")] == [1, 1, 1]
    assert run.chunks.get(index=2).state == RankingChunk.State.RUNNING
    RankingChunk.objects.filter(run=run, index=2).update(state=RankingChunk.State.PENDING)
    assert ranking_chunk_compute(run_id=run.pk, index=0, count=3) == "merged"
    run.refresh_from_db()
    assert run.status == RankingRun.Status.DONE and _values(run) == _reference(run)


def test_storing_a_task_of_chunks_costs_a_fixed_number_of_statements(
    planted, dispatched, django_assert_max_num_queries
):
    """Storing k chunks: the run's and the chunks' locks, one UPDATE per chunk, one count
    of the chunks done and one UPDATE of the run's progress (it was 7 statements a chunk,
    one task a chunk)."""
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=200, queue=False)
    ranking_run_compute(run=run)
    claimed = compute._claim_chunks(run_id=run.pk, indices=range(4))
    assert claimed is not None
    locked, chunks = claimed
    assert locked.chunk_runs is not None
    data, comparisons, ranked, inputs = compute._prepared(locked, None)
    parts = stats.compute_chunks(
        comparisons,
        method=locked.method,
        runs=locked.runs,
        chunk_runs=locked.chunk_runs,
        indices=[c.index for c in chunks],
        seed=locked.seed,
    )
    with django_assert_max_num_queries(4 + len(chunks) + 2):  # + the savepoint's 2
        stored = compute._chunk_store(
            locked, chunks, parts, data, ranked, inputs=inputs, seconds=0.1
        )
        assert stored == "computed"


def test_no_worker_setting_below_one_stalls_a_fanned_out_run(planted, dispatched, settings):
    """``RANKING_WORKERS`` 0 or less planned no task at all: the run stayed running with
    every chunk pending until the sweep (an outside review). It counts as one worker."""
    campaign, criterion = planted
    for workers in (0, -1):
        settings.RANKING_WORKERS = workers
        run = ranking_run_create(
            campaign=campaign, criterion=criterion, method="bootstrap", runs=200, queue=False
        )
        dispatched.clear()
        ranking_run_compute(run=run)
        assert dispatched.groups == [[0, 1, 2], [3, 4, 5], [6, 7]]


def test_a_group_stopped_by_a_takeover_sends_its_other_chunks_out_again_at_once(
    planted, dispatched, settings
):
    """A task of several chunks stops when one of them is taken over (the sweep re-sent
    it). Its other chunks, still its own, used to stay running until the sweep found them
    silent (minutes): they go back to pending and out again as one task, and the chunk
    taken over is left to the attempt that has it."""
    settings.RANKING_WORKERS = 1
    campaign, criterion = planted
    run = ranking_run_create(
        campaign=campaign, criterion=criterion, method="bootstrap", runs=200, queue=False
    )
    ranking_run_compute(run=run)
    group = dispatched.groups[0]
    assert group == [0, 1, 2]
    claimed = compute._claim_chunks(run_id=run.pk, indices=group)
    assert claimed is not None
    RankingChunk.objects.filter(run=run, index=1).update(attempts=F("attempts") + 1)
    dispatched.clear()

    def taken_over(*args, **kwargs):
        raise compute.RunStopped()

    settings.RANKING_BEAT_EVERY = 0.0
    original = stats.compute_chunks
    stats.compute_chunks = taken_over  # type: ignore[assignment]
    try:
        assert compute._chunks_compute(*claimed, None) == "skipped"
    finally:
        stats.compute_chunks = original  # type: ignore[assignment]
    states = dict(run.chunks.filter(index__in=group).values_list("index", "state"))
    assert states == {0: "pending", 1: "running", 2: "pending"}
    assert dispatched.groups == [[0, 1, 2]]  # the claim leaves out 1, computing elsewhere
    assert ranking_chunk_compute(run_id=run.pk, index=0, count=3) == "computed"
    states = dict(run.chunks.filter(index__in=group).values_list("index", "state"))
    assert states == {0: "done", 1: "running", 2: "done"}


def test_the_merge_stores_the_counts_of_the_judgements_it_ranked(planted, monkeypatch):
    """A judgement submitted while a run computes: the page said "97 judgements" and
    "used: 98", the merge having read its summary anew. The summary is now read with the
    scores, and the merge stores that one."""
    campaign, criterion = planted
    submitted: list[int] = []
    real_inputs, real_chunks = compute.selectors.ranking_inputs, compute.stats.compute_chunks

    def inputs(**kwargs):
        found = real_inputs(**kwargs)
        return {**found, "judgements_used": found["judgements_used"] + len(submitted)}

    def chunks(*args, **kwargs):
        submitted.append(1)  # a worker submits while the chunks compute
        return real_chunks(*args, **kwargs)

    monkeypatch.setattr(compute.selectors, "ranking_inputs", inputs)
    monkeypatch.setattr(compute.stats, "compute_chunks", chunks)
    run = ranking_run_compute(
        run=ranking_run_create(campaign=campaign, criterion=criterion, runs=200, queue=False)
    )
    run.refresh_from_db()
    assert run.status == "done", run.error
    assert submitted and run.inputs["judgements_used"] == run.n_judgements
