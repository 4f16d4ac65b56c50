"""Computing ranking runs: claim a run (or a chunk of it), compute it whole or in
chunks fanned out to Celery, store the result.

Every progress report beats the run's (and its chunks') heartbeat and stops the
computation when the run is no longer this attempt's (cancelled, or ended by
``ranking.services.sweep``).
"""

from __future__ import annotations

import functools
import json
import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, Q, Sum
from django.utils import timezone

from annotations.models import Campaign
from common import jobs
from common.errors import DomainError
from common.queries import TRANSIENT_DATABASE_ERRORS, transient_error
from ranking import stats
from ranking.models import RankingChunk, RankingResult, RankingRun
from ranking.selectors import runs as selectors


class RunStopped(Exception):
    """The run was cancelled or ended by the sweep while it computed: stop quietly."""


def _fail_locked(run: RankingRun, *, now: datetime, error: str) -> None:
    """Fail a run whose row this transaction has locked, saying why."""
    run.status = RankingRun.Status.FAILED
    run.error = error
    run.finished_at = now
    run.save(update_fields=["status", "error", "finished_at"])


@transaction.atomic
def _claim(*, run_id: int) -> tuple[RankingRun, int] | None:
    """Mark a run running for a new attempt; None when there is nothing to compute.

    Locks the run's row. A message redelivered for a run that has ended (done,
    cancelled, or failed by the sweep) computes nothing; a run whose computation was
    lost ``RANKING_MAX_ATTEMPTS`` times (each time the worker died: killed, out of
    memory) is failed instead of being tried forever.
    """
    run = RankingRun.objects.select_for_update().filter(pk=run_id).first()
    if run is None or run.status in RankingRun.ENDED:
        return None
    now = timezone.now()
    if run.attempts >= settings.RANKING_MAX_ATTEMPTS:
        _fail_locked(
            run,
            now=now,
            error=(
                f"The worker computing this run was lost {run.attempts} times (killed, out "
                "of memory or restarted) before it finished. Retry it, perhaps with fewer runs."
            ),
        )
        return None
    _start_attempt(run, now=now)
    return run, run.attempts


def _start_attempt(run: RankingRun, *, now: datetime) -> None:
    """Mark a claimed run as running a new attempt, from no progress (row locked)."""
    run.attempts += 1
    run.status = RankingRun.Status.RUNNING
    run.started_at = run.heartbeat_at = now
    run.progress = 0.0
    run.runs_done = 0
    run.error = ""
    run.save(
        update_fields=[
            "attempts",
            "status",
            "started_at",
            "heartbeat_at",
            "progress",
            "runs_done",
            "error",
        ]
    )


def ranking_run_compute(
    *, run: RankingRun, fan_out: bool = True, queue: str | None = None
) -> RankingRun:
    """Compute a run and store its result; failures are recorded on the run and re-raised.

    A chunked run (``chunk_runs`` set: every run created since chunking came) is planned
    here, one :class:`RankingChunk` per ``chunk_runs`` runs, and each chunk handed to
    Celery (``ranking.compute_chunk``, :func:`ranking_chunk_compute`); the chunk stored
    last merges them all and finishes the run. With ``fan_out=False`` (the ``rank``
    command) the chunks are computed here, one after the other, by the same service.
    ``queue``: the Celery queue the chunks go to (the task passes the queue its own
    message came from); None: the default queue.
    Runs created before chunking (``chunk_runs`` empty) are computed as one stream,
    as before, so that they reproduce exactly.

    The result depends only on the judgements (their fingerprint is stored), the method,
    its parameters and the seed: computing the same run twice gives identical numbers.

    Idempotent under redelivery: an ended run is left as it is. While computing, every
    progress report updates ``runs_done``, ``progress`` and the heartbeat in one
    conditional UPDATE that matches only while the run is still running this attempt;
    when it matches nothing (the run was cancelled, or the sweep failed it, or a newer
    attempt took over) the computation stops and nothing is stored.
    """
    if run.chunk_runs is not None:
        _compute_chunked(run, fan_out=fan_out, queue=queue)
        run.refresh_from_db()
        return run
    given = run
    claimed = _claim(run_id=run.pk)
    if claimed is None:
        given.refresh_from_db()
        return given
    run, attempt = claimed
    try:
        _compute_claimed(run, attempt)
    finally:
        given.refresh_from_db()
    return given


