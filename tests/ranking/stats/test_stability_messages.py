"""What the stability note says (ranking/stats/_stability.py): the reason that decided, the
coverage kept, a runs suggestion stable across seeds, under the cap, in one number format."""

from __future__ import annotations

import numpy as np
import pytest

from ranking.stats._stability import cluster_stability
from tests.ranking.stability_data import _agreeing_but_fragile, _near_the_cut


def test_the_note_gives_the_reason_that_decided():
    check = _agreeing_but_fragile()
    assert not check.stable and check.reasons == ("fragile_boundaries",)
    assert check.note.startswith(
        "Reason: 1 boundary decision(s) rest on rank-range ends within 2 standard errors"
    )
    assert "give the same clusters" in check.note  # true, and not the reason


# 3. The coverage the rank ranges actually keep -------------------------------------------


def test_the_note_states_the_coverage_kept_not_only_the_level_asked():
    check = cluster_stability(_near_the_cut(100, 0.0, 0), rng=np.random.default_rng(0))
    assert check.coverage == pytest.approx(0.94) and check.half_coverage == pytest.approx(0.92)
    assert "The rank ranges keep 94 of 100 runs (94%; 95% asked)." in check.note
    assert "ranges keeping 46 of 50, 92%" in check.note


# 4. The runs suggestion: an estimate with its uncertainty -------------------------------


def test_the_suggestion_is_stable_across_seeds():
    """The same boundary (the second system beats the first in 4% of the runs, the cut
    at 2.75%): the old point estimate ran from 400 to 17,200 runs over ten seeds, and
    the interval that replaced it had no upper bound, so its number was only twice the
    runs. Every seed now gives the same answer: no estimate, no number."""
    answers = set()
    for seed in range(10):
        check = cluster_stability(_near_the_cut(200, 0.04, seed), rng=np.random.default_rng(0))
        if check.fragile.size:
            answers.add((check.runs_unknown, check.suggested_runs, check.runs_interval[1]))
    assert answers == {(True, None, None)}


def test_the_runs_interval_never_starts_at_or_below_the_runs_that_failed():
    """Review: thin data, seed 2, "fails at 200 runs ... settle at about 100 to 1,100
    runs". The fewest runs that may settle a fragile boundary is more than the runs
    that did not."""
    checked = 0
    for share in (0.005, 0.01, 0.015, 0.04):
        for seed in range(6):
            check = cluster_stability(_near_the_cut(200, share, seed), rng=np.random.default_rng(0))
            if check.fragile.size:
                checked += 1
                assert check.runs_interval[0] > 200, (share, seed, check.runs_interval)
                assert "about 100 to" not in check.note and "about 200 to" not in check.note
    assert checked >= 10
    bounded = cluster_stability(_near_the_cut(200, 0.005, 0), rng=np.random.default_rng(0))
    assert bounded.runs_interval == (300, 1100)
    assert "They would settle at about 300 to 1,100 runs. Suggested: 400 runs." in bounded.note


def test_the_suggestion_never_exceeds_the_cap():
    result = _near_the_cut(200, 0.005, 0)
    check = cluster_stability(result, rng=np.random.default_rng(0), max_runs=300)
    assert check.fragile.size and check.suggested_runs is not None
    assert check.suggested_runs <= 300
    refused = cluster_stability(result, rng=np.random.default_rng(0), max_runs=150)
    assert refused.suggested_runs is None
    assert "would take more runs than the 150 this server accepts" in refused.note


def test_the_note_writes_every_count_in_one_format():
    """Review: one page read "1,900 of 2,000" beside "1900 of 2000". The note writes
    counts with thousands separators throughout."""
    check = cluster_stability(_near_the_cut(2000, 0.03, 0), rng=np.random.default_rng(0))
    assert "The rank ranges keep 1,900 of 2,000 runs" in check.note
    assert "(1,000 runs each, ranges keeping 950 of 1,000" in check.note
    assert "1900" not in check.note and "2000" not in check.note
