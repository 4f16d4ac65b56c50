"""What the chunked-run tests compare: a run's stored results and the pure computation's."""

from __future__ import annotations

from ranking import stats
from ranking.models import RankingRun
from ranking.selectors import runs as selectors


def _values(run: RankingRun) -> dict[str, tuple[float, float, int, int, int]]:
    return {
        r.system.label: (r.value, r.spread, r.rank_lo, r.rank_hi, r.cluster)
        for r in run.results.select_related("system")
    }


def _reference(run: RankingRun) -> dict[str, tuple[float, float, int, int, int]]:
    """The pure in-process computation of the same run (ranking.stats.compute_chunked)."""
    data = selectors.ranking_scores(criterion=run.criterion)
    result = stats.compute_chunked(
        method=run.method,
        n_systems=len(data.systems),
        judgement=data.judgement,
        system=data.system,
        score=data.score,
        slot=data.slot,
        runs=run.runs,
        chunk_runs=run.chunk_runs or 0,
        seed=run.seed,
        confidence=run.confidence,
        parameters=run.parameters,
    )
    return {
        data.systems[int(s)].label: (
            float(result.value[i]),
            float(result.spread[i]),
            int(result.rank_lo[i]),
            int(result.rank_hi[i]),
            int(result.cluster[i]),
        )
        for i, s in enumerate(result.ranked)
    }