def _compute_claimed(run: RankingRun, attempt: int) -> None:
    started = time.perf_counter()
    try:
        data = selectors.ranking_scores(
            criterion=run.criterion, exclude_excluded_workers=run.exclude_flagged, where=run.where
        )
        inputs = selectors.ranking_inputs(
            criterion=run.criterion, exclude_excluded_workers=run.exclude_flagged, where=run.where
        )
        if data.n_judgements == 0:
            raise DomainError(f"Criterion '{run.criterion.name}' has no judgements to rank yet.")
        _refuse_single_outputs(run, data)
        try:
            result = stats.compute(
                method=run.method,
                n_systems=len(data.systems),
                judgement=data.judgement,
                system=data.system,
                score=data.score,
                slot=data.slot,
                runs=run.runs,
                confidence=run.confidence,
                parameters=run.parameters,
                rng=np.random.default_rng(run.seed),
                progress=_progress_writer(run, attempt),
                batch_runs=settings.RANKING_BATCH_RUNS,
                min_comparisons=_min_comparisons(),
                max_runs=_max_runs(run.campaign),
            )
        except ValueError as exc:  # e.g. fewer than two systems with comparisons
            raise DomainError(_cannot_rank(run, exc)) from exc
        with transaction.atomic():
            if not _still_ours(run, attempt, lock=True):
                raise RunStopped()
            _store_result(run, data, inputs, result, seconds=time.perf_counter() - started)
    except RunStopped:
        return
    except TRANSIENT_DATABASE_ERRORS:
        # A dropped connection is not the run's failure: the task retries (a new attempt
        # takes the run over); if the database stays away, the heartbeat stops and the
        # sweep ends the run with the reason after RANKING_STALE_AFTER.
        raise
    except Exception as exc:
        message = str(exc)
        if isinstance(exc, SoftTimeLimitExceeded):
            message = (
                f"Stopped at the time limit of {settings.RANKING_SOFT_TIME_LIMIT // 60} "
                f"minutes after {run.runs_done:,} of {run.runs:,} runs; ask for fewer runs."
            )
        elif not isinstance(exc, DomainError):
            message = f"The computation failed ({type(exc).__name__}: {exc})."
        ended = RankingRun.objects.filter(
            pk=run.pk, status=RankingRun.Status.RUNNING, attempts=attempt
        ).update(
            status=RankingRun.Status.FAILED,
            error=message,
            finished_at=timezone.now(),
            seconds=time.perf_counter() - started,
        )
        if ended:
            raise


