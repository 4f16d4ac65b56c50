"""Chunked rankings (fan-out): chunk seeds, and a merge that is the same result
whatever computed the chunks, in what order and how many at a time."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

from ranking.stats import (
    ChunkResult,
    _wmt14_kernel,
    chunk_sizes,
    compute_chunk,
    compute_chunked,
    compute_chunks,
    merge_chunks,
    prepare_comparisons,
)
from ranking.stats._chunks import chunk_rng
from ranking.stats._wmt14 import wmt14, wmt14_side_by_side

from .test_wmt14 import simulate

N_SYSTEMS = 5


def _scores(seed: int = 0, n_judgements: int = 120) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    judgement = np.repeat(np.arange(n_judgements), 3)
    system = np.concatenate(
        [rng.choice(N_SYSTEMS, size=3, replace=False) for _ in range(n_judgements)]
    )
    score = rng.normal(size=system.size) + 0.4 * system
    return {"judgement": judgement, "system": system, "score": score}


def _assert_same(a, b) -> None:
    for name in ("value", "spread", "rank_lo", "rank_hi", "cluster", "comparisons"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    np.testing.assert_array_equal(a.result.run_values, b.result.run_values)
    assert a.stability == b.stability


def test_chunk_sizes_are_fixed_with_the_rest_last():
    assert chunk_sizes(60, 25) == [25, 25, 10]
    assert chunk_sizes(50, 25) == [25, 25]
    assert chunk_sizes(7, 25) == [7]
    with pytest.raises(ValueError):
        chunk_sizes(10, 0)


def test_chunk_i_draws_from_the_i_th_child_of_the_seed_sequence():
    children = np.random.SeedSequence(42).spawn(4)
    for i, child in enumerate(children):
        expected = np.random.default_rng(child).random(5)
        np.testing.assert_array_equal(chunk_rng(42, 4, i).random(5), expected)
    # Streams differ between chunks, and the stability check's (index n) is another one.
    draws = {tuple(chunk_rng(42, 3, i).random(3)) for i in range(4)}
    assert len(draws) == 4


@pytest.mark.parametrize("method", ["wmt14", "bootstrap", "bradley_terry", "expected_wins"])
def test_merge_in_any_order_and_through_bytes_is_the_in_process_result(method):
    data = _scores()
    reference = compute_chunked(
        method=method, n_systems=N_SYSTEMS, runs=60, chunk_runs=25, seed=7, **data
    )
    comparisons, ranked = prepare_comparisons(n_systems=N_SYSTEMS, **data)
    chunks = [
        compute_chunk(comparisons, method=method, runs=60, chunk_runs=25, index=i, seed=7)
        for i in (2, 0, 1)  # computed out of order, each on its own
    ]
    stored = [ChunkResult.from_bytes(c.to_bytes()) for c in chunks]
    for order in ([0, 1, 2], [2, 1, 0], [1, 2, 0]):
        merged = merge_chunks(
            [stored[i] for i in order], ranked=ranked, runs=60, chunk_runs=25, seed=7
        )
        _assert_same(merged, reference)
    assert reference.result.run_values.shape == (60, N_SYSTEMS)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_the_result_does_not_depend_on_how_many_workers_computed_the_chunks(workers):
    data = _scores(seed=3)
    comparisons, ranked = prepare_comparisons(n_systems=N_SYSTEMS, **data)
    reference = compute_chunked(
        method="wmt14", n_systems=N_SYSTEMS, runs=70, chunk_runs=20, seed=11, **data
    )
    indices = list(range(len(chunk_sizes(70, 20))))
    random.Random(workers).shuffle(indices)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        chunks = list(
            pool.map(
                lambda i: compute_chunk(
                    comparisons, method="wmt14", runs=70, chunk_runs=20, index=i, seed=11
                ),
                indices,
            )
        )
    _assert_same(merge_chunks(chunks, ranked=ranked, runs=70, chunk_runs=20, seed=11), reference)


def test_the_chunk_size_and_the_seed_are_part_of_the_result():
    data = _scores(seed=5)
    base = compute_chunked(method="bootstrap", n_systems=N_SYSTEMS, runs=40, chunk_runs=10, **data)
    other_size = compute_chunked(
        method="bootstrap", n_systems=N_SYSTEMS, runs=40, chunk_runs=20, **data
    )
    other_seed = compute_chunked(
        method="bootstrap", n_systems=N_SYSTEMS, runs=40, chunk_runs=10, seed=2, **data
    )
    assert not np.array_equal(base.result.run_values, other_size.result.run_values)
    assert not np.array_equal(base.result.run_values, other_seed.result.run_values)


def test_merge_refuses_missing_or_duplicated_chunks():
    data = _scores()
    comparisons, ranked = prepare_comparisons(n_systems=N_SYSTEMS, **data)
    c0, c1 = (
        compute_chunk(comparisons, method="expected_wins", runs=30, chunk_runs=15, index=i, seed=1)
        for i in (0, 1)
    )
    with pytest.raises(ValueError, match="once each"):
        merge_chunks([c0], ranked=ranked, runs=30, chunk_runs=15, seed=1)
    with pytest.raises(ValueError, match="once each"):
        merge_chunks([c0, c0, c1], ranked=ranked, runs=30, chunk_runs=15, seed=1)
    with pytest.raises(ValueError, match="outside"):
        compute_chunk(comparisons, method="expected_wins", runs=30, chunk_runs=15, index=2, seed=1)


def test_progress_covers_all_chunks_and_raising_stops():
    data = _scores()
    seen: list[float] = []
    compute_chunked(
        method="wmt14",
        n_systems=N_SYSTEMS,
        runs=50,
        chunk_runs=25,
        progress=seen.append,
        **data,
    )
    assert seen and seen == sorted(seen) and seen[-1] == pytest.approx(1.0)
    assert any(f <= 0.5 for f in seen) and any(f > 0.5 for f in seen)

    class Stop(Exception):
        pass

    def stop(fraction: float) -> None:
        raise Stop

    with pytest.raises(Stop):
        compute_chunked(method="wmt14", n_systems=N_SYSTEMS, runs=50, progress=stop, **data)


# -- several chunks in one process (``manage.py rank``) -----------------------------------


def _kernel_serves(n: int, *lanes: int) -> bool:
    return all(_wmt14_kernel.available(n, k) for k in lanes)


def test_wmt14_side_by_side_is_wmt14_once_per_generator():
    if not _kernel_serves(N_SYSTEMS, 40, 120):
        pytest.skip("the compiled kernel does not reproduce numpy for these shapes here")
    comparisons, _ = prepare_comparisons(n_systems=N_SYSTEMS, **_scores(seed=4))
    many = wmt14_side_by_side(
        comparisons, rngs=[np.random.default_rng(s) for s in (1, 2, 3)], runs=40
    )
    assert many is not None
    for result, seed in zip(many, (1, 2, 3), strict=True):
        alone = wmt14(comparisons, rng=np.random.default_rng(seed), runs=40)
        np.testing.assert_array_equal(result.run_values, alone.run_values)
        np.testing.assert_array_equal(result.value, alone.value)


def test_wmt14_side_by_side_declines_where_the_kernel_cannot_serve_all_lanes(monkeypatch):
    """Then it draws nothing and says so (None): the caller computes each alone."""
    comparisons, _ = prepare_comparisons(n_systems=N_SYSTEMS, **_scores(seed=4))
    monkeypatch.setattr(_wmt14_kernel, "available", lambda n, lanes: lanes <= 40)
    rngs = [np.random.default_rng(s) for s in (1, 2)]
    assert wmt14_side_by_side(comparisons, rngs=rngs, runs=40) is None
    untouched = np.random.default_rng(1).random(3)
    np.testing.assert_array_equal(rngs[0].random(3), untouched)


@pytest.mark.parametrize("method", ["wmt14", "bootstrap"])
@pytest.mark.parametrize("kernel", ["serves", "declines"])
def test_chunks_computed_together_are_each_what_they_are_alone(method, kernel, monkeypatch):
    """Byte for byte, in the order asked, the short last chunk included."""
    if kernel == "declines":
        monkeypatch.setattr(_wmt14_kernel, "available", lambda n, lanes: lanes <= 40)
    elif not _kernel_serves(N_SYSTEMS, 40, 80):
        pytest.skip("the compiled kernel does not reproduce numpy for these shapes here")
    comparisons, _ = prepare_comparisons(n_systems=N_SYSTEMS, **_scores(seed=5))
    alone = [
        compute_chunk(comparisons, method=method, runs=100, chunk_runs=40, index=i, seed=3)
        for i in range(3)
    ]
    fractions: list[float] = []
    together = compute_chunks(
        comparisons,
        method=method,
        runs=100,
        chunk_runs=40,
        indices=[2, 0, 1],
        seed=3,
        progress=fractions.append,
    )
    assert [chunk.index for chunk in together] == [2, 0, 1]
    for chunk in together:
        assert chunk.to_bytes() == alone[chunk.index].to_bytes()
    assert fractions == sorted(fractions) and fractions[-1] == pytest.approx(1.0)
    with pytest.raises(ValueError, match=r"0\.\.2"):
        compute_chunks(comparisons, method=method, runs=100, chunk_runs=40, indices=[3], seed=3)


@pytest.mark.parametrize("method", ["bradley_terry", "expected_wins"])
def test_bootstrap_chunks_in_threads_are_each_chunk_alone(method, monkeypatch):
    """Bradley-Terry's and expected wins' chunks compute in a thread per core: each
    exactly what it computes alone in one thread, progress heard chunk by chunk, and a
    progress that raises (the run stopped) stops the rest."""
    from ranking.stats import _chunks

    c = simulate([10, 0, -10, 5, 3], 80, k=4, seed=3)
    monkeypatch.setattr(_chunks, "_cores", lambda: 2)
    heard: list[float] = []
    together = compute_chunks(
        c,
        method=method,
        runs=50,
        chunk_runs=10,
        indices=[0, 1, 2, 3, 4],
        seed=5,
        progress=heard.append,
    )
    assert sorted(heard) == heard and heard[-1] == pytest.approx(1.0) and len(heard) == 5
    monkeypatch.setattr(_chunks, "_cores", lambda: 1)
    for chunk in together:
        (alone,) = compute_chunks(
            c, method=method, runs=50, chunk_runs=10, indices=[chunk.index], seed=5
        )
        np.testing.assert_array_equal(chunk.run_values, alone.run_values)

    class Stopped(Exception):
        pass

    def stop(_: float) -> None:
        raise Stopped

    monkeypatch.setattr(_chunks, "_cores", lambda: 2)
    with pytest.raises(Stopped):
        compute_chunks(
            c,
            method=method,
            runs=50,
            chunk_runs=10,
            indices=[0, 1, 2, 3, 4],
            seed=5,
            progress=stop,
        )


def test_chunks_are_sized_by_cost():
    """A chunk of E2E quality's 40 runs computed in about 0.4 s while a chunk cost 30-90 ms
    beyond it (message, claim, store): chunks aim at about a second each, in multiples of
    the default size, still cutting a run into 32 when its runs allow (a fanned-out
    run's chunks travel a few to a task, so small chunks cost no message each, and 32
    share evenly over 2, 4 or 8 workers where 25 chunks of 80 left one of two workers 13)."""
    from ranking.stats import DEFAULT_CHUNK_RUNS, chunk_runs_for

    e2e = 30_000  # comparisons of E2E quality, about
    assert chunk_runs_for("wmt14", 2000, e2e) == DEFAULT_CHUNK_RUNS  # 50 chunks
    assert chunk_runs_for("wmt14", 4000, e2e) == 2 * DEFAULT_CHUNK_RUNS  # 50 chunks, ~1 s
    assert chunk_runs_for("wmt14", 200, e2e) == DEFAULT_CHUNK_RUNS  # 5 chunks, not fewer
    assert chunk_runs_for("wmt14", 20_000, 3_000) == 15 * DEFAULT_CHUNK_RUNS  # 33 of 600
    assert chunk_runs_for("wmt14", 20_000, 1_000_000) == DEFAULT_CHUNK_RUNS  # 15 s a chunk
    assert chunk_runs_for("bradley_terry", 2000, e2e) == DEFAULT_CHUNK_RUNS
    assert chunk_runs_for("wmt14", 2000, 0) == DEFAULT_CHUNK_RUNS
    assert chunk_runs_for("wmt14", 2000, e2e, unit=25) == 50
    for runs in (1, 39, 200, 2000, 10_000):
        assert chunk_runs_for("wmt14", runs, e2e) % DEFAULT_CHUNK_RUNS == 0


def test_the_methods_whose_chunks_are_sized_by_their_comparisons():
    """The services count a run's comparisons only for the methods that need them: those
    whose chunk size changes with the comparisons, and no other."""
    from ranking.stats import METHODS, chunk_runs_for, chunks_sized_by_comparisons

    sized = {m for m in METHODS if chunks_sized_by_comparisons(m)}
    assert sized == {"wmt14", "bootstrap"}
    for method in METHODS:
        moves = chunk_runs_for(method, 20_000, 3_000) != chunk_runs_for(method, 20_000, 0)
        assert moves == (method in sized), method


def test_side_by_side_passes_hold_a_bounded_number_of_runs(monkeypatch):
    """All of a run's chunks in one compiled pass outgrew the caches (2,000 runs of E2E
    quality: 7.7 s against 5.7 s in passes of 160): passes hold at most
    SIDE_BY_SIDE_LANES runs (two chunks at least), each chunk's numbers unchanged."""
    from ranking.stats import _chunks

    passes: list[int] = []
    real = _chunks.wmt14_side_by_side

    def counted(comparisons, *, rngs, runs, **kwargs):
        passes.append(len(rngs) * runs)
        return real(comparisons, rngs=rngs, runs=runs, **kwargs)

    monkeypatch.setattr(_chunks, "wmt14_side_by_side", counted)
    monkeypatch.setattr(_chunks, "SIDE_BY_SIDE_LANES", 16)
    c = simulate([10, 0, -10, 5, 3], 60, k=4, seed=2)
    got = compute_chunks(c, method="wmt14", runs=56, chunk_runs=8, indices=list(range(7)), seed=3)
    assert passes == [16, 16, 16]  # three passes of two chunks; the seventh alone
    for chunk in got:
        (alone,) = compute_chunks(
            c, method="wmt14", runs=56, chunk_runs=8, indices=[chunk.index], seed=3
        )
        np.testing.assert_array_equal(chunk.run_values, alone.run_values)


