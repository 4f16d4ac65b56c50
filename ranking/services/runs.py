"""Writes for ranking runs: create a run (its checks), cancel, retry and delete it.

A run is computed by ``ranking.services.compute`` (a Celery task, dispatched through
``common.jobs``) and always ends (done, failed or cancelled): the computation beats a
heartbeat at every progress report, and ``ranking.services.sweep`` (celery beat, every
minute, or without a broker the web process's embedded beat, ``common.jobs.beat_start``;
or ``manage.py sweep_ranking_runs``) fails runs whose heartbeat stopped. Creating,
retrying and deleting a run sweep its campaign's runs first; pages show a lost run as
failed before the sweep stores it, reading only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from annotations.core.slices import SliceError, describe, parse_where
from annotations.models import Campaign, Criterion
from annotations.selectors.judgements import judgements_counted
from common.errors import DomainError
from common.queries import row_lock
from ranking import stats
from ranking.models import RankingRun
from ranking.selectors import runs as selectors
from ranking.services import compute
from ranking.services.sweep import ranking_runs_sweep


@dataclass(frozen=True)
class RunStarted:
    """What :func:`ranking_run_start` did: the run, and whether it was made now (False:
    the designer's pending or running run of the same request, returned again)."""

    run: RankingRun
    created: bool


def ranking_run_create(**kwargs: Any) -> RankingRun:
    """:func:`ranking_run_start`'s run (the callers that need not know whether it is new)."""
    return ranking_run_start(**kwargs).run


def ranking_run_start(
    *,
    campaign: Campaign,
    criterion: Criterion,
    method: str = selectors.RUN_DEFAULTS.method,
    runs: int = selectors.RUN_DEFAULTS.runs,
    seed: int = selectors.RUN_DEFAULTS.seed,
    confidence: float = selectors.RUN_DEFAULTS.confidence,
    exclude_flagged: bool = True,
    parameters: dict[str, Any] | None = None,
    user: User | AnonymousUser | None = None,
    queue: bool = True,
    where: Mapping[str, str] | None = None,
) -> RunStarted:
    """Create a pending run and, when ``queue``, hand it to Celery once the row is committed.

    The request is checked by :func:`ranking.stats.check_parameters` (the check the
    form, the API serializer and the ``rank`` command make too). Bounded inputs: at most
    ``RANKING_MAX_RUNS`` runs, at most ``RANKING_MAX_RUN_VALUES``
    run-system values (runs x systems) in memory, and at most
    ``RANKING_MAX_ACTIVE_RUNS_PER_USER`` pending or running runs per designer (the
    designer's row is locked while counting, so two requests cannot both pass).
    ``where``: rank a slice only (item attributes or ``language`` -> value, see
    ``annotations.core.slices``), stored with the run; a slice without judgements of the
    criterion is refused. The campaign's runs whose computation was lost are swept first
    (``ranking.services.sweep``; pages only show them as failed, they never write).
    A designer's request while their run of the same request is still pending or running
    (a form sent twice, a retried POST) returns that run instead of starting another.
    """
    if criterion.campaign_id != campaign.pk:
        raise DomainError(
            f"Criterion '{criterion.name}' is not part of campaign '{campaign.slug}'."
        )
    parameters = dict(parameters or {})
    try:
        stats.check_parameters(method, parameters, runs=runs, confidence=confidence, seed=seed)
    except stats.ParameterError as exc:
        raise DomainError(str(exc), field=exc.field) from exc
    _check_runs(runs=runs, campaign=campaign)
    where = ranking_slice_check(criterion=criterion, where=where)
    _check_judgements(criterion=criterion, exclude_excluded_workers=exclude_flagged, where=where)
    owner = user if user is not None and user.is_authenticated else None
    # Only the methods whose chunks are sized by cost read the comparisons (an aggregate
    # over every counted score of the criterion).
    comparisons = (
        selectors.ranking_comparisons_estimate(
            criterion=criterion, exclude_excluded_workers=exclude_flagged, where=where
        )
        if stats.chunks_sized_by_comparisons(method)
        else 0
    )
    # Runs whose computation was lost end first, so that they do not count as active.
    ranking_runs_sweep(campaign=campaign)
    with transaction.atomic():
        if owner is not None:
            # Lock the designer's row so that their requests count one after the other,
            # and a second send of one form finds the first's run (and gets it).
            row_lock(User, owner.pk)
            same = selectors.ranking_run_active_same(
                user_id=owner.pk,
                criterion_id=criterion.pk,
                request={
                    "method": method,
                    "runs": runs,
                    "seed": seed,
                    "confidence": confidence,
                    "exclude_flagged": exclude_flagged,
                    "parameters": parameters,
                    "where": where,
                },
            )
            if same is not None:
                return RunStarted(run=same, created=False)
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
            where=where,
            chunk_runs=stats.chunk_runs_for(
                method, runs, comparisons, unit=stats.DEFAULT_CHUNK_RUNS
            ),
            created_by=owner,
        )
        if queue:
            transaction.on_commit(lambda: compute.ranking_run_dispatch(run.pk))
    return RunStarted(run=run, created=True)


