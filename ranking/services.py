"""Writes for rankings: create a run, compute it, store its result per system."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import connections, transaction
from django.utils import timezone

from annotations.errors import DomainError
from annotations.models import Campaign, Criterion

from . import selectors
from .models import RankingResult, RankingRun
from .stats import api as stats_api


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
    """Create a pending run and, when ``queue``, hand it to Celery once the row is committed."""
    if criterion.campaign_id != campaign.pk:
        raise DomainError(
            f"Criterion '{criterion.name}' is not part of campaign '{campaign.slug}'."
        )
    if method not in RankingRun.Method.values:
        raise DomainError(
            f"Unknown method '{method}'; choose one of {', '.join(RankingRun.Method.values)}."
        )
    if runs < 1:
        raise DomainError("A ranking needs at least one run.")
    if not 0 < confidence < 1:
        raise DomainError("The confidence level must lie between 0 and 1, e.g. 0.95.")
    parameters = dict(parameters or {})
    try:
        stats_api.check_parameters(method, parameters)
    except ValueError as exc:
        raise DomainError(f"Parameters of {method}: {exc}") from exc
    with transaction.atomic():
        run = RankingRun.objects.create(
            campaign=campaign,
            criterion=criterion,
            method=method,
            runs=runs,
            seed=seed,
            confidence=confidence,
            exclude_flagged=exclude_flagged,
            parameters=parameters,
            created_by=user if user is not None and user.is_authenticated else None,
        )
        if queue:
            transaction.on_commit(lambda: _dispatch(run.pk))
    return run


def _dispatch(run_id: int) -> None:
    """Hand a committed run to Celery.

    Without a broker (the embedded set-up) Celery runs tasks in-process; a ranking then
    computes in a background thread of the web process, so that the page that started it
    can show its progress instead of waiting for the whole computation.
    """
    from .tasks import ranking_run_compute_task

    if settings.RANKING_RUNS_IN_THREAD and ranking_run_compute_task.app.conf.task_always_eager:
        threading.Thread(
            target=_compute_in_thread, args=(run_id,), name=f"ranking-run-{run_id}", daemon=True
        ).start()
    else:
        ranking_run_compute_task.delay(run_id)


def _compute_in_thread(run_id: int) -> None:
    from .tasks import ranking_run_compute_task

    try:
        # apply() runs the task here and keeps its exception in the result; a failure is
        # recorded on the run itself by ranking_run_compute.
        ranking_run_compute_task.apply(args=(run_id,))
    finally:
        connections.close_all()


def ranking_run_compute(*, run: RankingRun) -> RankingRun:
    """Compute a run and store its result; failures are recorded on the run and re-raised.

    The result depends only on the judgements (their fingerprint is stored), the method,
    its parameters and the seed: computing the same run twice gives identical numbers.
    """
    started = time.perf_counter()
    run.status = RankingRun.Status.RUNNING
    run.started_at = timezone.now()
    run.progress = 0.0
    run.save(update_fields=["status", "started_at", "progress"])
    try:
        data = selectors.ranking_scores(
            criterion=run.criterion, exclude_excluded_workers=run.exclude_flagged
        )
        if data.n_judgements == 0:
            raise DomainError(f"Criterion '{run.criterion.name}' has no judgements to rank yet.")
        try:
            result = stats_api.compute(
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
                progress=_progress_writer(run),
            )
        except ValueError as exc:  # e.g. a system without any comparison
            raise DomainError(f"Cannot rank '{run.criterion.name}': {exc}") from exc
        with transaction.atomic():
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
                for i, system in enumerate(data.systems)
            )
            run.fingerprint = data.fingerprint
            run.n_judgements = data.n_judgements
            run.n_comparisons = int(result.n_comparisons)
            run.stability = result.stability
            run.status = RankingRun.Status.DONE
            run.progress = 1.0
            run.finished_at = timezone.now()
            run.seconds = time.perf_counter() - started
            run.save()
    except Exception as exc:
        run.status = RankingRun.Status.FAILED
        run.error = str(exc)
        run.finished_at = timezone.now()
        run.seconds = time.perf_counter() - started
        run.save(update_fields=["status", "error", "finished_at", "seconds"])
        raise
    return run


def _progress_writer(run: RankingRun) -> Callable[[float], None]:
    def report(fraction: float) -> None:
        RankingRun.objects.filter(pk=run.pk).update(progress=min(max(fraction, 0.0), 1.0))

    return report
