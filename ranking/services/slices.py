"""Writes for rankings of slices: a ranking run of one criterion on each slice of its
items (``where``), for the slices page's button and ``manage.py rank --by``. Each run is
an ordinary run, made by :func:`ranking.services.runs.ranking_run_create` with its checks;
reading them side by side is ``ranking.selectors.slices``'."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser, User

from annotations.models import Campaign, Criterion
from common.errors import DomainError
from ranking.models import RankingRun
from ranking.selectors.runs import RUN_DEFAULTS
from ranking.selectors.slices import ranking_runs_on_slices
from ranking.services import compute
from ranking.services.runs import ranking_run_create, ranking_slice_check


@dataclass(frozen=True)
class SlicesStarted:
    """What starting the slices' runs did: ``runs`` started, in the slices' order;
    ``waiting`` slices not started because a run was refused (``refusal`` says why, e.g.
    too many active runs)."""

    runs: list[RankingRun] = field(default_factory=list)
    waiting: int = 0
    refusal: str = ""

    @property
    def started(self) -> int:
        return len(self.runs)


def ranking_slices_start(
    *,
    campaign: Campaign,
    criterion: Criterion,
    slices: Sequence[Mapping[str, str]],
    user: User | AnonymousUser | None = None,
    missing_only: bool = False,
    all_or_nothing: bool = False,
    compute_here: bool = False,
    method: str = RUN_DEFAULTS.method,
    runs: int = RUN_DEFAULTS.runs,
    seed: int = RUN_DEFAULTS.seed,
    confidence: float = RUN_DEFAULTS.confidence,
    exclude_flagged: bool = True,
    parameters: dict[str, Any] | None = None,
) -> SlicesStarted:
    """Start a ranking run of the criterion on each slice, in order, every one with the
    same settings (``method`` to ``parameters``, and their defaults, as
    :func:`~ranking.services.runs.ranking_run_create` takes them).

    ``missing_only`` skips the slices that have a finished run of the criterion already.
    By default a slice without judgements of the criterion is skipped (there is nothing to
    rank), and once a run is refused (the designer's cap on active runs, say) the slices
    after it wait, counted in ``waiting`` (the slices page). With ``all_or_nothing`` every
    slice is checked before any run is made and a refusal is raised (the ``rank``
    command). ``compute_here`` computes each run in this process before the next is made
    (``ranking.services.compute``, chunks one after the other) instead of queueing it.
    """
    if missing_only:
        have = ranking_runs_on_slices(criterion=criterion, slices=slices)
        done = [run.where for run in have]
        slices = [where for where in slices if where not in done]
    if all_or_nothing:
        for where in slices:
            ranking_slice_check(criterion=criterion, where=where)
    started: list[RankingRun] = []
    waiting, refusal = 0, ""
    for where in slices:
        if not all_or_nothing:
            try:
                ranking_slice_check(criterion=criterion, where=where)
            except DomainError:
                continue  # a value without judgements of this criterion: nothing to rank
            if refusal:
                waiting += 1
                continue
        try:
            made = ranking_run_create(
                campaign=campaign,
                criterion=criterion,
                user=user,
                where=where,
                queue=not compute_here,
                method=method,
                runs=runs,
                seed=seed,
                confidence=confidence,
                exclude_flagged=exclude_flagged,
                parameters=parameters,
            )
        except DomainError as exc:
            if all_or_nothing:
                raise
            refusal = str(exc)
            waiting += 1
            continue
        if compute_here:
            try:
                compute.ranking_run_compute(run=made, fan_out=False)
            except Exception:
                # A failure the run recorded (the data's refusal, worded for a person) is
                # the run's outcome, which the caller reads from it as from a worker's
                # run; anything else (a fault that could not be recorded) propagates.
                made.refresh_from_db()
                if made.status != RankingRun.Status.FAILED:
                    raise
        started.append(made)
    return SlicesStarted(runs=started, waiting=waiting, refusal=refusal)
