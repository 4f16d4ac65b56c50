"""Compute a ranking from scores: what the ranking services call.

Kept free of Django: the selector passes the score arrays, the service stores the
returned values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._bradley_terry import Separation, separation_of
from ._methods import check_parameters, run_method
from ._pairwise import Comparisons, judgements_to_comparisons, pair_counts
from ._result import RankingResult, summarise_runs
from ._stability import MAX_RUNS, cluster_stability

__all__ = [
    "DEFAULT_BATCH_RUNS",
    "ComputedRanking",
    "Evidence",
    "compute",
    "prepare_comparisons",
    "system_comparisons",
    "system_evidence",
]

#: runs computed together in one batch (bounds the memory that grows with the runs)
DEFAULT_BATCH_RUNS = 2_000


@dataclass(frozen=True, eq=False)
class ComputedRanking:
    """A ranking ready to store: per-system arrays, totals and the stability check."""

    result: RankingResult
    stability: dict[str, object]
    #: indices (into the systems given) of the systems ranked, in the result's order;
    #: the others had no comparison and are left unranked
    ranked: NDArray[np.int64]

    @property
    def value(self) -> NDArray[np.float64]:
        return self.result.value

    @property
    def spread(self) -> NDArray[np.float64]:
        return self.result.spread

    @property
    def rank_lo(self) -> NDArray[np.int64]:
        return self.result.rank_lo

    @property
    def rank_hi(self) -> NDArray[np.int64]:
        return self.result.rank_hi

    @property
    def cluster(self) -> NDArray[np.int64]:
        return self.result.cluster

    @property
    def comparisons(self) -> NDArray[np.int64]:
        return self.result.comparisons

    @property
    def n_comparisons(self) -> int:
        return self.result.n_comparisons


def compute(
    *,
    method: str,
    n_systems: int,
    judgement: ArrayLike,
    system: ArrayLike,
    score: ArrayLike,
    slot: ArrayLike | None = None,
    runs: int = 200,
    confidence: float = 0.95,
    parameters: Mapping[str, Any] | None = None,
    rng: np.random.Generator,
    progress: Callable[[float], None] | None = None,
    batch_runs: int = DEFAULT_BATCH_RUNS,
    min_comparisons: int = 0,
    max_runs: int = MAX_RUNS,
) -> ComputedRanking:
    """Rank systems from raw scores (one entry per judgement and output).

    ``method``, ``runs``, ``confidence`` and ``parameters`` are checked first
    (:func:`~ranking.stats.check_parameters`: :class:`~ranking.stats.ParameterError`).
    The scores become pairwise comparisons (:func:`judgements_to_comparisons`; entries
    sharing a judgement's slot are one merged output). Systems without any comparison
    cannot be ranked: they are left out (``ranked`` lists the others) rather than
    failing the whole ranking; so are systems with fewer than ``min_comparisons``
    (provisional: see :func:`prepare_comparisons`). The method runs with ``rng``, and the clusters' stability
    is checked with a generator spawned from ``rng`` after the method is done, so the
    method's numbers do not depend on the check.

    Memory: the methods hold arrays proportional to the runs they advance together
    (WMT14: ``16 * block`` bytes per run for its pre-drawn random numbers, 33 MB per
    1,000 runs; bootstrap: its resampled comparison orders). More than ``batch_runs``
    runs are therefore computed in batches of at most ``batch_runs``, batch ``b``
    drawing from the ``b``-th child of ``rng.spawn(n_batches)``; only the per-run values
    (``runs * n_systems`` floats) are kept across batches. With a single batch the
    method gets ``rng`` itself, so results for ``runs <= batch_runs`` do not depend on
    the batching.

    ``max_runs``: the most runs the platform accepts; the stability check never
    suggests more (:func:`~ranking.stats._stability.cluster_stability`).

    ``progress`` receives the fraction of the work done (0-1), the batches' runs
    weighted by their size; raising from it stops the computation (cancellation).
    """
    params = dict(parameters or {})
    check_parameters(method, params, runs=runs, confidence=confidence)
    if batch_runs < 1:
        raise ValueError("batch_runs must be at least 1")
    comparisons, ranked = prepare_comparisons(
        n_systems=n_systems,
        judgement=judgement,
        system=system,
        score=score,
        slot=slot,
        min_comparisons=min_comparisons,
    )
    sizes = [min(batch_runs, runs - start) for start in range(0, runs, batch_runs)]
    if len(sizes) <= 1:
        result = run_method(
            method,
            comparisons,
            rng=rng,
            runs=runs,
            confidence=confidence,
            progress=progress,
            parameters=params,
        )
    else:
        batches = []
        done = 0
        for size, batch_rng in zip(sizes, rng.spawn(len(sizes)), strict=True):

            def report(fraction: float, done: int = done, size: int = size) -> None:
                if progress is not None:
                    progress(min((done + fraction * size) / runs, 1.0))

            batches.append(
                run_method(
                    method,
                    comparisons,
                    rng=batch_rng,
                    runs=size,
                    confidence=confidence,
                    progress=report,
                    parameters=params,
                )
            )
            done += size
        first = batches[0]
        # WMT14 and bootstrap values are the mean over runs; the others' value is a fit
        # on all the data, the same in every batch.
        mean_of_runs = method in ("wmt14", "bootstrap")
        result = summarise_runs(
            method=first.method,
            run_values=np.concatenate([b.run_values for b in batches]),
            value=None if mean_of_runs else first.value,
            confidence=confidence,
            comparisons=first.comparisons,
            n_comparisons=first.n_comparisons,
            params=first.params,
        )
    (check_rng,) = rng.spawn(1)
    stability = cluster_stability(result, rng=check_rng, max_runs=max_runs)
    return ComputedRanking(result=result, stability=stability.as_dict(), ranked=ranked)


def prepare_comparisons(
    *,
    n_systems: int,
    judgement: ArrayLike,
    system: ArrayLike,
    score: ArrayLike,
    slot: ArrayLike | None = None,
    min_comparisons: int = 0,
) -> tuple[Comparisons, NDArray[np.int64]]:
    """Scores to the comparisons to rank, and the indices of the systems they rank.

    Systems without any comparison are left out (the others renumbered
    ``0 .. len(ranked) - 1``); fewer than two ranked systems raise ``ValueError``.

    ``min_comparisons``: systems with fewer comparisons than this, or in fewer judgements
    than this (but some), are *provisional*: left out too (a system in eight five-way
    judgements has 32 comparisons, all from eight looks, and came out first with
    certainty), and the others ranked on their comparisons with each
    other only, as WMT leaves out systems below a minimum of judgements and Chatbot
    Arena shows new models as "preliminary" apart from the leaderboard. Under TrueSkill
    a system's comparisons move its opponents' values, so a system seen once would
    otherwise change the others' values and order (and, with a wide sigma, take a rank
    range of exactly "1"). Leaving systems out leaves the others fewer comparisons, so
    the rule is applied again on what is left until every ranked system has at least
    ``min_comparisons`` with the other ranked ones (a system left out in a later round
    may have more comparisons in all). It is applied only while at least two systems
    meet the minimum; when fewer do, every compared system is ranked (the caller then
    says the data are too thin for clusters). :func:`system_comparisons` gives each system's
    count in the data, to list the provisional ones with theirs.
    """
    judgement_arr = np.asarray(judgement, dtype=np.int64)
    system_arr = np.asarray(system, dtype=np.int64)
    score_arr = np.asarray(score, dtype=np.float64)
    slot_arr = None if slot is None else np.asarray(slot, dtype=np.int64)
    comparisons = judgements_to_comparisons(
        judgement_arr, system_arr, score_arr, n_systems=n_systems, slot=slot_arr
    )
    counts = comparisons.per_system()
    ranked = np.flatnonzero(counts > 0).astype(np.int64)
    if min_comparisons > 0:
        evidence = np.minimum(counts, comparisons.per_system_judgements())
        enough = _enough_among_themselves(
            judgement_arr, system_arr, score_arr, slot_arr, n_systems, evidence, min_comparisons
        )
        if enough.size >= 2:
            ranked = enough
    if ranked.size < n_systems:
        # Rank the compared systems only, renumbered 0 .. len(ranked) - 1.
        keep = np.isin(system_arr, ranked)
        renumber = np.full(n_systems, -1, dtype=np.int64)
        renumber[ranked] = np.arange(ranked.size)
        comparisons = judgements_to_comparisons(
            judgement_arr[keep],
            renumber[system_arr[keep]],
            score_arr[keep],
            n_systems=int(ranked.size),
            slot=None if slot_arr is None else slot_arr[keep],
        )
    if ranked.size < 2:
        raise ValueError(
            "at least two systems need comparisons with each other to be ranked; "
            f"{ranked.size} of {n_systems} have any"
        )
    return comparisons, ranked


def _enough_among_themselves(
    judgement: NDArray[np.int64],
    system: NDArray[np.int64],
    score: NDArray[np.float64],
    slot: NDArray[np.int64] | None,
    n_systems: int,
    counts: NDArray[np.int64],
    minimum: int,
) -> NDArray[np.int64]:
    """The systems with at least ``minimum`` comparisons with each other, in at least
    ``minimum`` judgements (``counts``: the fewer of the two in all): those with enough in
    all, then again among those, until nothing changes (or fewer than two)."""
    kept = np.flatnonzero(counts >= minimum).astype(np.int64)
    while kept.size >= 2:
        mask = np.isin(system, kept)
        among = judgements_to_comparisons(
            judgement[mask],
            system[mask],
            score[mask],
            n_systems=n_systems,
            slot=None if slot is None else slot[mask],
        )
        evidence = np.minimum(among.per_system(), among.per_system_judgements())
        still = kept[evidence[kept] >= minimum]
        if still.size == kept.size:
            break
        kept = still
    return kept


@dataclass(frozen=True, eq=False)
class Evidence:
    """What the data give each system, before any is left out, and whether they bound
    the ranked systems' Bradley-Terry strengths."""

    #: each system's pairwise comparisons, shape ``(n_systems,)``
    comparisons: NDArray[np.int64]
    #: each system's judgements with a comparison, shape ``(n_systems,)``
    judgements: NDArray[np.int64]
    #: the ranked systems' comparisons with each other (:func:`separation`; its groups
    #: hold indices into the systems given); ``None`` when no ranked systems were given
    separation: Separation | None = None


