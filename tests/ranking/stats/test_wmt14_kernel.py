"""The compiled WMT14 runs give exactly the numpy path's numbers (the oracle)."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from ranking.stats import _wmt14_kernel
from ranking.stats._pairwise import judgements_to_comparisons
from ranking.stats._trueskill import BatchUpdater
from ranking.stats._wmt14 import wmt14, wmt14_many

from .test_wmt14 import dominance, simulate


def e2e_like(seed: int, n_judgements: int = 400):
    """21 systems, RankME-like judgements of 5 outputs on a 1-10 scale (as E2E)."""
    rng = np.random.default_rng(seed)
    strengths = rng.normal(0, 15, 21)
    return simulate(strengths, n_judgements, k=5, noise=25.0, seed=seed)


def both(comparisons, *, seed: int, runs: int, **kw):
    fast = wmt14(comparisons, rng=np.random.default_rng(seed), runs=runs, engine="compiled", **kw)
    oracle = wmt14(comparisons, rng=np.random.default_rng(seed), runs=runs, engine="numpy", **kw)
    return fast, oracle


def assert_same(fast, oracle):
    assert_array_equal(fast.run_values, oracle.run_values)  # exact, not approximate
    assert_array_equal(fast.run_ranks, oracle.run_ranks)
    assert_array_equal(fast.value, oracle.value)
    assert_array_equal(fast.cluster, oracle.cluster)
    assert fast.params == oracle.params


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_e2e_like_data_bit_for_bit(seed):
    fast, oracle = both(e2e_like(seed), seed=seed, runs=200)
    assert_same(fast, oracle)


@pytest.mark.parametrize("seed", [5, 6])
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"tau": 0.05, "draw_probability": 0.1},
        {"beta": 0.3, "sigma0": 1.0, "steps": 400},
        {"mu0": 25.0, "sigma0": 8.0, "draw_probability": 0.4},
    ],
)
def test_random_data_and_environments_bit_for_bit(seed, params):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 12))
    c = simulate(rng.normal(0, 20, n), int(rng.integers(50, 300)), k=3, seed=seed)
    fast, oracle = both(c, seed=seed, runs=16, **params)
    assert_same(fast, oracle)


def test_missing_pairs_bit_for_bit():
    c = simulate([10, 5, 0, -5, 3, 8, -2, 1], 300, k=2, seed=2)
    keep = ~(((c.winners == 0) & (c.losers == 3)) | ((c.winners == 3) & (c.losers == 0)))
    c = c.subset(keep)
    fast, oracle = both(c, seed=5, runs=24)
    assert_same(fast, oracle)


def test_steps_in_the_tails_are_played_by_the_numpy_updater(monkeypatch):
    """A small beta sends some steps past |t| + eps >= 6: those go through numpy."""
    played = []
    play = BatchUpdater.play

    def spy(self, state):
        played.append(self.size)
        return play(self, state)

    monkeypatch.setattr(BatchUpdater, "play", spy)
    c = dominance(60)
    fast = wmt14(c, rng=np.random.default_rng(3), runs=16, engine="compiled", beta=0.05, steps=300)
    assert played, "no step reached the tails: the test does not exercise the replay"
    monkeypatch.setattr(BatchUpdater, "play", play)
    oracle = wmt14(c, rng=np.random.default_rng(3), runs=16, engine="numpy", beta=0.05, steps=300)
    assert_same(fast, oracle)


def test_many_sets_side_by_side_bit_for_bit():
    sets = [e2e_like(7, 150), simulate([30, 20, 10, 0, -10, -25], 120, seed=4)]
    rngs = [np.random.default_rng(1), np.random.default_rng(2)]
    fast = wmt14_many(sets, rngs=rngs, runs=40, block=100)
    rngs = [np.random.default_rng(1), np.random.default_rng(2)]
    oracle = wmt14_many(sets, rngs=rngs, runs=40, block=100, engine="numpy")
    for f, o in zip(fast, oracle, strict=True):
        assert_same(f, o)


@pytest.mark.parametrize("runs", [1, 3, 17, 40])
def test_auto_equals_numpy_whatever_the_shape(runs):
    """Shapes the kernel's checks reject (BLAS edge kernels) fall back to numpy."""
    c = e2e_like(9, 120)
    auto = wmt14(c, rng=np.random.default_rng(4), runs=runs)
    oracle = wmt14(c, rng=np.random.default_rng(4), runs=runs, engine="numpy")
    assert_same(auto, oracle)


