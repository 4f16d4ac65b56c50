"""Reproduce Table 11 of the E2E NLG Challenge report from the released raw ratings.

The data (../shared/e2e, or $HUMANEVAL_E2E_DIR) is read with the csv module here, not by
the platform's importers: this checks the statistics alone. The known exception is
quality for tuda and slug: the released ratings give tuda about +0.31 and slug about
+0.27 (an independent reimplementation found the same), while the report prints slug
0.300 and tuda 0.228; see docs/reproducing-e2e.md.
"""

from __future__ import annotations

import csv
import json
import os
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from ranking.stats import RankingResult
from ranking.stats._pairwise import Comparisons, judgements_to_comparisons, pair_index
from ranking.stats._wmt14 import wmt14

REPO = Path(__file__).resolve().parents[3]
E2E = Path(os.environ.get("HUMANEVAL_E2E_DIR", REPO.parent / "shared" / "e2e"))
SCORE = {"quality": "quality", "naturalness": "natur"}

pytestmark = [
    pytest.mark.e2e_data,
    pytest.mark.skipif(
        not (E2E / "quality.csv").is_file() or not (E2E / "table11.json").is_file(),
        reason=f"E2E data not found in {E2E} (set HUMANEVAL_E2E_DIR or place the released "
        "data in ../shared/e2e)",
    ),
]


@cache
def load(criterion: str) -> tuple[list[str], Comparisons, int]:
    """Labels (sorted), comparisons and number of rows of one criterion."""
    with open(E2E / f"{criterion}.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    labels = sorted({row[f"sys{k}"] for row in rows for k in range(1, 6)})
    index = {label: i for i, label in enumerate(labels)}
    judgement = np.repeat(np.arange(len(rows)), 5)
    system = [index[row[f"sys{k}"]] for row in rows for k in range(1, 6)]
    score = [float(row[f"{SCORE[criterion]}{k}"]) for row in rows for k in range(1, 6)]
    comparisons = judgements_to_comparisons(judgement, system, score, n_systems=len(labels))
    return labels, comparisons, len(rows)


@cache
def published() -> dict[str, dict[str, dict[str, float]]]:
    with open(E2E / "table11.json", encoding="utf-8") as fh:
        table = json.load(fh)
    return {c: {row["system"]: row for row in table[c]} for c in SCORE}


@cache
def ours(criterion: str) -> RankingResult:
    _, comparisons, _ = load(criterion)
    return wmt14(comparisons, rng=np.random.default_rng(1), runs=200)


def deltas(criterion: str) -> dict[str, tuple[float, int, int]]:
    labels, _, _ = load(criterion)
    result = ours(criterion)
    out = {}
    for i, label in enumerate(labels):
        row = published()[criterion][label]
        out[label] = (
            float(result.value[i]) - row["trueskill"],
            int(result.rank_lo[i]) - int(row["rank_lo"]),
            int(result.rank_hi[i]) - int(row["rank_hi"]),
        )
    return out


@pytest.mark.parametrize(("criterion", "rows"), [("quality", 2979), ("naturalness", 4239)])
def test_the_csv_matches_the_table(criterion, rows):
    labels, comparisons, n_rows = load(criterion)
    assert n_rows == rows
    assert set(labels) == set(published()[criterion])
    assert len(labels) == 21
    assert len(comparisons) == 10 * rows  # five distinct systems per row
    # every pair of systems was compared, so WMT14's opponent choice never meets an
    # empty pair (the scripts would crash on one)
    counts = pair_index(comparisons).count
    assert counts[~np.eye(21, dtype=bool)].min() > 0


def test_naturalness_reproduces_table_11():
    for label, (value, lo, hi) in deltas("naturalness").items():
        assert abs(value) < 0.003, label
        assert abs(lo) <= 1 and abs(hi) <= 1, label


def test_quality_reproduces_table_11_except_tuda_and_slug():
    d = deltas("quality")
    labels, _, _ = load("quality")
    result = ours("quality")
    for label, (value, lo, hi) in d.items():
        if label == "tuda":
            continue
        assert abs(value) < 0.04, label
        if label != "slug":
            assert abs(value) < 0.03, label
            assert abs(lo) <= 1 and abs(hi) <= 1, label
    # the known exception, as an independent reimplementation also finds it
    assert result.value[labels.index("tuda")] == pytest.approx(0.31, abs=0.01)
    assert result.value[labels.index("slug")] == pytest.approx(0.27, abs=0.01)


@pytest.mark.parametrize("criterion", ["quality", "naturalness"])
def test_rank_ranges_are_consistent(criterion):
    result = ours(criterion)
    assert result.n_runs == 200
    assert np.all(result.rank_lo <= result.rank_hi)
    order = result.order
    assert np.all(np.diff(result.cluster[order]) >= 0)
