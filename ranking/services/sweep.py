"""The sweep of ranking runs whose computation was lost (celery beat, every minute, or
without a broker the web process's embedded beat, ``common.jobs.beat_start``; ``manage.py
sweep_ranking_runs``; and ``ranking.services.runs`` before it creates, retries or deletes
a run): lost chunks handed out again, silent runs failed with the reason. The rules and their wording are ``ranking.selectors.sweep``'s, which pages read
to show a lost run as failed without writing (``common.jobs``: the silence test, the
wording of durations).
"""

from __future__ import annotations

import functools
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from annotations.models import Campaign
from common import jobs
from ranking.models import RankingChunk, RankingRun
from ranking.selectors import sweep as selectors
from ranking.services import compute


def ranking_runs_sweep(
    *,
    stale_after: float | None = None,
    pending_timeout: float | None = None,
    chunk_lost_after: float | None = None,
    chunk_queued_after: float | None = None,
    campaign: Campaign | None = None,
) -> list[int]:
    """Fail runs whose computation was lost; return their ids.

    A running run whose heartbeat is older than ``stale_after`` seconds (default
    ``RANKING_STALE_AFTER``) lost its worker: SIGKILL, out of memory, a lost node, a
    restarted web process (embedded set-up) or the hard time limit. A pending run older
    than ``pending_timeout`` (default ``RANKING_PENDING_TIMEOUT``) was never picked up.
    Both are failed with the reason; they can be retried. Each run is updated with a
    conditional UPDATE, so a run that beat its heartbeat meanwhile is left alone.

    A chunked run is not failed for a stale heartbeat: its running chunks silent for
    ``chunk_lost_after`` seconds (``RANKING_LOST_AFTER``, at most ``stale_after``)
    and its chunks queued for ``chunk_queued_after`` (``RANKING_QUEUED_AFTER``, at
    most ``pending_timeout``) are handed to Celery again (:func:`_sweep_chunks`; a lost
    chunk is retried, never dropped) until one was started ``RANKING_MAX_ATTEMPTS``
    times, which fails the run. With the sweep every minute (celery beat or the embedded
    beat), a run whose worker or database connection was lost computes again within
    about three minutes.
    """
    limits = selectors.ranking_sweep_limits(
        stale_after=stale_after,
        pending_timeout=pending_timeout,
        chunk_lost_after=chunk_lost_after,
        chunk_queued_after=chunk_queued_after,
    )
    now = timezone.now()
    base = RankingRun.objects.all()
    if campaign is not None:
        base = base.filter(campaign=campaign)
    ended = _sweep_chunks(now=now, base=base, limits=limits)
    _resend_unplanned(
        base, now=now, queued_after=limits.queued_after, pending=limits.pending_timeout
    )
    for rule in selectors.ranking_runs_lost_rules(now=now, limits=limits):
        ended += _fail(base, rule.condition, now=now, error=rule.error)
    return ended


def _resend_unplanned(
    base: QuerySet[RankingRun], *, now: datetime, queued_after: float, pending: float
) -> None:
    """A chunked run whose own message (the one that plans its chunks) was held by a
    worker that died: sent again, at most once per ``queued_after`` (planning is
    idempotent), until it is ``pending`` seconds old (then it fails)."""
    for pk in base.filter(
        status=RankingRun.Status.PENDING,
        chunk_runs__isnull=False,
        created_at__lt=now - timedelta(seconds=queued_after),
        created_at__gte=now - timedelta(seconds=pending),
    ).values_list("pk", flat=True):
        if RankingRun.objects.filter(
            Q(heartbeat_at__isnull=True) | jobs.silent_since(now=now, after=queued_after),
            pk=pk,
            status=RankingRun.Status.PENDING,
        ).update(heartbeat_at=now):
            transaction.on_commit(functools.partial(compute.ranking_run_dispatch, pk))


def _fail(base: QuerySet[RankingRun], condition: Q, *, now: datetime, error: str) -> list[int]:
    """Fail the runs matching ``condition`` with ``error``, each with a conditional UPDATE
    (a run that moved on meanwhile is left alone); return their ids."""
    failed: list[int] = []
    for pk in base.filter(condition).values_list("pk", flat=True):
        if RankingRun.objects.filter(condition, pk=pk).update(
            status=RankingRun.Status.FAILED, finished_at=now, error=error
        ):
            failed.append(pk)
    return failed


def _sweep_chunks(
    *, now: datetime, base: QuerySet[RankingRun], limits: selectors.SweepLimits
) -> list[int]:
    """Hand out again the chunks of running runs that were lost; return the runs failed.

    - A running chunk silent for ``limits.lost_after`` seconds lost its worker (killed, out of
      memory, its database connection cut): it goes back to pending and to Celery, until
      it was started ``RANKING_MAX_ATTEMPTS`` times, which fails the run with the reason.
    - A chunk still queued ``limits.queued_after`` x (times sent) seconds after it was last sent
      (its message may be held by a worker that died, which the broker gives back only
      after its visibility timeout) is sent again; a duplicate is harmless (a computing
      chunk is never taken over, a finished one is skipped) and the delay grows with each
      message, so a long queue does not fill with copies.
    """
    cap = settings.RANKING_MAX_ATTEMPTS
    ended: list[int] = []
    running_runs = base.filter(status=RankingRun.Status.RUNNING, chunk_runs__isnull=False)
    lost = selectors.chunks_lost(now=now, limits=limits)
    lost_chunks = (
        RankingChunk.objects.filter(run__in=running_runs)
        .filter(lost)
        .values_list("pk", "run_id", "index", "attempts")
    )
    for pk, run_id, index, attempts in lost_chunks:
        if attempts >= cap:
            if RankingRun.objects.filter(pk=run_id, status=RankingRun.Status.RUNNING).update(
                status=RankingRun.Status.FAILED,
                finished_at=now,
                error=selectors.chunk_lost_error(index=index, attempts=attempts),
            ):
                ended.append(run_id)
            continue
        if RankingChunk.objects.filter(lost, pk=pk).update(
            state=RankingChunk.State.PENDING,
            dispatches=F("dispatches") + 1,
            heartbeat_at=now,
        ):
            transaction.on_commit(functools.partial(compute.ranking_chunk_dispatch, run_id, index))
    queued = [
        (pk, run_id, index, dispatches)
        for pk, run_id, index, dispatches, sent in RankingChunk.objects.filter(
            run__in=running_runs, state=RankingChunk.State.PENDING
        ).values_list("pk", "run_id", "index", "dispatches", "heartbeat_at")
        if sent is None or sent + timedelta(seconds=limits.queued_after * max(dispatches, 1)) < now
    ]
    for pk, run_id, index, dispatches in queued:
        if RankingChunk.objects.filter(
            pk=pk, state=RankingChunk.State.PENDING, dispatches=dispatches
        ).update(dispatches=F("dispatches") + 1, heartbeat_at=now):
            transaction.on_commit(functools.partial(compute.ranking_chunk_dispatch, run_id, index))
    return ended