def ranking_slice_check(*, criterion: Criterion, where: Mapping[str, str] | None) -> dict[str, str]:
    """A slice as stored (names and values checked, languages normalised), or a
    ``DomainError`` saying what is wrong (a slice with no judgements of the criterion)."""
    if not where:
        return {}
    try:
        checked = parse_where(f"{name}={value}" for name, value in where.items())
    except SliceError as exc:
        raise DomainError(f"The slice cannot be read: {exc}", field="where") from exc
    if not judgements_counted(criterion=criterion, where=checked).exists():
        raise DomainError(
            f"No judgements of '{criterion.name}' on the items with "
            f"{describe(checked)}; the attributes and values this campaign has: see its "
            "rankings page.",
            field="where",
        )
    return checked


def _check_judgements(
    *, criterion: Criterion, exclude_excluded_workers: bool, where: Mapping[str, str]
) -> None:
    """Refuse a run with nothing to rank before it is stored (it would only fail later)."""
    if judgements_counted(
        criterion=criterion, exclude_excluded_workers=exclude_excluded_workers, where=where
    ).exists():
        return
    if exclude_excluded_workers and judgements_counted(criterion=criterion, where=where).exists():
        raise DomainError(
            f"Every judgement of '{criterion.name}' is by an excluded worker; "
            "include excluded workers, or include some workers again, to rank it.",
            field="criterion",
        )
    raise DomainError(
        f"'{criterion.name}' has no judgements to rank yet (0 counted: real "
        "tasks, first answers); rank it once workers have judged some of its tasks.",
        field="criterion",
    )


def _check_runs(*, runs: int, campaign: Campaign) -> None:
    cap = settings.RANKING_MAX_RUNS
    if runs > cap:
        raise DomainError(f"At most {cap:,} runs per ranking (asked: {runs:,}).", field="runs")
    n_systems = campaign.systems.count()
    budget = settings.RANKING_MAX_RUN_VALUES
    if runs * n_systems > budget:
        raise DomainError(
            f"{runs:,} runs of {n_systems} systems would keep {runs * n_systems:,} "
            f"values in memory, more than this server's {budget:,}; ask for at most "
            f"{budget // max(n_systems, 1):,} runs.",
            field="runs",
        )


def _check_active_cap(*, user: User) -> None:
    """The designer's row is locked by the caller."""
    cap = settings.RANKING_MAX_ACTIVE_RUNS_PER_USER
    active = selectors.ranking_runs_active_count(user_id=user.pk)
    if active >= cap:
        raise DomainError(
            f"You already have {active} ranking run(s) queued or running (at most {cap} at "
            "a time). Wait for one to finish or cancel one, then start this one."
        )


@transaction.atomic
def ranking_run_cancel(*, run: RankingRun) -> RankingRun:
    """Cancel a pending or running run. A running computation notices at its next
    progress report and stops without storing anything; a queued message finds the run
    ended and computes nothing."""
    locked = RankingRun.objects.select_for_update().filter(pk=run.pk).first()
    if locked is None:
        raise DomainError(f"Ranking run {run.pk} was deleted meanwhile.")
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
    """Queue a failed or cancelled run again (same method, parameters and seed). The
    campaign's runs are swept first: a run whose worker was lost, which its page shows as
    failed, is failed now and can be retried."""
    owner = user if user is not None and user.is_authenticated else None
    ranking_runs_sweep(campaign=run.campaign)
    with transaction.atomic():
        locked = RankingRun.objects.select_for_update().filter(pk=run.pk).first()
        if locked is None:
            raise DomainError(f"Ranking run {run.pk} was deleted meanwhile.")
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
        transaction.on_commit(lambda: compute.ranking_run_dispatch(locked.pk))
    return locked


def ranking_run_delete(*, run: RankingRun) -> None:
    """Delete a run that has ended (done, failed or cancelled) and its results. The
    campaign's runs are swept first, as for a retry (a lost run has ended). A run deleted
    meanwhile (the request sent twice at once) is gone: nothing to do, no error."""
    ranking_runs_sweep(campaign=run.campaign)
    with transaction.atomic():
        locked = RankingRun.objects.select_for_update().filter(pk=run.pk).first()
        if locked is None:
            return  # deleted meanwhile (the same request sent twice): what was asked for
        if locked.status not in RankingRun.ENDED:
            raise DomainError(
                f"Ranking run {run.pk} is {locked.status}: cancel it before deleting it."
            )
        locked.delete()