def _store_result(
    run: RankingRun,
    data: selectors.ScoreArrays,
    inputs: dict[str, Any],
    result: stats.ComputedRanking,
    *,
    seconds: float,
) -> None:
    """Store a computed ranking and mark the run done (inside the caller's transaction,
    with the run's row locked). A ranking with values that are not finite numbers is
    refused (``DomainError``: the run fails saying so), never stored: the pages, the
    API's JSON and the exports could not show it."""
    if not (np.isfinite(result.value).all() and np.isfinite(result.spread).all()):
        raise DomainError(
            "The computation gave values that are not finite numbers with these parameters "
            f"({', '.join(f'{k}={v}' for k, v in sorted(run.parameters.items())) or 'defaults'}); "
            "retry with parameters nearer the defaults."
        )
    ranked = [data.systems[int(i)] for i in result.ranked]
    ranked_labels = {s.label for s in ranked}
    inputs["min_comparisons"] = _min_comparisons()
    # The parameters as computed with, defaults included (what the exports write).
    inputs["parameters_used"] = json.loads(json.dumps(result.result.params, default=float))
    evidence = _evidence(data, result, method=run.method)
    inputs["provisional"] = _provisional(evidence.counts, ranked_labels)
    # Ranked systems in fewer judgements than the minimum (when fewer than two systems
    # meet it, every compared system is ranked): the rule's thin systems, as those with
    # too few comparisons are.
    inputs["thin_judgements"] = sorted(
        [label, evidence.counts[label][1]]
        for label in ranked_labels
        if evidence.counts.get(label, (0, 0))[1] < inputs["min_comparisons"]
    )
    if evidence.separation is not None:
        inputs["separation"] = evidence.separation
    left_apart = ranked_labels | {p["system"] for p in inputs["provisional"]}
    inputs["unranked"] = [
        label
        for label in selectors.ranking_campaign_system_labels(criterion=run.criterion)
        if label not in left_apart
    ]
    inputs["systems_ranked"] = len(ranked)
    run.results.all().delete()
    RankingResult.objects.bulk_create(
        RankingResult(
            run=run,
            system=system,
            value=float(result.value[i]),
            spread=float(result.spread[i]),
            rank_lo=int(result.rank_lo[i]),
            rank_hi=int(result.rank_hi[i]),
            cluster=int(result.cluster[i]),
            comparisons=int(result.comparisons[i]),
        )
        for i, system in enumerate(ranked)
    )
    inputs["judgements_fingerprint"] = data.fingerprint
    run.fingerprint = selectors.ranking_run_fingerprint(
        run=run, judgements=data.fingerprint, min_comparisons=inputs["min_comparisons"]
    )
    run.n_judgements = data.n_judgements
    run.n_comparisons = int(result.n_comparisons)
    run.stability = result.stability
    run.inputs = inputs
    run.status = RankingRun.Status.DONE
    run.progress = 1.0
    run.runs_done = run.runs
    run.heartbeat_at = run.finished_at = timezone.now()
    run.seconds = seconds
    run.save()


def _max_runs(campaign: Campaign) -> int:
    """The most runs a ranking of this campaign may ask for (:func:`_check_runs`): the
    stability check never suggests more."""
    budget = settings.RANKING_MAX_RUN_VALUES // max(campaign.systems.count(), 1)
    return int(min(settings.RANKING_MAX_RUNS, budget))


def _min_comparisons() -> int:
    """The comparisons a system needs to be ranked (``RANKING_MIN_COMPARISONS``); fewer
    (but some) make it provisional (:func:`ranking.stats.prepare_comparisons`)."""
    return int(settings.RANKING_MIN_COMPARISONS)


@dataclass(frozen=True)
class _Evidence:
    #: each system's (comparisons, judgements with a comparison), by label
    counts: dict[str, tuple[int, int]]
    #: how the ranked systems split when their data leave values unbounded (a system that
    #: won every comparison, under Bradley-Terry) or some were never compared: the groups'
    #: labels, highest first, and whether the groups were compared at all; None when not
    separation: dict[str, Any] | None


def _evidence(
    data: selectors.ScoreArrays, result: stats.ComputedRanking, *, method: str
) -> _Evidence:
    """What the data give each system, and whether they bound the ranked systems' values:
    Bradley-Terry's maximum-likelihood strengths need every group of systems to have beaten
    or drawn with the rest at least once (expected wins too: else every resample repeats
    the same wins); every method, the systems compared (:func:`ranking.stats.separation`)."""
    found = stats.system_evidence(
        n_systems=len(data.systems),
        judgement=data.judgement,
        system=data.system,
        score=data.score,
        slot=data.slot,
        ranked=result.ranked,
    )
    counts = {
        s.label: (int(n), int(j))
        for s, n, j in zip(data.systems, found.comparisons, found.judgements, strict=True)
    }
    split, separated = found.separation, None
    by_data = method in ("bradley_terry", "expected_wins")
    if split is not None and split.separated and (by_data or not split.compared):
        separated = {
            "groups": [sorted(data.systems[i].label for i in group) for group in split.groups],
            "compared": split.compared,
        }
    return _Evidence(counts=counts, separation=separated)


def _provisional(evidence: dict[str, tuple[int, int]], ranked: set[str]) -> list[dict[str, Any]]:
    """The systems with comparisons that the ranking left out (fewer comparisons or
    judgements than the minimum), each with its numbers of comparisons and judgements
    in the data, fewest first."""
    left = [
        {"system": label, "comparisons": n, "judgements": j}
        for label, (n, j) in evidence.items()
        if label not in ranked and n > 0
    ]
    return sorted(left, key=lambda p: (p["comparisons"], p["system"]))


