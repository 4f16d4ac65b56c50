"""The replay simulator (benchmarks/replay.py), on a small synthetic pool (no ../shared
data needed)."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.replay import Fitter, Pool, Trace, oracle_focus, oracle_requests, simulate

# --- the replay simulator, on a synthetic pool ------------------------------------------


def synthetic_pool(n_systems: int = 8, n_judgements: int = 240, seed: int = 0) -> Pool:
    """Judgements of 4 random systems each, scores from well separated qualities."""
    rng = np.random.default_rng(seed)
    quality = np.repeat([3.0, 2.0, 1.0, 0.0], n_systems // 4)
    systems = np.array([rng.choice(n_systems, 4, replace=False) for _ in range(n_judgements)])
    scores = quality[systems] + rng.normal(0, 0.8, systems.shape)
    return Pool(labels=[f"s{i}" for i in range(n_systems)], systems=systems, scores=scores)


@pytest.mark.parametrize("policy", ["balanced", "adaptive", "oracle"])
def test_the_simulator_uses_every_judgement_once_and_ends_on_the_full_clusters(
    policy: str,
) -> None:
    pool = synthetic_pool()
    fitter = Fitter(pool, runs=16, seed=1)
    full = fitter.fit(np.ones(len(pool), dtype=np.bool_))
    assert full is not None
    focus = oracle_focus(full, width=2, floor=0.1)

    def run() -> Trace:
        return simulate(
            pool,
            fitter,
            full.cluster,
            policy=policy,
            batch=40,
            k=4,
            rng=np.random.default_rng(0),
            focus=focus,
        )

    trace = run()
    assert trace.judgements == [40, 80, 120, 160, 200, 240]
    assert trace.equal[-1] and trace.agreement[-1] == 1.0
    assert trace.judgements[0] <= trace.needed() <= len(pool)
    if policy == "adaptive":
        assert len(trace.choose_seconds) == 6
    again = run()
    assert again.agreement == trace.agreement  # seeded: the same campaign


def test_the_oracle_focuses_on_the_systems_beside_the_full_data_boundaries() -> None:
    from types import SimpleNamespace

    # systems listed by value position: position q is system order[q]
    order = np.array([4, 0, 7, 2, 9, 11, 1, 3, 5, 10, 6, 8])
    value = np.empty(12)
    value[order] = np.linspace(1.0, 0.0, 12)
    cluster = np.empty(12, dtype=np.int64)
    cluster[order] = [1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3]  # boundaries after positions 2, 6
    full = SimpleNamespace(value=value, cluster=cluster)

    narrow = oracle_focus(full, width=1, floor=0.0)  # type: ignore[arg-type]
    assert sorted(np.flatnonzero(narrow).tolist()) == sorted(order[[2, 3, 6, 7]].tolist())
    wide = oracle_focus(full, width=2, floor=0.25)  # type: ignore[arg-type]
    assert sorted(np.flatnonzero(wide == 1).tolist()) == sorted(order[1:9].tolist())
    assert set(wide[order[[0, 9, 10, 11]]].tolist()) == {0.25}
    one_cluster = SimpleNamespace(value=value, cluster=np.ones(12, dtype=np.int64))
    assert oracle_focus(one_cluster, width=3, floor=0.5).tolist() == [0.5] * 12  # type: ignore[arg-type]


def test_the_oracle_asks_for_the_systems_in_focus() -> None:
    only = np.r_[np.ones(5), np.zeros(7)]
    requests = oracle_requests(only, 50, k=4, rng=np.random.default_rng(3))
    assert requests.shape == (50, 4)
    assert all(len(set(row)) == 4 for row in requests.tolist())
    assert set(requests.ravel().tolist()) == {0, 1, 2, 3, 4}
    some = np.r_[np.ones(5), np.full(7, 0.1)]
    counts = np.bincount(oracle_requests(some, 400, k=4, rng=np.random.default_rng(3)).ravel())
    assert counts[:5].min() > 3 * counts[5:].max() > 0


def test_the_oracle_needs_enough_systems_in_focus() -> None:
    pool = synthetic_pool()
    fitter = Fitter(pool, runs=16, seed=1)
    full = fitter.fit(np.ones(len(pool), dtype=np.bool_))
    assert full is not None
    with pytest.raises(ValueError, match="oracle needs weights"):
        simulate(
            pool,
            fitter,
            full.cluster,
            policy="oracle",
            batch=40,
            k=4,
            rng=np.random.default_rng(0),
            focus=np.r_[np.ones(3), np.zeros(5)],
        )
    with pytest.raises(ValueError, match="oracle needs weights"):
        simulate(
            pool, fitter, full.cluster, policy="oracle", batch=40, k=4, rng=np.random.default_rng(0)
        )


def test_needed_is_the_start_of_the_final_run_of_agreement() -> None:
    trace = Trace(
        "balanced", judgements=[10, 20, 30, 40, 50], equal=[True, False, True, True, True]
    )
    assert trace.needed() == 30
    trace.equal = [True, True, True, True, False]
    assert trace.needed() == 50