def test_compiled_refuses_what_it_cannot_reproduce(monkeypatch):
    c = e2e_like(8, 60)
    monkeypatch.setattr(_wmt14_kernel, "available", lambda n, lanes: False)
    with pytest.raises(RuntimeError):
        wmt14(c, rng=np.random.default_rng(0), runs=8, engine="compiled")
    auto = wmt14(c, rng=np.random.default_rng(0), runs=8)  # falls back to numpy
    oracle = wmt14(c, rng=np.random.default_rng(0), runs=8, engine="numpy")
    assert_same(auto, oracle)


def test_no_draw_probability_equals_numpy():
    j = np.repeat(np.arange(20), 3)
    c = judgements_to_comparisons(j, np.tile([0, 1, 2], 20), np.tile([5.0, 5.0, 1.0], 20))
    auto = wmt14(c, rng=np.random.default_rng(0), runs=8, draw_probability=0.0)
    oracle = wmt14(c, rng=np.random.default_rng(0), runs=8, engine="numpy", draw_probability=0.0)
    assert_same(auto, oracle)


def test_block_size_and_progress_on_the_compiled_path():
    c = e2e_like(11, 100)
    seen: list[float] = []
    a = wmt14(c, rng=np.random.default_rng(2), runs=16, engine="compiled", block=7)
    b = wmt14(c, rng=np.random.default_rng(2), runs=16, engine="compiled", progress=seen.append)
    assert_same(a, b)
    assert seen and seen[-1] == 1.0


def test_unknown_engine_is_rejected():
    with pytest.raises(ValueError, match="engine"):
        wmt14(dominance(), rng=np.random.default_rng(0), runs=2, engine="gpu")


@pytest.mark.parametrize("runs", [8, 25, 50, 100, 200, 1000])
def test_the_checks_hold_for_the_usual_shapes(runs):
    """Up to 100 systems (E2E, the arena benchmark) and the run counts people ask for.

    The cumulative opponent weights were once a BLAS product whose summation order
    depends on the CPU and the number of runs: on an AMD EPYC no shape passed, and
    every ranking silently took the numpy path (about 25 times slower)."""
    for n in (3, 21, 100):
        assert _wmt14_kernel.available(n, runs), (n, runs)


@pytest.mark.parametrize("runs", [25, 100])
def test_e2e_like_data_at_other_run_counts_bit_for_bit(runs):
    fast, oracle = both(e2e_like(7), seed=7, runs=runs)
    assert_same(fast, oracle)


def test_a_shape_the_kernel_cannot_reproduce_is_said_once_in_the_log(monkeypatch, caplog):
    """The numpy fallback is exact but far slower: it must not be silent."""
    import logging

    from ranking.stats import _wmt14_kernel as kernel

    monkeypatch.setattr(kernel, "_checked", {})
    monkeypatch.setattr(kernel, "_check", lambda n, lanes: False)
    with caplog.at_level(logging.WARNING, logger="ranking.stats._wmt14_kernel"):
        assert kernel.available(7, 13) is False
        assert kernel.available(7, 13) is False
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "7 systems x 13 runs" in said[0] and "numpy path" in said[0]


def test_an_unverified_numpy_reads_no_pointer_and_ranks_through_numpy(monkeypatch, caplog):
    """A numpy release that moved ``PyUFuncObject`` must cost speed, never a crash: the
    kernel follows no pointer on a version it was not verified on."""
    import ctypes
    import logging

    from ranking.stats import _wmt14_kernel as kernel

    monkeypatch.setattr(kernel.np, "__version__", "2.99.0")
    monkeypatch.setattr(kernel, "_checked", {})

    def no_raw_reads(*args, **kwargs):
        raise AssertionError("a raw pointer was read on an unverified numpy")

    monkeypatch.setattr(ctypes.c_void_p, "from_address", no_raw_reads)
    monkeypatch.setattr(kernel._UFuncHead, "from_address", no_raw_reads)
    with caplog.at_level(logging.WARNING, logger="ranking.stats._wmt14_kernel"):
        assert kernel._exp_loop() is None
        assert kernel.available(8, 8) is False
    assert any("2.99.0" in r.getMessage() for r in caplog.records)
    c = e2e_like(8, 60)
    auto = wmt14(c, rng=np.random.default_rng(0), runs=8)
    monkeypatch.undo()
    oracle = wmt14(c, rng=np.random.default_rng(0), runs=8, engine="numpy")
    assert_same(auto, oracle)


def test_the_installed_numpy_is_a_verified_one():
    """pyproject.toml pins numpy to the versions the kernel was verified on: a newer one
    fails here (and ranks through numpy) until someone checks it and lists it."""
    from ranking.stats import _wmt14_kernel as kernel

    assert kernel._numpy_verified(), (
        f"numpy {np.__version__} is not in VERIFIED_NUMPY: run this file on it and add it"
    )
    assert kernel._exp_loop() is not None
    assert not kernel._numpy_verified("3.0.0")