# --- Handing runs and chunks to Celery, by task name -------------------------

#: the Celery task that computes a run (ranking/tasks.py), dispatched by name so that the
#: services never import the task module (tasks call services, not the other way round)
COMPUTE_TASK = "ranking.compute_run"


def ranking_run_dispatch(run_id: int) -> None:
    """Hand a committed run to Celery (``common.jobs.dispatch``: without a broker, a
    thread of the web process computes it, so that its page shows its progress)."""
    jobs.dispatch(COMPUTE_TASK, run_id)


# --- Chunked runs: one Celery task per chunk, merged by the last one ----------

#: the Celery task that computes one chunk of a chunked run (ranking/tasks.py)
CHUNK_TASK = "ranking.compute_chunk"


def ranking_chunk_dispatch(run_id: int, index: int, queue: str | None = None) -> None:
    """Hand chunk ``index`` of a running run to Celery (to ``queue`` when given). Without
    a broker the chunk computes here, in the run's own thread (``thread=False``)."""
    jobs.dispatch(CHUNK_TASK, run_id, index, queue=queue, thread=False)


def ranking_chunks_dispatch(run_id: int, first: int, count: int, queue: str | None = None) -> None:
    """Hand chunks ``first`` .. ``first + count - 1`` of a running run to Celery in one
    message (one task claims, computes side by side and stores them all); as
    :func:`ranking_chunk_dispatch` otherwise."""
    jobs.dispatch(CHUNK_TASK, run_id, first, count, queue=queue, thread=False)


def _compute_chunked(run: RankingRun, *, fan_out: bool, queue: str | None = None) -> None:
    indices = _plan(run_id=run.pk)
    if not indices:
        return
    if fan_out:
        # A few tasks per worker process (settings.RANKING_WORKERS), each of consecutive
        # chunks computed side by side: fewer messages, claims and stores than one task
        # per chunk, and the same numbers (a chunk computes what it computes alone).
        for group in stats.chunk_groups(
            indices,
            workers=max(1, settings.RANKING_WORKERS),
            together=stats.chunks_side_by_side(run.method, run.chunk_runs or 1),
        ):
            if len(group) == 1:
                ranking_chunk_dispatch(run.pk, group[0], queue)
            else:
                ranking_chunks_dispatch(run.pk, group[0], len(group), queue)
        return
    # In this process (the ``rank`` command): the scores read once, every chunk claimed
    # as a worker claims it, computed side by side where the method allows it (each
    # chunk's numbers exactly those it has alone) and stored as a worker stores it.
    data = _load_scores(run)
    claimed = _claim_chunks(run_id=run.pk, indices=indices)
    if claimed:
        _chunks_compute(*claimed, data)


@transaction.atomic
def _plan(*, run_id: int) -> list[int]:
    """Start a chunked run: create its chunks; return the indices of those to dispatch.

    Locks the run's row. A pending run becomes running with a fresh set of chunks (a
    retried run's old chunks are dropped); a message redelivered for a running run
    re-dispatches the chunks not done; an ended run computes nothing.
    """
    run = RankingRun.objects.select_for_update().filter(pk=run_id).first()
    if run is None or run.status in RankingRun.ENDED or run.chunk_runs is None:
        return []
    now = timezone.now()
    if run.status == RankingRun.Status.RUNNING and run.chunks.exists():
        pending = run.chunks.exclude(state=RankingChunk.State.DONE)
        indices = list(pending.values_list("index", flat=True))
        # Running chunks keep their heartbeat (a live worker keeps them; a lost one's
        # silence is what the sweep reads); queued ones count the new message.
        pending.filter(state=RankingChunk.State.PENDING).update(
            dispatches=F("dispatches") + 1, heartbeat_at=now
        )
        return indices
    run.chunks.all().delete()
    sizes = stats.chunk_sizes(run.runs, run.chunk_runs)
    RankingChunk.objects.bulk_create(
        RankingChunk(run=run, index=i, runs=size, dispatches=1, heartbeat_at=now)
        for i, size in enumerate(sizes)
    )
    _start_attempt(run, now=now)
    return list(range(len(sizes)))


