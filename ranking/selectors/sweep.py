"""What the sweep of lost ranking runs finds, read without writing anything.

``ranking.services.sweep`` (celery beat or the embedded beat every minute, ``manage.py
sweep_ranking_runs``, and the run services before they start, retry or delete a run)
stores what it finds: a run whose computation was lost is failed with the reason. The rules and their wording are
defined here once, so that a page shows a run as the sweep will leave it
(:func:`ranking_runs_as_swept`, in memory, never saved) before the sweep has run: a page
view never writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Case, IntegerField, Q, Value, When
from django.utils import timezone

from common import jobs
from ranking.models import RankingChunk, RankingRun


@dataclass(frozen=True)
class SweepLimits:
    """The sweep's thresholds, in seconds: a running run silent for ``stale_after`` or a
    pending one older than ``pending_timeout`` is failed; a running chunk silent for
    ``lost_after`` is handed out again, a queued one ``queued_after`` after it was sent
    is sent again (``lost_after`` at most ``stale_after``, ``queued_after`` at most
    ``pending_timeout``)."""

    stale_after: float
    pending_timeout: float
    lost_after: float
    queued_after: float


def ranking_sweep_limits(
    *,
    stale_after: float | None = None,
    pending_timeout: float | None = None,
    chunk_lost_after: float | None = None,
    chunk_queued_after: float | None = None,
) -> SweepLimits:
    """The limits given, the others from the settings (``common.jobs.timings``), read now."""
    timings = jobs.timings("RANKING")
    stale = timings.stale_after if stale_after is None else stale_after
    pending = timings.pending_timeout if pending_timeout is None else pending_timeout
    lost = timings.lost_after if chunk_lost_after is None else chunk_lost_after
    queued = timings.queued_after if chunk_queued_after is None else chunk_queued_after
    return SweepLimits(
        stale_after=stale,
        pending_timeout=pending,
        lost_after=min(lost, stale),
        queued_after=min(queued, pending),
    )


@dataclass(frozen=True)
class LostRule:
    """The runs matching ``condition`` lost their computation: the sweep fails them with
    ``error``."""

    condition: Q
    error: str


def ranking_runs_lost_rules(*, now: datetime, limits: SweepLimits) -> tuple[LostRule, ...]:
    """The runs the sweep fails, apart from a chunked run's chunks (:func:`chunks_lost`):

    - a running run made before chunking whose heartbeat is older than ``stale_after``
      lost its worker (SIGKILL, out of memory, a lost node, a restarted web process in
      the embedded set-up, or the hard time limit);
    - a pending run older than ``pending_timeout`` was never picked up.

    The rules never match the same run (running and pending).
    """
    return (
        LostRule(
            condition=Q(status=RankingRun.Status.RUNNING, chunk_runs__isnull=True)
            & jobs.silent_since(now=now, after=limits.stale_after),
            error=(
                f"No progress for over {jobs.duration(limits.stale_after)}: the worker "
                "computing this run was lost (killed, out of memory, restarted or past its "
                "time limit). Retry it, perhaps with fewer runs."
            ),
        ),
        LostRule(
            condition=Q(status=RankingRun.Status.PENDING)
            & jobs.silent_since(now=now, after=limits.pending_timeout, field="created_at"),
            error=(
                f"Not started within {jobs.duration(limits.pending_timeout)}: no Celery "
                "worker picked it up. Check that a worker is running, then retry it."
            ),
        ),
    )


def chunks_lost(*, now: datetime, limits: SweepLimits) -> Q:
    """The running chunks silent for ``lost_after`` seconds: their worker was lost."""
    return Q(state=RankingChunk.State.RUNNING) & jobs.silent_since(now=now, after=limits.lost_after)


def chunk_lost_error(*, index: int, attempts: int) -> str:
    """Why the sweep fails a run whose chunk ``index`` was lost at its last attempt."""
    return (
        f"Chunk {index + 1} of this run was lost {attempts} times (worker "
        "killed, out of memory, restarted or past its time limit). Retry it, "
        "perhaps with fewer runs."
    )


def ranking_runs_as_swept(
    *, runs: Sequence[RankingRun], now: datetime | None = None
) -> Sequence[RankingRun]:
    """``runs`` as the sweep will leave them: each one that lost its computation set to
    failed, with the sweep's reason, in memory only (never saved: the next sweep stores
    it, and a page view writes nothing). So a page shows a run whose worker died as
    failed at once, before a beat (celery's or the embedded one) sweeps.

    A chunked run's lost chunk is handed out again by the sweep until it was started
    ``RANKING_MAX_ATTEMPTS`` times, so only a chunk lost at its last attempt fails its
    run here. Reads nothing when no run is pending or running; else one query, and one
    more for the chunks when a chunked run is running.
    """
    active = {run.pk: run for run in runs if run.status in RankingRun.ACTIVE}
    if not active:
        return runs
    now = timezone.now() if now is None else now
    limits = ranking_sweep_limits()
    errors: dict[int, str] = {}
    chunked = [
        pk
        for pk, run in active.items()
        if run.status == RankingRun.Status.RUNNING and run.chunk_runs is not None
    ]
    if chunked:
        for run_id, index, attempts in (
            RankingChunk.objects.filter(
                chunks_lost(now=now, limits=limits),
                run_id__in=chunked,
                attempts__gte=settings.RANKING_MAX_ATTEMPTS,
            )
            .order_by("run_id", "index")
            .values_list("run_id", "index", "attempts")
        ):
            errors.setdefault(run_id, chunk_lost_error(index=index, attempts=attempts))
    rules = ranking_runs_lost_rules(now=now, limits=limits)
    matched = (
        RankingRun.objects.filter(pk__in=[pk for pk in active if pk not in errors])
        .annotate(
            lost_rule=Case(
                *(When(rule.condition, then=Value(i)) for i, rule in enumerate(rules)),
                default=Value(-1),
                output_field=IntegerField(),
            )
        )
        .filter(lost_rule__gte=0)
        .values_list("pk", "lost_rule")
    )
    for pk, rule in matched:
        errors[pk] = rules[rule].error
    for pk, error in errors.items():
        run = active[pk]
        run.status = RankingRun.Status.FAILED
        run.finished_at = now
        run.error = error
    return runs
