"""Per-run ranks, trimmed rank ranges and the WMT14 cluster rule."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from numpy.testing import assert_array_equal

from ranking.stats._clusters import (
    clusters_from_ranges,
    rank_ranges,
    ranks_per_run,
    trim_count,
    value_order,
)
from ranking.stats._result import summarise_runs


@pytest.mark.parametrize(
    ("runs", "confidence", "expected"),
    [
        (200, 0.95, 5),
        (1000, 0.95, 25),
        (2000, 0.95, 50),
        (100, 0.95, 3),
        (300, 0.95, 8),
        (20, 0.95, 1),
        (200, 0.9, 10),
        (3, 0.95, 1),
        (1, 0.95, 0),
    ],
)
def test_trim_count_as_wmt_cluster_py(runs, confidence, expected):
    assert trim_count(runs, confidence) == expected


def test_ranks_per_run_highest_first_ties_share_best():
    assert_array_equal(
        ranks_per_run(np.array([[0.1, 0.3, 0.2], [5.0, 5.0, 1.0]])), [[3, 1, 2], [1, 1, 3]]
    )


def test_rank_ranges_trim_both_ends():
    # 200 runs: system 0 ranked 1 except 5 runs at 2 and 6 runs at 3
    ranks = np.ones((200, 1), dtype=int)
    ranks[:5] = 2
    ranks[5:11] = 3
    lo, hi = rank_ranges(ranks, 0.95)
    assert (lo[0], hi[0]) == (1, 3)
    ranks[5:11] = 1
    lo, hi = rank_ranges(ranks, 0.95)
    assert (lo[0], hi[0]) == (1, 1)  # the 5 runs at rank 2 are trimmed


def test_clusters_published_e2e_naturalness_shape():
    # the rank ranges of the published naturalness table give its five clusters
    lo = [1, 2, 2, 3, 4, 4, 5, 5, 7, 9, 9, 10, 13, 13, 13, 13, 15, 18, 18, 20, 20]
    hi = [1, 3, 4, 6, 8, 8, 8, 10, 11, 12, 12, 12, 16, 17, 17, 17, 17, 19, 19, 21, 21]
    values = -np.arange(21.0)
    clusters = clusters_from_ranges(values, lo, hi)
    assert_array_equal(clusters, [1] + [2] * 11 + [3] * 5 + [4] * 2 + [5] * 2)


def test_clusters_are_reported_in_system_order():
    # systems listed worst first
    clusters = clusters_from_ranges([0.0, 1.0, 2.0], [3, 2, 1], [3, 2, 1])
    assert_array_equal(clusters, [3, 2, 1])
    assert_array_equal(value_order([0.0, 1.0, 2.0]), [2, 1, 0])


def test_overlapping_chain_is_one_cluster():
    clusters = clusters_from_ranges([3.0, 2.0, 1.0], [1, 1, 2], [2, 3, 3])
    assert_array_equal(clusters, [1, 1, 1])


def test_a_later_system_with_a_better_rank_blocks_a_boundary():
    # system 1's range (2-2) ends before system 2 starts (3), but system 3 (below)
    # reaches rank 2: no boundary after 1
    clusters = clusters_from_ranges([4.0, 3.0, 2.0, 1.0], [1, 2, 3, 2], [1, 2, 4, 4])
    assert_array_equal(clusters, [1, 2, 2, 2])


run_values = st.integers(2, 8).flatmap(
    lambda n: st.integers(3, 60).flatmap(
        lambda r: arrays(np.float64, (r, n), elements=st.floats(-3, 3, allow_nan=False, width=32))
    )
)


@settings(max_examples=150, deadline=None)
@given(values=run_values, confidence=st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99]))
def test_clusters_partition_the_value_order(values, confidence):
    result = summarise_runs(
        method="test",
        run_values=values,
        confidence=confidence,
        comparisons=np.zeros(values.shape[1]),
        n_comparisons=0,
        params={},
    )
    ordered = result.cluster[result.order]
    steps = np.diff(ordered)
    assert ordered[0] == 1
    assert np.all((steps == 0) | (steps == 1))  # non-decreasing and contiguous
    assert result.cluster.max() == len(set(result.cluster.tolist()))


@settings(max_examples=150, deadline=None)
@given(values=run_values, confidence=st.sampled_from([0.5, 0.9, 0.95]))
def test_ranges_contain_the_median_rank(values, confidence):
    ranks = ranks_per_run(values)
    lo, hi = rank_ranges(ranks, confidence)
    median_low = np.sort(ranks, axis=0)[(ranks.shape[0] - 1) // 2]
    median_high = np.sort(ranks, axis=0)[ranks.shape[0] // 2]
    assert np.all(lo <= median_low) and np.all(median_high <= hi)
    assert np.all((lo >= 1) & (lo <= hi) & (hi <= values.shape[1]))


@settings(max_examples=100, deadline=None)
@given(lo_hi=st.lists(st.tuples(st.integers(1, 10), st.integers(0, 4)), min_size=1, max_size=10))
def test_boundary_rule_by_definition(lo_hi):
    lo = np.array([a for a, _ in lo_hi])
    hi = lo + np.array([b for _, b in lo_hi])
    values = -np.arange(len(lo), dtype=float)  # already in value order
    clusters = clusters_from_ranges(values, lo, hi)
    for k in range(len(lo) - 1):
        boundary = all(hi[k] < lo[j] for j in range(k + 1, len(lo)))
        assert (clusters[k + 1] == clusters[k] + 1) == boundary