def _load_scores(run: RankingRun) -> selectors.ScoreArrays:
    data = selectors.ranking_scores(
        criterion=run.criterion, exclude_excluded_workers=run.exclude_flagged, where=run.where
    )
    if data.n_judgements == 0:
        raise DomainError(f"Criterion '{run.criterion.name}' has no judgements to rank yet.")
    return data


def _cannot_rank(run: RankingRun, exc: ValueError) -> str:
    """The statistics' refusal of these data (``ValueError``: e.g. fewer than two systems
    with comparisons), worded for a person, the same whichever path computed the run."""
    return f"Cannot rank '{run.criterion.name}': {exc}"


def _refuse_single_outputs(run: RankingRun, data: selectors.ScoreArrays) -> None:
    """Judgements of one output each (PlainME tasks, or files imported with one output
    per row) hold no within-task comparison: say so rather than "too few comparisons"."""
    if data.judgement.size == data.n_judgements:
        raise DomainError(
            f"Cannot rank '{run.criterion.name}': every judgement scores one output alone "
            "(one output per task, as in PlainME, or one output per imported row), so no "
            "two systems were compared within a task. Compare the systems' means instead "
            "(the means table, with its confidence intervals)."
        )


def _claim_chunk(*, run_id: int, index: int) -> tuple[RankingRun, RankingChunk] | None:
    """:func:`_claim_chunks` of one chunk."""
    claimed = _claim_chunks(run_id=run_id, indices=[index])
    return (claimed[0], claimed[1][0]) if claimed else None


@transaction.atomic
def _claim_chunks(
    *, run_id: int, indices: Sequence[int]
) -> tuple[RankingRun, list[RankingChunk]] | None:
    """Mark chunks ``indices`` running for a new attempt, those there is something to
    compute for; None when there are none (run cancelled or ended, chunks done or
    computing elsewhere, or a chunk lost too often: the run fails).

    Locks the run's row, then the chunks' (always in this order), in one statement each,
    and marks them running in one UPDATE."""
    run = (
        RankingRun.objects.select_for_update().select_related("criterion").filter(pk=run_id).first()
    )
    if run is None or run.status != RankingRun.Status.RUNNING:
        return None
    rows = RankingChunk.objects.select_for_update().filter(run=run, index__in=list(indices))
    now = timezone.now()
    lost_after = settings.RANKING_LOST_AFTER
    claimed = []
    for chunk in rows.order_by("index"):
        if chunk.state == RankingChunk.State.DONE:
            continue
        if chunk.state == RankingChunk.State.RUNNING and not jobs.silent(
            chunk.heartbeat_at, now=now, after=lost_after
        ):
            # A duplicate message (re-sent while queued, or restored by the broker) while
            # another worker computes the chunk: that worker keeps it. A chunk whose
            # worker died stops beating and is handed out again (the sweep,
            # _sweep_chunks).
            continue
        if chunk.attempts >= settings.RANKING_MAX_ATTEMPTS:
            _fail_locked(
                run,
                now=now,
                error=(
                    f"Chunk {chunk.index + 1} of {run.chunks.count()} was started "
                    f"{chunk.attempts} times without finishing: its worker was lost (killed, "
                    "out of memory or restarted) or the database dropped the connection. "
                    "Retry it, perhaps with fewer runs."
                ),
            )
            return None
        chunk.attempts += 1
        chunk.state = RankingChunk.State.RUNNING
        chunk.heartbeat_at = now
        claimed.append(chunk)
    if not claimed:
        return None
    RankingChunk.objects.filter(pk__in=[c.pk for c in claimed]).update(
        attempts=F("attempts") + 1, state=RankingChunk.State.RUNNING, heartbeat_at=now
    )
    run.heartbeat_at = now
    run.save(update_fields=["heartbeat_at"])
    return run, claimed


