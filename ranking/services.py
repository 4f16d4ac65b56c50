"""Writes for rankings: create a run, compute it, store its result per system; cancel,
retry and delete runs; sweep runs whose computation was lost.

A run always ends (done, failed or cancelled): the computation beats a heartbeat at
every progress report, and :func:`ranking_runs_sweep` (celery beat, every minute, or
``manage.py sweep_ranking_runs``) fails runs whose heartbeat stopped.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import numpy as np
from celery import Task, current_app
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import connections, transaction
from django.utils import timezone

from annotations.models import Campaign, Criterion
from common.errors import DomainError

from . import selectors, stats
from .models import RankingResult, RankingRun


class RunStopped(Exception):
    """The run was cancelled or ended by the sweep while it computed: stop quietly."""


def ranking_run_create(
    *,
    campaign: Campaign,
    criterion: Criterion,
    method: str = RankingRun.Method.WMT14,
    runs: int = 200,
    seed: int = 1,
    confidence: float = 0.95,
    exclude_flagged: bool = True,
    parameters: dict[str, Any] | None = None,
    user: User | AnonymousUser | None = None,
    queue: bool = True,
) -> RankingRun:
    """Create a pending run and, when ``queue``, hand it to Celery once the row is committed.

    The request is checked by :func:`ranking.stats.check_parameters` (the check the
    form, the API serializer and the ``rank`` command make too). Bounded inputs: at most
    ``RANKING_MAX_RUNS`` runs, at most ``RANKING_MAX_RUN_VALUES``
    run-system values (runs x systems) in memory, and at most
    ``RANKING_MAX_ACTIVE_RUNS_PER_USER`` pending or running runs per designer (the
    designer's row is locked while counting, so two requests cannot both pass).
    """
    if criterion.campaign_id != campaign.pk:
        raise DomainError(
            f"Criterion '{criterion.name}' is not part of campaign '{campaign.slug}'."
        )
    parameters = dict(parameters or {})
    try:
        stats.check_parameters(method, parameters, runs=runs, confidence=confidence)
    except stats.ParameterError as exc:
        raise DomainError(str(exc)) from exc
    _check_runs(runs=runs, campaign=campaign)
    owner = user if user is not None and user.is_authenticated else None
    with transaction.atomic():
        if owner is not None:
            _check_active_cap(user=owner)
        run = RankingRun.objects.create(
            campaign=campaign,
            criterion=criterion,
            method=method,
            runs=runs,
            seed=seed,
            confidence=confidence,
            exclude_flagged=exclude_flagged,
            parameters=parameters,
            created_by=owner,
        )
        if queue:
            transaction.on_commit(lambda: _dispatch(run.pk))
    return run


def _check_runs(*, runs: int, campaign: Campaign) -> None:
    cap = settings.RANKING_MAX_RUNS
    if runs > cap:
        raise DomainError(f"runs: at most {cap:,} runs per ranking (asked: {runs:,}).")
    n_systems = campaign.systems.count()
    budget = settings.RANKING_MAX_RUN_VALUES
    if runs * n_systems > budget:
        raise DomainError(
            f"runs: {runs:,} runs of {n_systems} systems would keep {runs * n_systems:,} "
            f"values in memory, more than this server's {budget:,}; ask for at most "
            f"{budget // max(n_systems, 1):,} runs."
        )


def _check_active_cap(*, user: User) -> None:
    # Lock the designer's row so that concurrent requests count one after the other.
    User.objects.select_for_update().filter(pk=user.pk).first()
    cap = settings.RANKING_MAX_ACTIVE_RUNS_PER_USER
    active = selectors.ranking_runs_active_count(user_id=user.pk)
    if active >= cap:
        raise DomainError(
            f"You already have {active} ranking run(s) queued or running (at most {cap} at "
            "a time). Wait for one to finish or cancel one, then start this one."
        )


#: the Celery task that computes a run (ranking/tasks.py), dispatched by name so that the
#: services never import the task module (tasks call services, not the other way round)
COMPUTE_TASK = "ranking.compute_run"


def _compute_task() -> Task:
    return current_app.tasks[COMPUTE_TASK]


def _dispatch(run_id: int) -> None:
    """Hand a committed run to Celery.

    Without a broker (the embedded set-up) Celery runs tasks in-process; a ranking then
    computes in a background thread of the web process, so that the page that started it
    can show its progress instead of waiting for the whole computation.
    """
    task = _compute_task()
    if settings.RANKING_RUNS_IN_THREAD and task.app.conf.task_always_eager:
        threading.Thread(
            target=_compute_in_thread, args=(run_id,), name=f"ranking-run-{run_id}", daemon=True
        ).start()
    else:
        task.delay(run_id)


def _compute_in_thread(run_id: int) -> None:
    try:
        # apply() runs the task here and keeps its exception in the result; a failure is
        # recorded on the run itself by ranking_run_compute.
        _compute_task().apply(args=(run_id,))
    finally:
        connections.close_all()


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
        run.status = RankingRun.Status.FAILED
        run.error = (
            f"The worker computing this run was lost {run.attempts} times (killed, out of "
            "memory or restarted) before it finished. Retry it, perhaps with fewer runs."
        )
        run.finished_at = now
        run.save(update_fields=["status", "error", "finished_at"])
        return None
    run.attempts += 1
    run.status = RankingRun.Status.RUNNING
    run.started_at = now
    run.heartbeat_at = now
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
    return run, run.attempts


def ranking_run_compute(*, run: RankingRun) -> RankingRun:
    """Compute a run and store its result; failures are recorded on the run and re-raised.

    The result depends only on the judgements (their fingerprint is stored), the method,
    its parameters and the seed: computing the same run twice gives identical numbers.

    Idempotent under redelivery: an ended run is left as it is. While computing, every
    progress report updates ``runs_done``, ``progress`` and the heartbeat in one
    conditional UPDATE that matches only while the run is still running this attempt;
    when it matches nothing (the run was cancelled, or the sweep failed it, or a newer
    attempt took over) the computation stops and nothing is stored.
    """
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
            criterion=run.criterion, exclude_excluded_workers=run.exclude_flagged
        )
        inputs = selectors.ranking_inputs(
            criterion=run.criterion, exclude_excluded_workers=run.exclude_flagged
        )
        if data.n_judgements == 0:
            raise DomainError(f"Criterion '{run.criterion.name}' has no judgements to rank yet.")
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
            )
        except ValueError as exc:  # e.g. fewer than two systems with comparisons
            raise DomainError(f"Cannot rank '{run.criterion.name}': {exc}") from exc
        ranked = [data.systems[int(i)] for i in result.ranked]
        ranked_labels = {s.label for s in ranked}
        inputs["unranked"] = [
            label
            for label in selectors.ranking_campaign_system_labels(criterion=run.criterion)
            if label not in ranked_labels
        ]
        inputs["systems_ranked"] = len(ranked)
        with transaction.atomic():
            if not _still_ours(run, attempt, lock=True):
                raise RunStopped()
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
            run.fingerprint = data.fingerprint
            run.n_judgements = data.n_judgements
            run.n_comparisons = int(result.n_comparisons)
            run.stability = result.stability
            run.inputs = inputs
            run.status = RankingRun.Status.DONE
            run.progress = 1.0
            run.runs_done = run.runs
            run.heartbeat_at = run.finished_at = timezone.now()
            run.seconds = time.perf_counter() - started
            run.save()
    except RunStopped:
        return
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


@transaction.atomic
def ranking_run_cancel(*, run: RankingRun) -> RankingRun:
    """Cancel a pending or running run. A running computation notices at its next
    progress report and stops without storing anything; a queued message finds the run
    ended and computes nothing."""
    locked = RankingRun.objects.select_for_update().get(pk=run.pk)
    if locked.status not in RankingRun.ACTIVE:
        raise DomainError(
            f"Ranking run {run.pk} is {locked.status}: only a queued or running run can be "
            "cancelled."
        )
    locked.status = RankingRun.Status.CANCELLED
    locked.finished_at = timezone.now()
    locked.error = "Cancelled."
    locked.save(update_fields=["status", "finished_at", "error"])
    return locked


def ranking_run_retry(*, run: RankingRun, user: User | AnonymousUser | None = None) -> RankingRun:
    """Queue a failed or cancelled run again (same method, parameters and seed)."""
    owner = user if user is not None and user.is_authenticated else None
    with transaction.atomic():
        locked = RankingRun.objects.select_for_update().get(pk=run.pk)
        if locked.status not in (RankingRun.Status.FAILED, RankingRun.Status.CANCELLED):
            raise DomainError(
                f"Ranking run {run.pk} is {locked.status}: only a failed or cancelled run can "
                "be retried."
            )
        if owner is not None:
            _check_active_cap(user=owner)
        locked.status = RankingRun.Status.PENDING
        locked.attempts = 0
        locked.progress = 0.0
        locked.runs_done = 0
        locked.error = ""
        locked.heartbeat_at = locked.started_at = locked.finished_at = None
        locked.seconds = None
        locked.created_at = timezone.now()
        locked.save()
        transaction.on_commit(lambda: _dispatch(locked.pk))
    return locked


@transaction.atomic
def ranking_run_delete(*, run: RankingRun) -> None:
    """Delete a run that has ended (done, failed or cancelled) and its results."""
    locked = RankingRun.objects.select_for_update().get(pk=run.pk)
    if locked.status not in RankingRun.ENDED:
        raise DomainError(f"Ranking run {run.pk} is {locked.status}: cancel it before deleting it.")
    locked.delete()


def ranking_runs_sweep(
    *,
    stale_after: float | None = None,
    pending_timeout: float | None = None,
    campaign: Campaign | None = None,
) -> list[int]:
    """Fail runs whose computation was lost; return their ids.

    A running run whose heartbeat is older than ``stale_after`` seconds (default
    ``RANKING_STALE_AFTER``) lost its worker: SIGKILL, out of memory, a lost node, a
    restarted web process (embedded set-up) or the hard time limit. A pending run older
    than ``pending_timeout`` (default ``RANKING_PENDING_TIMEOUT``) was never picked up.
    Both are failed with the reason; they can be retried. Each run is updated with a
    conditional UPDATE, so a run that beat its heartbeat meanwhile is left alone.
    """
    stale = settings.RANKING_STALE_AFTER if stale_after is None else stale_after
    pending = settings.RANKING_PENDING_TIMEOUT if pending_timeout is None else pending_timeout
    now = timezone.now()
    lost_before = now - timedelta(seconds=stale)
    queued_before = now - timedelta(seconds=pending)
    base = RankingRun.objects.all()
    if campaign is not None:
        base = base.filter(campaign=campaign)
    ended: list[int] = []
    for pk in base.filter(
        status=RankingRun.Status.RUNNING, heartbeat_at__lt=lost_before
    ).values_list("pk", flat=True):
        if RankingRun.objects.filter(
            pk=pk, status=RankingRun.Status.RUNNING, heartbeat_at__lt=lost_before
        ).update(
            status=RankingRun.Status.FAILED,
            finished_at=now,
            error=(
                f"No progress for over {_duration(stale)}: the worker computing this run "
                "was lost (killed, out of memory, restarted or past its time limit). "
                "Retry it, perhaps with fewer runs."
            ),
        ):
            ended.append(pk)
    for pk in base.filter(
        status=RankingRun.Status.PENDING, created_at__lt=queued_before
    ).values_list("pk", flat=True):
        if RankingRun.objects.filter(
            pk=pk, status=RankingRun.Status.PENDING, created_at__lt=queued_before
        ).update(
            status=RankingRun.Status.FAILED,
            finished_at=now,
            error=(
                f"Not started within {_duration(pending)}: no Celery worker picked it up. "
                "Check that a worker is running, then retry it."
            ),
        ):
            ended.append(pk)
    return ended


def _duration(seconds: float) -> str:
    if seconds >= 3600 and seconds % 3600 == 0:
        return f"{int(seconds // 3600)} hour(s)"
    if seconds >= 60:
        return f"{round(seconds / 60)} minute(s)"
    return f"{round(seconds)} second(s)"