def test_chunks_go_out_in_a_few_tasks_per_worker_of_whole_side_by_side_passes():
    """One task per chunk cost 46 ms of message, claim and store each (25 chunks, 2
    workers: 1.53x instead of 2x): a run's chunks now go out in about three tasks per
    worker, each of consecutive chunks in whole side-by-side passes, as even as they
    allow, the larger first; chunks already done leave gaps no task spans."""
    from ranking.stats import chunk_groups, chunks_side_by_side

    together = chunks_side_by_side("wmt14", 40)
    assert together == 5  # 200 runs a pass
    groups = chunk_groups(range(50), workers=2, together=together)
    assert [len(g) for g in groups] == [10, 10, 10, 10, 5, 5]
    assert [i for g in groups for i in g] == list(range(50))
    # two workers taking the next task when free each compute 25 chunks
    assert sum(len(g) for g in groups[::2]) == sum(len(g) for g in groups[1::2]) == 25
    assert len(chunk_groups(range(50), workers=8, together=together)) == 10  # a pass each
    assert chunk_groups(range(3), workers=2, together=8) == [[0, 1, 2]]
    assert chunk_groups(range(4), workers=1) == [[0, 1], [2], [3]]
    assert chunk_groups([0, 2, 3, 5], workers=1, together=4) == [[0], [2, 3], [5]]
    assert chunk_groups([], workers=2) == []
    assert chunks_side_by_side("bradley_terry", 40) == 1
    assert chunks_side_by_side("wmt14", 300) == 1
    with pytest.raises(ValueError):
        chunk_groups(range(3), workers=0)


def test_no_task_takes_more_than_the_most_chunks_of_a_group():
    """A long run was dealt in ``workers * 3`` tasks whatever its length (bootstrap of a
    million comparisons, 50,000 runs, two workers: tasks of 209 chunks, about 50 minutes
    each, one killed or timed out losing all of it); a task now takes at most
    ``GROUP_MAX_CHUNKS`` chunks (whole side-by-side passes), and more tasks go out."""
    from ranking.stats import GROUP_MAX_CHUNKS, chunk_groups

    groups = chunk_groups(range(1250), workers=2)
    assert max(len(g) for g in groups) <= GROUP_MAX_CHUNKS
    assert sorted(i for g in groups for i in g) == list(range(1250))
    assert len(groups) == -(-1250 // GROUP_MAX_CHUNKS)
    passes = chunk_groups(range(1250), workers=2, together=5, max_chunks=12)
    assert all(len(g) == 10 for g in passes)  # two whole passes of 5, not 12
    assert chunk_groups(range(4), workers=1, together=8, max_chunks=2) == [[0, 1, 2, 3]]
    assert chunk_groups(range(50), workers=2) == chunk_groups(range(50), workers=2, max_chunks=60)