def _chunk_release(chunk: RankingChunk) -> bool:
    """Give a chunk back (pending) while it is still this attempt's, best effort
    (``common.jobs.give_back``): after a transient database error, or when its task
    stopped because another chunk of its group was taken over. Its attempt still counts
    (as an import job's does): a fault that comes back at every attempt ends the run
    after ``RANKING_MAX_ATTEMPTS`` instead of cycling for ever. When the database is
    still unreachable the chunk stops beating and the sweep gives it back. Whether the
    chunk was given back."""
    rows = RankingChunk.objects.filter(
        pk=chunk.pk, attempts=chunk.attempts, state=RankingChunk.State.RUNNING
    )
    given = jobs.give_back(rows, state=RankingChunk.State.PENDING, heartbeat_at=timezone.now())
    return given > 0


def _chunks_release(chunks: list[RankingChunk]) -> list[int]:
    """:func:`_chunk_release` of each chunk; the indices of those given back."""
    return [chunk.index for chunk in chunks if _chunk_release(chunk)]


def ranking_chunk_compute(
    *, run_id: int, index: int, data: selectors.ScoreArrays | None = None, count: int = 1
) -> str:
    """Compute chunk ``index`` of a chunked run and store it; the last one merges.

    What the ``ranking.compute_chunk`` task calls (``data``: the scores when the caller
    already read them). ``count``: chunks ``index`` .. ``index + count - 1``, claimed
    together, computed side by side and stored in one transaction (each chunk's numbers
    those it has alone); those done or computing elsewhere are left out. Before computing, the chunk checks that its run still runs
    (a cancelled run's remaining chunks compute nothing); while computing, every
    progress report beats the chunk's and the run's heartbeat and stops the chunk when
    the run stopped running or a newer attempt took the chunk over. Storing the
    result locks the run's row, so exactly one chunk sees all the others done: it
    merges them (:func:`ranking.stats.merge_chunks`, in index order) and finishes the
    run. Chunks computed from different judgements (an import in between: their
    fingerprints differ) fail the run rather than mixing data. Returns what happened:
    ``computed``, ``merged`` or ``skipped``.
    """
    claimed = _claim_chunks(run_id=run_id, indices=range(index, index + max(count, 1)))
    if claimed is None:
        return "skipped"
    run, chunks = claimed
    return _chunks_compute(run, chunks, data)


def _chunks_compute(
    run: RankingRun, chunks: list[RankingChunk], data: selectors.ScoreArrays | None
) -> str:
    """Compute claimed chunks of ``run`` in one pass (:func:`ranking.stats.compute_chunks`:
    each exactly what it would be alone) and store them one by one, as
    :func:`ranking_chunk_compute` describes. Returns the last chunk's outcome."""
    assert run.chunk_runs is not None
    started = time.perf_counter()
    try:
        data, comparisons, ranked, inputs = _prepared(run, data)
        parts = stats.compute_chunks(
            comparisons,
            method=run.method,
            runs=run.runs,
            chunk_runs=run.chunk_runs,
            indices=[chunk.index for chunk in chunks],
            seed=run.seed,
            confidence=run.confidence,
            parameters=run.parameters,
            progress=_chunk_heartbeat(run, chunks),
        )
        seconds = (time.perf_counter() - started) / len(chunks)
        return _chunk_store(run, chunks, parts, data, ranked, inputs=inputs, seconds=seconds)
    except RunStopped:
        # The run ended, or a chunk of this group was taken over by a newer attempt: the
        # group's other chunks, still this task's, go back and out again at once (not
        # after the sweep's silence), as one task; an ended run's computes nothing.
        back = _chunks_release(chunks)
        if back and RankingRun.objects.filter(pk=run.pk, status=RankingRun.Status.RUNNING).exists():
            # Consecutive from the first to the last: the chunks between, taken over,
            # are left out by the claim (computing elsewhere).
            ranking_chunks_dispatch(run.pk, back[0], back[-1] - back[0] + 1)
        return "skipped"
    except Exception as exc:
        transient = transient_error(exc)
        if transient is not None:
            # The database dropped the connection or restarted (psycopg2 may then raise a
            # SystemError, not an OperationalError): not the run's fault, and failing it
            # could not be written anyway. The chunks go back to pending and the task
            # retries them (ranking.tasks); should the database stay away, the sweep
            # hands them out again once it is reachable.
            _chunks_release(chunks)
            raise transient from transient.__cause__
        message = str(exc)
        if isinstance(exc, SoftTimeLimitExceeded):
            message = (
                f"Chunk {chunks[0].index + 1} stopped at the time limit of "
                f"{settings.RANKING_SOFT_TIME_LIMIT // 60} minutes; ask for fewer runs."
            )
        elif isinstance(exc, ValueError):
            # the statistics' refusal of these data, worded for a person (as the run
            # that is not cut into chunks says it)
            message = _cannot_rank(run, exc)
        elif not isinstance(exc, DomainError):
            message = f"The computation failed ({type(exc).__name__}: {exc})."
        ended = RankingRun.objects.filter(pk=run.pk, status=RankingRun.Status.RUNNING).update(
            status=RankingRun.Status.FAILED,
            error=message,
            finished_at=timezone.now(),
        )
        if ended:
            raise
        return "skipped"