def system_evidence(
    *,
    n_systems: int,
    judgement: ArrayLike,
    system: ArrayLike,
    score: ArrayLike,
    slot: ArrayLike | None = None,
    ranked: ArrayLike | None = None,
) -> Evidence:
    """Each system's numbers of pairwise comparisons and of judgements with a comparison
    in the data (before any system is left out), and, given the ``ranked`` systems'
    indices, whether their comparisons with each other bound their Bradley-Terry
    strengths: one conversion of the judgements for both."""
    # judgements_to_comparisons takes array-likes as they come.
    comparisons = judgements_to_comparisons(
        judgement, system, score, n_systems=n_systems, slot=slot
    )
    split = None
    if ranked is not None:
        # the ranked systems' comparisons with each other: their rows and columns of the
        # pair counts (indices back into the systems given)
        ranked_arr = np.asarray(ranked, dtype=np.int64)
        wins, draws = pair_counts(comparisons)
        among = separation_of(((wins + draws) > 0)[np.ix_(ranked_arr, ranked_arr)])
        split = Separation(
            groups=tuple(tuple(int(ranked_arr[i]) for i in g) for g in among.groups),
            compared=among.compared,
        )
    return Evidence(
        comparisons=np.asarray(comparisons.per_system(), dtype=np.int64),
        judgements=comparisons.per_system_judgements(),
        separation=split,
    )


def system_comparisons(
    *,
    n_systems: int,
    judgement: ArrayLike,
    system: ArrayLike,
    score: ArrayLike,
    slot: ArrayLike | None = None,
) -> NDArray[np.int64]:
    """Each system's number of pairwise comparisons in the data (:func:`system_evidence`)."""
    return system_evidence(
        n_systems=n_systems, judgement=judgement, system=system, score=score, slot=slot
    ).comparisons