#: The scores and comparisons of the run attempt this process last computed a chunk of:
#: a Celery worker given several chunks of a run reads and prepares them once, not once
#: per chunk (about 0.4 s for E2E quality, seconds for a million comparisons; the
#: statistics' own per-data work, such as Bradley-Terry's judgement patterns, hangs on
#: the comparisons and is kept with them). Keyed by the run and its attempt's start: a
#: retried run reads afresh. Judgements that change while a run computes still fail it
#: at the merge when its chunks' fingerprints differ. The run's summary of its inputs is
#: read with the scores, so that the merge stores the counts of the judgements ranked.
_PREPARED: dict[tuple[int, Any], tuple[selectors.ScoreArrays, stats.Comparisons, Any, dict]] = {}
_PREPARED_LOCK = threading.Lock()


def _prepared(
    run: RankingRun, data: selectors.ScoreArrays | None
) -> tuple[selectors.ScoreArrays, stats.Comparisons, Any, dict[str, Any]]:
    """The run's scores (``data`` when the caller read them), its comparisons and the
    ranked systems, from this process's last run when it was the same attempt."""
    key = (run.pk, run.started_at)
    with _PREPARED_LOCK:
        kept = _PREPARED.get(key)
    if kept is not None and (data is None or data is kept[0]):
        return kept
    if data is None:
        data = _load_scores(run)
    inputs = selectors.ranking_inputs(
        criterion=run.criterion, exclude_excluded_workers=run.exclude_flagged, where=run.where
    )
    _refuse_single_outputs(run, data)
    try:
        comparisons, ranked = stats.prepare_comparisons(
            n_systems=len(data.systems),
            judgement=data.judgement,
            system=data.system,
            score=data.score,
            slot=data.slot,
            min_comparisons=_min_comparisons(),
        )
    except ValueError as exc:
        raise DomainError(_cannot_rank(run, exc)) from exc
    with _PREPARED_LOCK:
        _PREPARED.clear()  # one run's data at a time
        _PREPARED[key] = (data, comparisons, ranked, inputs)
    return data, comparisons, ranked, inputs


def _chunk_store(
    run: RankingRun,
    chunks: list[RankingChunk],
    parts: list[stats.ChunkResult],
    data: selectors.ScoreArrays,
    ranked: Any,
    *,
    inputs: dict[str, Any],
    seconds: float,
) -> str:
    """Store computed chunks (one transaction) under the run's lock; the store that finds
    every chunk done merges them and finishes the run (with ``inputs``, read with
    ``data``). ``computed`` or ``merged``; RunStopped when the run or a chunk is no
    longer ours."""
    assert run.chunk_runs is not None
    with transaction.atomic():
        locked = (
            RankingRun.objects.select_for_update()
            .select_related("criterion", "campaign")
            .filter(pk=run.pk, status=RankingRun.Status.RUNNING)
            .first()
        )
        if locked is None:
            raise RunStopped()
        states = dict(
            RankingChunk.objects.select_for_update()
            .filter(pk__in=[chunk.pk for chunk in chunks])
            .order_by("index")  # the claim's order
            .values_list("pk", "state")
        )
        if len(states) != len(chunks):
            raise RunStopped()
        now = timezone.now()
        for chunk, part in zip(chunks, parts, strict=True):
            if states[chunk.pk] != RankingChunk.State.DONE:
                RankingChunk.objects.filter(pk=chunk.pk).update(
                    state=RankingChunk.State.DONE,
                    result=part.to_bytes(),
                    fingerprint=data.fingerprint,
                    seconds=seconds,
                    heartbeat_at=now,
                )
        is_done = Q(state=RankingChunk.State.DONE)
        counts = locked.chunks.aggregate(
            n=Count("pk"), done=Count("pk", filter=is_done), runs=Sum("runs", filter=is_done)
        )
        if counts["done"] < counts["n"]:
            locked.progress = counts["done"] / counts["n"]
            locked.runs_done = counts["runs"] or 0
            locked.heartbeat_at = now
            locked.save(update_fields=["progress", "runs_done", "heartbeat_at"])
            return "computed"
        done = locked.chunks.filter(is_done)
        rows = list(done.order_by("index").values_list("fingerprint", "result"))
        if any(fingerprint != data.fingerprint for fingerprint, _ in rows):
            raise DomainError(
                "The judgements changed while this run was computed (an import or an "
                "exclusion in between); retry it to rank the current judgements."
            )
        merged = stats.merge_chunks(
            [stats.ChunkResult.from_bytes(bytes(result or b"")) for _, result in rows],
            ranked=ranked,
            runs=locked.runs,
            chunk_runs=locked.chunk_runs or run.chunk_runs,
            seed=locked.seed,
            confidence=locked.confidence,
            max_runs=_max_runs(locked.campaign),
        )
        began = locked.started_at or timezone.now()
        _store_result(
            locked,
            data,
            inputs,
            merged,
            seconds=(timezone.now() - began).total_seconds(),
        )
        return "merged"


def _chunk_heartbeat(run: RankingRun, chunks: list[RankingChunk]) -> Callable[[float], None]:
    """Beat the chunks' and the run's heartbeat; stop when any of them is no longer ours.

    Writes at the first report and then at most once per ``RANKING_BEAT_EVERY`` seconds (two
    UPDATEs per report cost a third of a 200-run E2E ranking otherwise): a cancelled
    run's chunk stops within that time."""
    ours = functools.reduce(Q.__or__, (Q(pk=chunk.pk, attempts=chunk.attempts) for chunk in chunks))
    last = [-math.inf]
    every = settings.RANKING_BEAT_EVERY

    def report(fraction: float) -> None:
        if time.monotonic() - last[0] < every:
            return
        last[0] = time.monotonic()
        now = timezone.now()
        beaten = RankingChunk.objects.filter(ours, state=RankingChunk.State.RUNNING).update(
            heartbeat_at=now
        )
        running = RankingRun.objects.filter(pk=run.pk, status=RankingRun.Status.RUNNING).update(
            heartbeat_at=now
        )
        if not (beaten == len(chunks) and running):
            raise RunStopped()

    return report


def _still_ours(run: RankingRun, attempt: int, *, lock: bool = False) -> bool:
    qs = RankingRun.objects.filter(pk=run.pk, status=RankingRun.Status.RUNNING, attempts=attempt)
    if lock:
        qs = qs.select_for_update()
    return qs.exists()


def _progress_writer(run: RankingRun, attempt: int) -> Callable[[float], None]:
    """Record progress and the heartbeat; stop the computation when the run is not ours."""
    runs = run.runs

    def report(fraction: float) -> None:
        fraction = min(max(fraction, 0.0), 1.0)
        updated = RankingRun.objects.filter(
            pk=run.pk, status=RankingRun.Status.RUNNING, attempts=attempt
        ).update(
            progress=fraction,
            runs_done=min(math.floor(fraction * runs), runs),
            heartbeat_at=timezone.now(),
        )
        if not updated:
            raise RunStopped()

    return report
