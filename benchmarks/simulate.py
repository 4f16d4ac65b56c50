"""Simulate: adaptive task design and power analysis on a simulator fitted to real ratings.

``ranking.stats.fit_simulator`` is fitted to the released E2E RankME ratings
(``../shared/e2e`` or ``$HUMANEVAL_E2E_DIR``, read with the csv module, never copied;
``--criterion``) or to a campaign's counted RankME judgements in the database
(``--campaign SLUG [--criterion-name NAME]``: :func:`ratings_from_campaign`, through
``annotations.selectors.judgements.scores_counted``). Three subcommands (all by
default):

Two calibrations follow the fit (``--no-calibrate`` skips them): the output sd is
scaled so that the workers' agreement (Krippendorff's alpha on within-judgement ranks)
is the real one (:func:`calibrate`), then the qualities so that the ranking of the real
tasks has the real mean rank-range width (:func:`calibrate_spread`); the fit understates
both.

``check``: is the simulator like the data? The real tasks (same items, systems and
workers) are answered by the simulator, and both data sets are compared: score
quantiles, the share of flat judgements (all outputs scored alike), the share of tied
pairs, Krippendorff's alpha (interval) on the within-judgement ranks of tasks judged by
several workers, the share of pairs two workers of one task order alike, and the
ranking (Bradley-Terry, normal approximation: see :func:`bt_normal`): rank
correlation with the real ranking, clusters, and the share of systems whose real rank
lies in the simulated rank range.

``designs``: how many judgements each design needs to reach the *true clusters*.
Truth: one test set is fixed (the output deviations of every item and system, drawn
once, as the E2E test set was fixed), and every pair's true win and draw shares on it
are measured by Monte Carlo (2 million judgements); the *true order* is the
Bradley-Terry order of those shares, and the *target clusters* are what the refit
gives, without sampling noise, from the expected comparisons of a balanced campaign of
the real campaign's size (``--reference``; 2,979 judgements for E2E quality): only the
boundaries that size resolves are there, and each lies between systems in true order.
``--planted N`` replaces the fitted qualities by ``N`` equally spaced ones
(``--planted-step``) judged by the fitted crowd: a truth nobody tuned for.
A refit's clusters are *right* when no boundary is wrong (no system in a better cluster
than one that beats it by more than ``LEVEL`` = 0.005 in win share: closer pairs are
practically level and may be split either way) and every target boundary separates the
truly best systems from the rest (a further correct boundary is allowed: it is finer,
not wrong). A design runs in batches of ``--batch`` tasks (refit after each batch) until
its clusters are right at three refits in a row, the production stop rule has held and
the largest budget is spent, or ``--cap`` judgements (5 times the reference);
*judgements needed* is the count at the first of those three right refits (the cap when
never). *Wrong refits* is the share of refits until then whose clusters draw a wrong
boundary, and *ever wrong* the share of seeds with one such refit.

Common random numbers: a seed's crowd is drawn once (``Simulator.draw_stream``: per
request ``j`` its item, worker, judgement level and flat draw, and per request and
system the noise) and every design answers its ``j``-th request from it, so an output
that two designs show at the same request gets the same score; the designs differ only
in what they ask. Items come in random permutations (each once before any twice) in
every design; the balanced design keeps ``design_tasks``' systems. The per-seed ratio
(a design over balanced) is therefore a paired comparison: *paired ratio* is the
geometric mean of the per-seed ratios with its 95% percentile bootstrap over seeds
(resampled jointly), *median ratio* the median per-seed ratio, *fewer* the share of
seeds where the design needed fewer judgements than balanced.

Three tables: (1) to the truth, as above; (2) at the *production stop*
(``ranking.services.adaptive``: a boundary drawn, the clusters equal at three refits in a
row and while each system was shown 160 more times on average; no knowledge of the
truth: :data:`PRODUCTION_STOP`): the judgements then (paired ratio as above) and the
share of seeds whose clusters are then right or draw a wrong boundary, with Wilson 95%
intervals; (3) at *fixed budgets* (``--budgets``, shares of the reference rounded down
to whole batches): the share of seeds whose clusters at the last refit within the
budget are right / wrong, with Wilson intervals. With ``--stop-rules``, a fourth:
every candidate stop rule (:class:`StopRule`, :data:`STOP_RULES`; all read the refits
only) at its first stop, the judgements as a paired ratio to the first rule named.

Held-out tuning: ``contested``'s ``margin`` and ``min_share`` (the coverage minimum,
``--margins``, ``--min-shares``) are chosen on ``--tune-seeds`` seeds from
``TUNE_SEEDS`` = 100,000 on (the fewest judgements needed, geometric mean), disjoint
from the evaluation seeds ``0 .. --seeds - 1``; ``lucb`` and ``overlap`` take the chosen
``min_share`` too (their other constants are not tuned here).

Designs:
``balanced`` (``annotations.core.design.design_tasks``), ``contested``
(``choose_batch``, today's rule), ``overlap`` (``choose_batch(rule="overlap")``:
pairwise uncertainty sampling), ``lucb`` (``choose_batch(rule="lucb")``: LUCB-style
confidence bounds per cluster boundary), ``oracle`` (not a design: told the true
strengths and the target, it gives each system the fixed share of slots that separates
the target with the fewest judgements under the normal approximation) and
``oracle-adaptive`` (not a design either: ``contested``'s allocation after every refit,
with the truth naming the boundary systems, :func:`oracle_demand`: those of a target
boundary the refit has not drawn and of a wrong boundary it has; no slot goes to a gap
that is not a target boundary; a best case for the contested rule, see the docs).
After the tables, *why* (:func:`boundary_report`): the target boundaries (the pair
beside each, its shares and strength gap, the systems near it), the best fixed
allocation under the normal approximation, and the share of the comparisons each
design's refit read, when it reached the truth, across and beside a target boundary.

``power``: the plan page's "judgements needed to separate systems"
(``comparisons_needed`` / ``judgements_for``) against the simulator: for 2, 5 and 20
systems of equally spaced latent qualities, the pair in the middle; predicted from the
pair's true win and draw shares, simulated as the balanced campaign size at which the
two systems fall into different clusters in 80% of the seeds (95% confidence).

Refits use the Bradley-Terry fit and its normal approximation (:func:`bt_normal`),
not TrueSkill with WMT14 sampling, for speed (a refit takes milliseconds); it treats
the 10 comparisons of a judgement as independent, as the power formula does.

    /work/venv/bin/python benchmarks/simulate.py [check|designs|power|all] [--quick]
        [--criterion naturalness] [--planted 10] [--seeds 150] [--tune-seeds 40]
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

REPO = Path(__file__).resolve().parents[1]
# First, even where PYTHONPATH already names it: a script's own folder (benchmarks/,
# which has a ranking.py) comes before PYTHONPATH and would hide the ranking package.
if sys.path[0] != str(REPO):
    sys.path.insert(0, str(REPO))

from annotations.core.design import design_tasks  # noqa: E402
from ranking.stats import (  # noqa: E402
    RankingResult,
    Simulator,
    bt_normal,
    choose_batch,
    comparisons_needed,
    fit_simulator,
    judgements_for,
    pair_shares,
    wilson_interval,
)
from ranking.stats._adaptive import (  # noqa: E402
    _allocate,
    _sigma_weight,
    contested_gaps,
)
from ranking.stats._clusters import value_order  # noqa: E402
from ranking.stats._simulate import AnswerStream  # noqa: E402

SCORE_COLUMN = {"quality": "quality", "naturalness": "natur"}
#: ``oracle-adaptive`` last: a design's random stream is keyed by its index here
DESIGNS = ("balanced", "contested", "overlap", "lucb", "oracle", "oracle-adaptive")
#: the first tuning seed: tuning seeds run from here, evaluation seeds from 0
TUNE_SEEDS = 100_000
IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]


# --- data ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Ratings:
    """One criterion's RankME judgements: item, worker, unit, systems and scores."""

    labels: list[str]
    item: IntArray
    worker: IntArray
    unit: IntArray
    systems: IntArray
    scores: FloatArray

    def __len__(self) -> int:
        return int(self.systems.shape[0])


def e2e_folder() -> Path:
    env = os.environ.get("HUMANEVAL_E2E_DIR")
    if env:
        return Path(env)
    for base in (REPO.parent, REPO.parent.parent):
        if (base / "shared" / "e2e").is_dir():
            return base / "shared" / "e2e"
    return REPO.parent / "shared" / "e2e"


def _index(values: list[str]) -> IntArray:
    keys = {v: i for i, v in enumerate(sorted(set(values)))}
    return np.array([keys[v] for v in values], dtype=np.int64)


def load_e2e(folder: Path, criterion: str) -> Ratings:
    column = SCORE_COLUMN[criterion]
    with open(folder / f"{criterion}.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    labels = sorted({row[f"sys{i}"] for row in rows for i in range(1, 6)})
    index = {label: i for i, label in enumerate(labels)}
    return Ratings(
        labels=labels,
        item=_index([row["mr_id"] for row in rows]),
        worker=_index([row["_worker_id"] for row in rows]),
        unit=_index([row["_unit_id"] for row in rows]),
        systems=np.array([[index[row[f"sys{i}"]] for i in range(1, 6)] for row in rows]),
        scores=np.array([[float(row[f"{column}{i}"]) for i in range(1, 6)] for row in rows]),
    )


def ratings_from_campaign(campaign: Any, criterion: Any) -> Ratings:
    """A campaign criterion's counted RankME judgements (``scores_counted``) as ratings.

    Needs Django set up. Items, workers and units are numbered by first appearance;
    systems by label. A magnitude criterion only: the simulator is fitted to RankME
    magnitudes.
    """
    from annotations.selectors.judgements import scores_counted

    if criterion.scale != "magnitude":
        raise ValueError("the simulator is fitted to magnitude (RankME) scores only")
    rows = list(
        scores_counted(criterion=criterion, exclude_excluded_workers=True)
        .order_by("judgement_id", "slot")
        .values_list(
            "judgement_id",
            "judgement__task__item_id",
            "judgement__worker_id",
            "judgement__task_id",
            "output__system__label",
            "score",
        )
    )
    if not rows:
        raise ValueError("the criterion has no counted judgements")
    labels = sorted({row[4] for row in rows})
    index = {label: i for i, label in enumerate(labels)}
    judgements = {jid: n for n, jid in enumerate(dict.fromkeys(row[0] for row in rows))}
    width = max(Counter(row[0] for row in rows).values())
    systems = np.full((len(judgements), width), -1, dtype=np.int64)
    scores = np.full((len(judgements), width), np.nan)
    item = np.zeros(len(judgements), dtype=np.int64)
    worker = np.zeros(len(judgements), dtype=np.int64)
    unit = np.zeros(len(judgements), dtype=np.int64)
    filled = np.zeros(len(judgements), dtype=np.int64)
    items: dict[int, int] = {}
    workers: dict[int, int] = {}
    units: dict[int, int] = {}
    for jid, item_id, worker_id, task_id, label, value in rows:
        j = judgements[jid]
        item[j] = items.setdefault(item_id, len(items))
        worker[j] = workers.setdefault(worker_id, len(workers))
        unit[j] = units.setdefault(task_id, len(units))
        systems[j, filled[j]] = index[label]
        scores[j, filled[j]] = value
        filled[j] += 1
    return Ratings(labels, item, worker, unit, systems, scores)


def load_campaign(slug: str, criterion_name: str | None) -> Ratings:
    """Set Django up and read a campaign's criterion (the first one by default)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "humaneval.settings")
    import django

    django.setup()
    from annotations.models import Campaign

    campaign = Campaign.objects.get(slug=slug)
    criteria = campaign.criteria.order_by("pk")
    criterion = criteria.get(name=criterion_name) if criterion_name else criteria.first()
    return ratings_from_campaign(campaign, criterion)


# --- refits --------------------------------------------------------------------------


def add_counts(wins: FloatArray, draws: FloatArray, tasks: IntArray, scores: FloatArray) -> None:
    """Add the tasks' pairwise comparisons to ``wins`` and ``draws`` in place."""
    k = tasks.shape[1]
    for a in range(k):
        for b in range(a + 1, k):
            sa, sb, xa, xb = tasks[:, a], tasks[:, b], scores[:, a], scores[:, b]
            np.add.at(wins, (sa[xa > xb], sb[xa > xb]), 1.0)
            np.add.at(wins, (sb[xb > xa], sa[xb > xa]), 1.0)
            tie = xa == xb
            np.add.at(draws, (sa[tie], sb[tie]), 1.0)
            np.add.at(draws, (sb[tie], sa[tie]), 1.0)


def balanced_tasks(n_tasks: int, n: int, k: int, rng: np.random.Generator) -> IntArray:
    """``n_tasks`` tasks of ``k`` distinct systems, every system within one of the others.

    Systems are dealt from a stream of random permutations; a system already in the task
    waits for the next one (a cheap equivalent of ``design_tasks`` for large sizes).
    """
    tasks = np.empty((n_tasks, k), dtype=np.int64)
    stream: list[int] = []
    for t in range(n_tasks):
        members: list[int] = []
        waiting: list[int] = []
        while len(members) < k:
            if not stream:
                stream = rng.permutation(n).tolist()
            s = stream.pop(0)
            (waiting if s in members else members).append(s)
        stream = waiting + stream
        tasks[t] = members
    return tasks


def expected_result(
    share: FloatArray, tie: FloatArray, judgements: float, k: int, normals: FloatArray
) -> RankingResult:
    """The refit of a balanced campaign of ``judgements`` without sampling noise."""
    n = share.shape[0]
    per_pair = judgements * k * (k - 1) / (n * (n - 1))
    draws = per_pair * tie
    wins = per_pair * (share - tie / 2)
    np.fill_diagonal(wins, 0.0)
    return bt_normal(wins, draws, normals)


# --- check: simulated data against the real data --------------------------------------


def within_ranks(scores: FloatArray) -> FloatArray:
    """Each judgement's scores as ranks (1 = best, ties share the mean rank)."""
    out = np.empty_like(scores)
    for r, row in enumerate(scores):
        above = (row[None, :] > row[:, None]).sum(axis=1)
        equal = (row[None, :] == row[:, None]).sum(axis=1)
        out[r] = above + (equal + 1) / 2
    return out


def krippendorff_interval(unit: IntArray, systems: IntArray, values: FloatArray) -> float:
    """Krippendorff's alpha (interval) of the values per (unit, system), coders = rows."""
    key = (unit[:, None] * (systems.max() + 1) + systems).ravel()
    v = values.ravel()
    _, inv = np.unique(key, return_inverse=True)
    m = np.bincount(inv).astype(np.float64)
    ok = m[inv] >= 2
    inv, v = inv[ok], v[ok]
    m_all = np.bincount(inv).astype(np.float64)
    s1 = np.bincount(inv, weights=v)
    s2 = np.bincount(inv, weights=v * v)
    keep = m_all >= 2
    # within-unit sum of squared pair differences: m * s2 - s1^2 per unit (pairs both ways)
    d_o = ((m_all * s2 - s1**2)[keep] / (m_all[keep] - 1)).sum()
    n = m_all[keep].sum()
    d_e = (n * (v * v).sum() - v.sum() ** 2) / (n - 1)
    return float(1.0 - d_o / d_e) if d_e > 0 else float("nan")


def pair_agreement(unit: IntArray, systems: IntArray, scores: FloatArray) -> float:
    """Share of (task, pair) cases where two workers of one task give the same outcome."""
    agree = total = 0.0
    by_unit: dict[int, list[int]] = {}
    for r, u in enumerate(unit.tolist()):
        by_unit.setdefault(u, []).append(r)
    for rows in by_unit.values():
        if len(rows) < 2:
            continue
        outcomes = []
        for r in rows:
            order = np.argsort(systems[r])
            x = scores[r][order]
            outcomes.append(np.sign(x[:, None] - x[None, :])[np.triu_indices(x.shape[0], 1)])
        for a in range(len(outcomes)):
            for b in range(a + 1, len(outcomes)):
                agree += float(np.sum(outcomes[a] == outcomes[b]))
                total += outcomes[a].shape[0]
    return agree / total if total else float("nan")


def describe(data: Ratings, scores: FloatArray) -> dict[str, float]:
    flat = scores.max(axis=1) == scores.min(axis=1)
    i, j = np.triu_indices(scores.shape[1], 1)
    ties = float(np.mean(scores[:, i] == scores[:, j]))
    q = np.percentile(scores, [5, 10, 25, 50, 75, 95])
    return {
        **{f"q{p}": float(v) for p, v in zip((5, 10, 25, 50, 75, 95), q, strict=True)},
        "share = 100": float(np.mean(scores == 100)),
        "flat judgements": float(flat.mean()),
        "tied pairs": ties,
        "alpha (ranks)": krippendorff_interval(data.unit, data.systems, within_ranks(scores)),
        "pair agreement": pair_agreement(data.unit, data.systems, scores),
    }


def ranking_of(systems: IntArray, scores: FloatArray, n: int, normals: FloatArray) -> RankingResult:
    wins, draws = np.zeros((n, n)), np.zeros((n, n))
    add_counts(wins, draws, systems, scores)
    return bt_normal(wins, draws, normals)


def spearman(a: FloatArray, b: FloatArray) -> float:
    ra, rb = np.argsort(np.argsort(a)), np.argsort(np.argsort(b))
    return float(np.corrcoef(ra, rb)[0, 1])


def calibrate(
    data: Ratings, sim: Simulator, *, factors: Sequence[float]
) -> tuple[Simulator, list[str]]:
    """The output sd (times ``factors``) whose simulated rank alpha is nearest the real one.

    The fit reads the output sd from uncensored residuals only, which understates it
    (see ``_simulate``); this matches the agreement between workers instead.
    """
    target = krippendorff_interval(data.unit, data.systems, within_ranks(data.scores))
    best, lines = (math.inf, sim), []
    for f in factors:
        candidate = sim.with_interaction(sim.interaction * f)
        rng = np.random.default_rng([0, 5])
        x = candidate.answer(
            data.systems,
            rng=rng,
            items=data.item,
            workers=data.worker,
            outputs=candidate.draw_outputs(rng),
        )
        alpha = krippendorff_interval(data.unit, data.systems, within_ranks(x))
        lines.append(
            f"  output sd x{f:.2f} = {candidate.interaction:.3f}: alpha {alpha:.3f} (real {target:.3f})"
        )
        if abs(alpha - target) < best[0]:
            best = (abs(alpha - target), candidate)
    return best[1], lines


def mean_width(data: Ratings, scores: FloatArray, normals: FloatArray) -> float:
    """Mean rank-range width of the ranking of ``scores`` on the real tasks."""
    res = ranking_of(data.systems, scores, len(data.labels), normals)
    return float(np.mean(res.rank_hi - res.rank_lo))


def calibrate_spread(
    data: Ratings, sim: Simulator, *, rounds: int = 7
) -> tuple[Simulator, list[str]]:
    """Scale the qualities so that the simulated ranking separates as the real one does.

    The target is the mean width of the rank ranges (the refit of the real tasks), which
    measures how far apart the systems are for their noise; the simulated width is the
    median over 3 answer draws, the scale found by bisection in log scale (0.25-4). The
    fit shrinks the qualities when much of the data is censored or flat.
    """
    n = len(data.labels)
    normals = np.random.default_rng(1).standard_normal((1000, n))
    real = mean_width(data, data.scores, normals)
    low, high = math.log(0.25), math.log(4.0)
    lines = []
    for _ in range(rounds):
        middle = (low + high) / 2
        candidate = sim.with_quality(sim.quality * math.exp(middle))
        widths = []
        for seed in range(3):
            rng = np.random.default_rng([seed, 6])
            x = candidate.answer(
                data.systems,
                rng=rng,
                items=data.item,
                workers=data.worker,
                outputs=candidate.draw_outputs(rng),
            )
            widths.append(mean_width(data, x, normals))
        width = float(np.median(widths))
        lines.append(
            f"  qualities x{math.exp(middle):.2f}: rank-range width {width:.2f} (real {real:.2f})"
        )
        if width > real:
            low = middle  # too little separation: spread the qualities more
        else:
            high = middle
    return sim.with_quality(sim.quality * math.exp((low + high) / 2)), lines


def check(data: Ratings, sim: Simulator, *, seeds: int) -> list[str]:
    n = len(data.labels)
    normals = np.random.default_rng(1).standard_normal((2000, n))
    real = describe(data, data.scores)
    real_rank = ranking_of(data.systems, data.scores, n, normals)
    stats: dict[str, list[float]] = {key: [] for key in real}
    extra: dict[str, list[float]] = {"clusters": [], "spearman": [], "real rank in range": []}
    real_pos = np.empty(n, dtype=np.int64)
    real_pos[real_rank.order] = np.arange(1, n + 1)
    for seed in range(seeds):
        rng = np.random.default_rng([seed, 7])
        outputs = sim.draw_outputs(rng)
        # the real tasks: one output draw per item and system, shared by a unit's workers
        simulated = sim.answer(
            data.systems, rng=rng, items=data.item, workers=data.worker, outputs=outputs
        )
        for key, value in describe(data, simulated).items():
            stats[key].append(value)
        res = ranking_of(data.systems, simulated, n, normals)
        extra["clusters"].append(res.n_clusters)
        extra["spearman"].append(spearman(res.value, real_rank.value))
        extra["real rank in range"].append(
            float(np.mean((res.rank_lo <= real_pos) & (real_pos <= res.rank_hi)))
        )
    lines = [f"{'statistic':<20} {'real':>9} {'simulated (median [min-max])':>32}"]
    for key, value in real.items():
        v = np.array(stats[key])
        lines.append(
            f"{key:<20} {value:9.3f} {np.median(v):12.3f} [{v.min():8.3f} - {v.max():8.3f}]"
        )
    lines.append(
        f"{'clusters':<20} {real_rank.n_clusters:9d} {np.median(extra['clusters']):12.1f}"
        f" [{min(extra['clusters']):8d} - {max(extra['clusters']):8d}]"
    )
    for key in ("spearman", "real rank in range"):
        v = np.array(extra[key])
        lines.append(f"{key:<20} {'':>9} {np.median(v):12.3f} [{v.min():8.3f} - {v.max():8.3f}]")
    return lines


# --- designs ----------------------------------------------------------------------------


def boundaries(cluster: IntArray, order: IntArray) -> set[int]:
    """Positions ``p`` (in ``order``) after which a new cluster starts."""
    c = cluster[order]
    return {int(p) for p in np.flatnonzero(c[:-1] != c[1:])}


#: a pair whose true win share differs from 1/2 by less than this is practically
#: level: a boundary between them, in either order, is not counted wrong (the Monte
#: Carlo shares have a standard error of about 0.0012)
LEVEL = 0.005


@dataclass(frozen=True, eq=False)
class Truth:
    """The simulated test set, its true order and target clusters (see the module)."""

    outputs: FloatArray
    share: FloatArray
    tie: FloatArray
    order: IntArray
    target: set[int]
    expected: RankingResult


def make_truth(sim: Simulator, *, reference: int, k: int = 5, judgements: int = 2_000_000) -> Truth:
    """Fix a test set, measure every pair's true shares on it, derive order and target."""
    outputs = sim.draw_outputs(np.random.default_rng(2024))
    share, tie = pair_shares(
        sim, rng=np.random.default_rng(99), judgements=judgements, k=k, outputs=outputs
    )
    normals = np.random.default_rng(5).standard_normal((4000, sim.n_systems))
    expected = expected_result(share, tie, reference, k, normals)
    order = value_order(expected.value)
    truth = Truth(outputs, share, tie, order, boundaries(expected.cluster, order), expected)
    assert right_and_wrong(expected.cluster, truth) == (True, False)
    return truth


def right_and_wrong(cluster: IntArray, truth: Truth) -> tuple[bool, bool]:
    """(right, wrong) of a clustering (numbered from 1, best): see the module.

    Wrong: a system in a better cluster than one that beats it by more than
    :data:`LEVEL`. Right: not wrong, and every target boundary ``p`` separates the
    ``p + 1`` truly best systems from the rest.
    """
    better = cluster[:, None] < cluster[None, :]
    wrong = bool(np.any(better & (truth.share.T >= 0.5 + LEVEL)))
    c = cluster[truth.order]
    found = all(c[: p + 1].max() < c[p + 1 :].min() for p in truth.target)
    return (not wrong) and found, wrong


@dataclass(frozen=True)
class Refit:
    """What a truth-free stop rule may read of one refit: the judgements it read, its
    clusters and rank ranges (as tuples, per system) and every gap's overlap in value
    order (``contested_gaps``; zero or less: a boundary)."""

    judgements: int
    cluster: tuple[int, ...]
    ranges: tuple[tuple[int, int], ...]
    overlap: tuple[int, ...]


@dataclass(frozen=True)
class StopRule:
    """A stop rule that knows no truth, on the history of refits (the latest last).

    It holds at a refit when that refit draws a boundary and its clusters (with
    ``ranges``, its rank ranges too) equal those of the ``streak - 1`` refits before it
    and, with ``growth``, of every refit since the latest one that read at most
    ``judgements / (1 + growth)`` (there must be one: the clusters stayed while the
    judgements grew by that share, whatever the batch size); with ``open_margin``, no
    gap's overlap lies in ``(0, open_margin]`` (no nearly drawn boundary is open); with
    ``shows``, of every refit back to one that read ``ceil(shows * n_systems / k)``
    fewer judgements (the clusters held while each system was shown ``shows`` more
    times on average: production's :func:`ranking.services.adaptive.stable_span`).
    Production's rule (``ranking.services.adaptive``) is :data:`PRODUCTION_STOP`; the
    rule before it is ``STOP_RULES["3 in a row"]``.
    """

    name: str
    streak: int = 3
    growth: float = 0.0
    ranges: bool = False
    open_margin: int = 0
    shows: float = 0.0

    def holds(self, history: Sequence[Refit], *, k: int = 5) -> bool:
        if len(history) < self.streak or len(set(history[-1].cluster)) < 2:
            return False
        last = history[-1]
        first = len(history) - self.streak
        limits = []
        if self.growth:
            limits.append(last.judgements / (1.0 + self.growth))
        if self.shows:
            span = math.ceil(self.shows * len(last.cluster) / k)
            limits.append(last.judgements - span)
        for limit in limits:
            back = [i for i, r in enumerate(history) if r.judgements <= limit]
            if not back:
                return False
            first = min(first, back[-1])
        for old in history[first:-1]:
            if old.cluster != last.cluster or (self.ranges and old.ranges != last.ranges):
                return False
        return not any(0 < o <= self.open_margin for o in last.overlap)


#: production's rule (``ranking.services.adaptive``: ``STABLE_REFITS`` = 3,
#: ``STABLE_SHOWS`` = 160): a boundary drawn, the clusters equal at three refits in a
#: row and at every refit while each system was shown 160 more times on average
PRODUCTION_STOP = StopRule("production", shows=160)
#: the candidates ``--stop-rules`` names (production's first); "3 in a row" was
#: production's rule until the simulator showed it stopping too early
STOP_RULES = {
    rule.name: rule
    for rule in (
        PRODUCTION_STOP,
        StopRule("3 in a row"),
        StopRule("4 in a row", streak=4),
        StopRule("5 in a row", streak=5),
        StopRule("6 in a row", streak=6),
        StopRule("8 in a row", streak=8),
        StopRule("3 + no gap <=1", open_margin=1),
        StopRule("5 + no gap <=1", streak=5, open_margin=1),
        StopRule("grew 50%", growth=0.5),
        StopRule("ranges 3", ranges=True),
        StopRule("3 + no gap <=2", open_margin=2),
    )
}


@dataclass
class Run:
    """One design's run on one seed: its refits, when it reached the truth, when it
    stopped by the production rule."""

    design: str
    #: every refit: judgements so far, clusters right, a wrong boundary drawn
    judgements: list[int] = field(default_factory=list)
    right: list[bool] = field(default_factory=list)
    wrong: list[bool] = field(default_factory=list)
    needed: int | None = None
    #: the production stop rule (:data:`PRODUCTION_STOP`, as
    #: ``ranking.services.adaptive`` has it): the judgements then, and whether those clusters were
    #: right / drew a wrong boundary (None: never stable before the cap)
    stopped: int | None = None
    stopped_right: bool | None = None
    stopped_wrong: bool | None = None
    #: the refits until the truth was reached (right at ``streak`` in a row)
    reached_refits: int | None = None
    #: per stop rule of ``run_design(stop_rules=...)`` (by name): (judgements, right,
    #: wrong) at its first stop; a rule that never held before the cap is absent
    stops: dict[str, tuple[int, bool, bool]] = field(default_factory=dict)
    #: with ``run_design(record=True)``: every batch's tasks and their scores
    asked: list[IntArray] = field(default_factory=list)
    answers: list[FloatArray] = field(default_factory=list)
    #: comparisons per pair (symmetric) read by the refit at ``needed`` (the first of
    #: the right refits in a row; while not reached, at the last right refit's start)
    compared: FloatArray | None = None

    def until_reached(self) -> list[bool]:
        """``wrong`` of the refits until the truth was reached (all when never)."""
        return self.wrong if self.reached_refits is None else self.wrong[: self.reached_refits]

    def at(self, budget: int) -> tuple[bool, bool]:
        """(right, wrong) of the last refit at ``budget`` judgements or fewer (none yet:
        neither)."""
        last = None
        for i, j in enumerate(self.judgements):
            if j > budget:
                break
            last = i
        if last is None:
            return False, False
        return self.right[last], self.wrong[last]


def oracle_shares(truth: Truth) -> FloatArray:
    """The oracle's share of slots per system: the cheapest allocation for the target.

    With the true strengths ``theta`` and comparisons about equally informative (every
    pair's win share is near 1/2 here), a system's strength has variance about
    ``c / n_i`` for ``n_i`` slots; the target boundary between ``i`` and ``j`` needs
    ``(theta_i - theta_j)^2 >= K (1 / n_i + 1 / n_j)`` for every pair across it. The
    allocation minimising ``sum n_i`` under these constraints (convex in ``1 / n_i``;
    scipy's SLSQP) is returned as shares, floored at 5% of the balanced share so that
    no system goes unseen.
    """
    counts = oracle_counts(truth)
    n = truth.order.shape[0]
    if counts is None:
        return np.full(n, 1.0 / n)
    shares = counts / counts.sum()
    shares = np.maximum(shares, 0.05 / n)
    return shares / shares.sum()


def boundary_pairs(truth: Truth) -> tuple[IntArray, IntArray]:
    """Every pair ``(i, j)`` across a target boundary, ``i`` above it (by index)."""
    order, n = truth.order, truth.order.shape[0]
    pairs = sorted(
        {
            (int(order[a]), int(order[b]))
            for p in truth.target
            for a in range(p + 1)
            for b in range(p + 1, n)
        }
    )
    first = np.array([i for i, _ in pairs], dtype=np.int64)
    second = np.array([j for _, j in pairs], dtype=np.int64)
    return first, second


def oracle_counts(truth: Truth) -> FloatArray | None:
    """The slots per system that separate every target boundary with the fewest in
    all, in units where the balanced design needs ``2 / min d^2`` per system
    (:func:`oracle_shares`' model, without its floor and without the cap of one slot
    per task); None without a target boundary."""
    from scipy.optimize import minimize

    theta = truth.expected.value
    n = theta.shape[0]
    first, second = boundary_pairs(truth)
    if first.size == 0:
        return None
    d2 = (theta[first] - theta[second]) ** 2
    eye = np.eye(n)

    def slack(y: FloatArray) -> FloatArray:
        return d2 - np.exp(y[first]) - np.exp(y[second])

    def slack_jac(y: FloatArray) -> FloatArray:
        return -(eye[first] * np.exp(y[first])[:, None] + eye[second] * np.exp(y[second])[:, None])

    start = np.full(n, math.log(d2.min() / 2.5))
    found = minimize(
        lambda y: float(np.exp(-y).sum()),
        start,
        jac=lambda y: -np.exp(-y),
        constraints=[{"type": "ineq", "fun": slack, "jac": slack_jac}],
        method="SLSQP",
        options={"maxiter": 500},
    )
    return np.asarray(np.exp(-found.x), dtype=np.float64)


def boundary_report(truth: Truth, runs: dict[str, list[Run]], *, k: int = 5) -> list[str]:
    """Why a truth leaves an adaptive rule little to save: its target boundaries (the
    pair beside each: true win and draw shares, strength gap ``d``, systems within
    ``2 d`` of the boundary), the best fixed allocation under the normal approximation
    (:func:`oracle_counts`: its total over balanced's, the systems it gives more than
    the balanced share, its largest share against the ``1 / k`` a task allows), and per
    design the comparisons its refit read when it reached the truth (medians over the
    seeds that reached it): the share across a target boundary, the share on the pairs
    beside one, and those pairs' comparisons per judgement."""
    theta = truth.expected.value
    order, n = truth.order, truth.order.shape[0]
    lines = [f"target boundaries after positions {sorted(truth.target)} (value order)"]
    adjacent = []
    for p in sorted(truth.target):
        a, b = int(order[p]), int(order[p + 1])
        adjacent.append((a, b))
        d = float(theta[a] - theta[b])
        middle = (theta[a] + theta[b]) / 2
        near = int(np.sum(np.abs(theta - middle) <= 2 * d))
        lines.append(
            f"  after {p + 1}: win {truth.share[a, b]:.3f}, draw {truth.tie[a, b]:.3f}, "
            f"d {d:.3f}, systems within 2d {near}"
        )
    counts = oracle_counts(truth)
    if counts is not None:
        first, second = boundary_pairs(truth)
        d2 = (theta[first] - theta[second]) ** 2
        shares = counts / counts.sum()
        lines.append(
            f"best fixed allocation (model): {counts.sum() / (n * 2 / d2.min()):.2f} of "
            f"balanced; {int(np.sum(shares > 1 / n))} systems above the balanced share; "
            f"largest share {shares.max():.3f} (one per task: at most {1 / k:.3f})"
        )
    across = np.zeros((n, n), dtype=bool)
    first, second = boundary_pairs(truth)
    across[first, second] = across[second, first] = True
    beside = np.zeros((n, n), dtype=bool)
    for a, b in adjacent:
        beside[a, b] = beside[b, a] = True
    lines.append(
        f"{'design':<16} {'seeds':>5} {'across':>7} {'beside':>7} {'beside/judgement':>17}"
    )
    pairs_per = k * (k - 1) / 2
    for name, rs in runs.items():
        seen = [r.compared for r in rs if r.needed is not None and r.compared is not None]
        if not seen:
            continue
        total = [c.sum() for c in seen]
        share_across = [c[across].sum() / t for c, t in zip(seen, total, strict=True)]
        share_beside = [c[beside].sum() / t for c, t in zip(seen, total, strict=True)]
        # comparisons on the pairs beside a boundary per judgement (10 comparisons)
        per_judgement = [
            c[beside].sum() / 2 / (t / 2 / pairs_per) / max(len(adjacent), 1)
            for c, t in zip(seen, total, strict=True)
        ]
        lines.append(
            f"{name:<16} {len(seen):5d} {np.median(share_across):7.3f} "
            f"{np.median(share_beside):7.3f} {np.median(per_judgement):17.3f}"
        )
    return lines


def oracle_demand(state: RankingResult, truth: Truth) -> IntArray:
    """Per system, how many of the refit's errors it is part of, judged by the truth:
    a target boundary the refit has not drawn (the system is on one side of it and its
    rank range reaches a system of the other side's), and a wrong boundary (the system
    is in a better cluster than one that beats it by more than :data:`LEVEL`, or is
    that one)."""
    n = truth.order.shape[0]
    demand = np.zeros(n, dtype=np.int64)
    lo, hi, cluster = state.rank_lo, state.rank_hi, state.cluster
    for p in truth.target:
        above, below = truth.order[: p + 1], truth.order[p + 1 :]
        if cluster[above].max() < cluster[below].min():
            continue  # drawn
        demand[above[hi[above] >= lo[below].min()]] += 1
        demand[below[lo[below] <= hi[above].max()]] += 1
    wrong = (cluster[:, None] < cluster[None, :]) & (truth.share.T >= 0.5 + LEVEL)
    demand += wrong.sum(axis=1) + wrong.sum(axis=0)
    return demand


def oracle_adaptive_tasks(
    state: RankingResult,
    truth: Truth,
    n_tasks: int,
    *,
    k: int,
    min_share: float,
    rng: np.random.Generator,
) -> IntArray:
    """The ``oracle-adaptive`` design's next batch: ``choose_batch``'s contested
    allocation (coverage minimum, boundary slots by priority, the rest by sigma, dealt
    into tasks of ``k`` distinct systems) with the truth choosing the boundary systems
    (:func:`oracle_demand`: the systems of the refit's missing target boundaries and
    wrong ones) where the rule guesses them from contested gaps. No slot goes to a gap
    that is not a target boundary; when the refit is right, slots go by sigma."""
    demand = oracle_demand(state, truth)
    batch = _allocate(
        priority=demand * _sigma_weight(state.spread),
        sigmas=state.spread,
        n_tasks=n_tasks,
        k=k,
        min_share=min_share,
        rng=rng,
        gaps=np.empty(0, dtype=np.int64),
        overlap=np.empty(0, dtype=np.int64),
    )
    return batch.tasks


def oracle_tasks(shares: FloatArray, size: int, *, k: int, rng: np.random.Generator) -> IntArray:
    """``size`` tasks whose slots follow ``shares`` (at most one per task each)."""
    n = shares.shape[0]
    ideal = np.minimum(shares * size * k, size)
    quota = np.floor(ideal).astype(np.int64)
    rest = size * k - int(quota.sum())
    remainder = np.where(quota < size, ideal - quota + 1e-9 * rng.random(n), -np.inf)
    quota[np.argsort(-remainder)[:rest]] += 1
    tasks = np.empty((size, k), dtype=np.int64)
    for t in range(size):
        picked = np.lexsort((np.asarray(rng.random(n)), -quota))[:k]
        quota[picked] -= 1
        tasks[t] = picked[rng.permutation(k)]
    return tasks


def run_design(
    sim: Simulator,
    design: str,
    *,
    truth: Truth,
    seed: int,
    batch: int,
    cap: int,
    k: int = 5,
    streak: int = 3,
    stream: AnswerStream | None = None,
    until: int = 0,
    margin: int = 3,
    min_share: float = 0.3,
    shares: FloatArray | None = None,
    record: bool = False,
    stop_rules: Sequence[StopRule] = (),
) -> Run:
    """Run ``design`` on one seed until it has reached the truth, stopped by the
    production rule and collected ``until`` judgements (or the cap).

    ``stream``: the seed's crowd (:meth:`Simulator.draw_stream`, at least ``cap``
    requests; default drawn from the seed): every design answers its ``j``-th request
    from it, so the same request gets the same answer in every design (common random
    numbers); the refit draws are the seed's too. ``margin``: the adaptive rules';
    ``min_share``: ``contested``'s coverage minimum (the other rules keep 0.3);
    ``shares``: the oracle's (default computed); ``record``: keep every batch's tasks
    and scores in the run; ``stop_rules``: further truth-free stop rules, each recorded
    in ``Run.stops`` (the run goes on until every one has held, or the cap).
    """
    n = sim.n_systems
    outputs = truth.outputs
    if stream is None:
        stream = seed_stream(sim, seed, cap)
    if design == "oracle" and shares is None:
        shares = oracle_shares(truth)
    design_rng = np.random.default_rng([seed, 13, DESIGNS.index(design)])
    normals = np.random.default_rng([seed, 17]).standard_normal((1000, n))
    wins, draws = np.zeros((n, n)), np.zeros((n, n))
    run = Run(design)
    planned = None
    if design == "balanced":
        n_items = -(-cap // -(-n // k)) + 1
        planned = design_tasks(np.ones((n_items, n), dtype=bool), k=k, rng=design_rng).tasks
    state = None
    done = 0
    good = 0
    history: list[Refit] = []
    while done < cap:
        size = min(batch, cap - done)
        if planned is not None:
            tasks = planned[done : done + size]
        elif design == "oracle":
            assert shares is not None
            tasks = oracle_tasks(shares, size, k=k, rng=design_rng)
        elif design == "oracle-adaptive" and state is not None:
            tasks = oracle_adaptive_tasks(
                state, truth, size, k=k, min_share=min_share, rng=design_rng
            )
        else:
            tasks = choose_batch(
                value=np.zeros(n) if state is None else state.value,
                sigma=np.ones(n) if state is None else state.spread,
                rank_lo=np.ones(n, dtype=np.int64) if state is None else state.rank_lo,
                rank_hi=np.full(n, n, dtype=np.int64) if state is None else state.rank_hi,
                n_tasks=size,
                k=k,
                rng=design_rng,
                rule="contested" if state is None else design,
                margin=margin,
                # the tuned coverage minimum is contested's (and the oracle's); the other
                # rules keep theirs
                min_share=min_share if design in ("contested", "oracle-adaptive") else 0.3,
            ).tasks
        scores = sim.answer_stream(tasks, stream, first=done, outputs=outputs)
        if record:
            run.asked.append(tasks)
            run.answers.append(scores)
        add_counts(wins, draws, tasks, scores)
        done += size
        if np.any((wins + wins.T + draws).sum(axis=1) == 0):
            continue
        state = bt_normal(wins, draws, normals)
        right, wrong = right_and_wrong(state.cluster, truth)
        _, overlap, _ = contested_gaps(state.value, state.rank_lo, state.rank_hi)
        history.append(
            Refit(
                done,
                tuple(int(c) for c in state.cluster),
                tuple(zip(state.rank_lo.tolist(), state.rank_hi.tolist(), strict=True)),
                tuple(overlap.tolist()),
            )
        )
        if run.stopped is None and PRODUCTION_STOP.holds(history, k=k):
            run.stopped, run.stopped_right, run.stopped_wrong = done, right, wrong
        for rule in stop_rules:
            if rule.name not in run.stops and rule.holds(history, k=k):
                run.stops[rule.name] = (done, right, wrong)
        run.judgements.append(done)
        run.right.append(right)
        run.wrong.append(wrong)
        if run.needed is None:
            good = good + 1 if right else 0
            if good == 1:
                run.compared = wins + wins.T + draws
            if good == streak:
                run.needed = run.judgements[-streak]
                run.reached_refits = len(run.judgements)
        stopped = run.stopped is not None and len(run.stops) == len(stop_rules)
        if run.needed is not None and stopped and done >= until:
            break
    return run


def seed_stream(sim: Simulator, seed: int, cap: int) -> AnswerStream:
    """The crowd's answers of one seed, shared by every design (common random numbers)."""
    return sim.draw_stream(np.random.default_rng([seed, 11]), cap)


def paired_ratio_ci(
    values: FloatArray, base: FloatArray, *, rng: np.random.Generator, draws: int = 10_000
) -> tuple[float, float, float]:
    """The geometric mean of the per-seed ratios ``values / base`` and its 95%
    percentile-bootstrap interval, seeds resampled jointly (the designs share a seed's
    answers: a paired comparison)."""
    logs = np.log(np.asarray(values, dtype=float)) - np.log(np.asarray(base, dtype=float))
    point = float(np.exp(logs.mean()))
    idx = rng.integers(0, logs.size, (draws, logs.size))
    boot = np.exp(logs[idx].mean(axis=1))
    low, high = np.percentile(boot, [2.5, 97.5])
    return point, float(low), float(high)


def budget_counts(
    runs: dict[str, list[Run]], budgets: Sequence[int]
) -> dict[str, list[tuple[int, int, int]]]:
    """Per design and budget: (seeds right, seeds wrong, seeds) at that budget
    (:meth:`Run.at`)."""
    out = {}
    for d, rs in runs.items():
        rows = []
        for b in budgets:
            at = [r.at(b) for r in rs]
            rows.append((sum(r for r, _ in at), sum(w for _, w in at), len(rs)))
        out[d] = rows
    return out


def budget_table(runs: dict[str, list[Run]], budgets: Sequence[int], reference: int) -> list[str]:
    """The fixed-budget table: share of seeds right / wrong with Wilson 95% intervals."""
    counts = budget_counts(runs, budgets)
    head = f"{'design':<10}" + "".join(
        f" {f'{b} ({b / reference:.0%}) right':>24} {'wrong':>18}" for b in budgets
    )
    lines = [head]
    for d, rows in counts.items():
        cells = []
        for right, wrong, total in rows:
            (rl,), (rh,) = wilson_interval([right], [total])
            (wl,), (wh,) = wilson_interval([wrong], [total])
            cells.append(
                f" {right / total:6.2f} [{rl:4.2f}-{rh:4.2f}]{'':>8}"
                f" {wrong / total:5.2f} [{wl:4.2f}-{wh:4.2f}]"
            )
        lines.append(f"{d:<10}" + "".join(cells))
    return lines


def tune(
    sim: Simulator,
    *,
    truth: Truth,
    seeds: Sequence[int],
    batch: int,
    cap: int,
    margins: Sequence[int],
    min_shares: Sequence[float],
) -> tuple[tuple[int, float], list[str]]:
    """The ``contested`` rule's ``margin`` and ``min_share`` with the fewest judgements
    needed (geometric mean over ``seeds``, the cap when never reached), and the lines
    of the grid. The tuning seeds must be disjoint from the evaluation seeds."""
    lines = [f"{'margin':>6} {'min_share':>9} {'gm needed':>9} {'reached':>8}"]
    best: tuple[float, tuple[int, float]] = (math.inf, (margins[0], min_shares[0]))
    streams = {seed: seed_stream(sim, seed, cap) for seed in seeds}
    for margin in margins:
        for min_share in min_shares:
            needed = []
            for seed in seeds:
                run = run_design(
                    sim,
                    "contested",
                    truth=truth,
                    seed=seed,
                    batch=batch,
                    cap=cap,
                    stream=streams[seed],
                    margin=margin,
                    min_share=min_share,
                )
                needed.append(run.needed if run.needed is not None else cap)
            gm = float(np.exp(np.mean(np.log(needed))))
            reached = np.mean([x < cap for x in needed])
            lines.append(f"{margin:6d} {min_share:9.2f} {gm:9.0f} {reached:8.2f}")
            if gm < best[0]:
                best = (gm, (margin, min_share))
    return best[1], lines


def designs(
    sim: Simulator,
    *,
    reference: int,
    seeds: Sequence[int],
    batch: int,
    cap: int,
    budgets: Sequence[int],
    margin: int = 3,
    min_share: float = 0.3,
    names: Sequence[str] = DESIGNS,
    truth: Truth | None = None,
    stop_rules: Sequence[StopRule] = (),
) -> tuple[dict[str, list[str]], dict[str, list[Run]], dict]:
    """Run every design on every seed (common random numbers) and tabulate: judgements
    to the truth, the production stop, and the fixed budgets."""
    n = sim.n_systems
    truth = truth or make_truth(sim, reference=reference)
    adjacent = [truth.share[truth.order[p], truth.order[p + 1]] for p in range(n - 1)]
    info = {
        "target": sorted(truth.target),
        "n_target_clusters": len(truth.target) + 1,
        "adjacent_shares": adjacent,
    }
    shares = oracle_shares(truth) if "oracle" in names else None
    runs: dict[str, list[Run]] = {d: [] for d in names}
    for seed in seeds:
        stream = seed_stream(sim, seed, cap)
        for d in names:
            runs[d].append(
                run_design(
                    sim,
                    d,
                    truth=truth,
                    seed=seed,
                    batch=batch,
                    cap=cap,
                    stream=stream,
                    until=max(budgets),
                    margin=margin,
                    min_share=min_share,
                    shares=shares,
                    stop_rules=stop_rules,
                )
            )
    tables = design_tables(runs, cap=cap, budgets=budgets, reference=reference)
    if stop_rules:
        tables["stop rules"] = stop_rule_table(runs, stop_rules, cap=cap)
    return tables, runs, info


def design_tables(
    runs: dict[str, list[Run]], *, cap: int, budgets: Sequence[int], reference: int
) -> dict[str, list[str]]:
    """The three tables of :func:`designs`: to the truth, at the stop, at fixed budgets."""
    ci_rng = np.random.default_rng(7)
    needed = {
        d: np.array([r.needed if r.needed is not None else cap for r in rs], dtype=float)
        for d, rs in runs.items()
    }
    stops = {
        d: np.array([r.stopped if r.stopped is not None else cap for r in rs], dtype=float)
        for d, rs in runs.items()
    }
    truth_lines = [
        f"{'design':<10} {'median':>7} {'IQR':>13} {'paired ratio [95% CI]':>22} "
        f"{'median ratio':>12} {'fewer':>6} {'reached':>8} {'wrong refits':>12} {'ever wrong':>10}"
    ]
    stop_lines = [
        f"{'design':<10} {'median':>7} {'IQR':>13} {'paired ratio [95% CI]':>22} "
        f"{'stopped':>8} {'right [95% CI]':>20} {'wrong [95% CI]':>20}"
    ]
    for d, rs in runs.items():
        med = float(np.median(needed[d]))
        q1, q3 = np.percentile(needed[d], [25, 75])
        gm, low, high = paired_ratio_ci(needed[d], needed["balanced"], rng=ci_rng)
        per_seed = float(np.median(needed[d] / needed["balanced"]))
        fewer = float(np.mean(needed[d] < needed["balanced"]))
        reached = np.mean([r.needed is not None for r in rs])
        wrong = np.mean(np.concatenate([r.until_reached() for r in rs]))
        ever = np.mean([any(r.until_reached()) for r in rs])
        truth_lines.append(
            f"{d:<10} {med:7.0f} {q1:6.0f}-{q3:6.0f} {gm:8.2f} [{low:4.2f}-{high:4.2f}]   "
            f"{per_seed:12.2f} {fewer:6.2f} {reached:8.2f} {wrong:12.3f} {ever:10.2f}"
        )
        smed = float(np.median(stops[d]))
        s1, s3 = np.percentile(stops[d], [25, 75])
        sgm, slow, shigh = paired_ratio_ci(stops[d], stops["balanced"], rng=ci_rng)
        right_n = sum(bool(r.stopped_right) for r in rs)
        wrong_n = sum(bool(r.stopped_wrong) for r in rs)
        (rl, wl), (rh, wh) = wilson_interval([right_n, wrong_n], [len(rs), len(rs)])
        stopped = np.mean([r.stopped is not None for r in rs])
        stop_lines.append(
            f"{d:<10} {smed:7.0f} {s1:6.0f}-{s3:6.0f} {sgm:8.2f} [{slow:4.2f}-{shigh:4.2f}]   "
            f"{stopped:8.2f} {right_n / len(rs):6.2f} [{rl:4.2f}-{rh:4.2f}] "
            f"{wrong_n / len(rs):6.2f} [{wl:4.2f}-{wh:4.2f}]"
        )
    return {
        "truth": truth_lines,
        "stop": stop_lines,
        "budgets": budget_table(runs, budgets, reference),
    }


def stop_rule_table(
    runs: dict[str, list[Run]], rules: Sequence[StopRule], *, cap: int
) -> list[str]:
    """Per design and stop rule: the share of seeds it stopped on before the cap, the
    judgements then (median; paired ratio to the first rule's on the same seed, the cap
    when a rule never held), and the share of seeds whose clusters were then right /
    drew a wrong boundary (Wilson 95%; a seed never stopped is neither)."""
    ci_rng = np.random.default_rng(7)
    lines = [
        f"{'design':<10} {'rule':<22} {'stopped':>7} {'median':>7} "
        f"{'ratio [95% CI]':>20} {'right [95% CI]':>20} {'wrong [95% CI]':>20}"
    ]
    for d, rs in runs.items():
        at = {
            rule.name: np.array([r.stops.get(rule.name, (cap,))[0] for r in rs], dtype=float)
            for rule in rules
        }
        base = at[rules[0].name]
        for rule in rules:
            stops = [r.stops[rule.name] for r in rs if rule.name in r.stops]
            right_n = sum(right for _, right, _ in stops)
            wrong_n = sum(wrong for _, _, wrong in stops)
            (rl, wl), (rh, wh) = wilson_interval([right_n, wrong_n], [len(rs), len(rs)])
            gm, low, high = paired_ratio_ci(at[rule.name], base, rng=ci_rng)
            lines.append(
                f"{d:<10} {rule.name:<22} {len(stops) / len(rs):7.2f} "
                f"{np.median(at[rule.name]):7.0f} {gm:6.2f} [{low:4.2f}-{high:4.2f}]   "
                f"{right_n / len(rs):6.2f} [{rl:4.2f}-{rh:4.2f}] "
                f"{wrong_n / len(rs):6.2f} [{wl:4.2f}-{wh:4.2f}]"
            )
    return lines


# --- power -------------------------------------------------------------------------------


def separated_share(
    s: Simulator, n: int, k: int, size: int, seeds: int, test_set: Any, a: int, b: int
) -> float:
    """Share of ``seeds`` balanced campaigns of ``size`` judgements whose ranking puts
    systems ``a`` and ``b`` in different clusters, the right way round."""
    hits = 0
    for seed in range(seeds):
        rng = np.random.default_rng([n, int(size), seed])
        tasks = balanced_tasks(int(size), n, k, rng)
        items = rng.integers(s.n_items, size=int(size))
        scores = s.answer(tasks, rng=rng, items=items, outputs=test_set)
        normals = rng.standard_normal((1000, n))
        res = ranking_of(tasks, scores, n, normals)
        hits += int(res.cluster[a] < res.cluster[b])  # apart, the right way round
    return hits / seeds


def crossing(grid: Any, rates: Any, level: float) -> float:
    """The size at which ``rates`` (rising with ``grid``) first reach ``level``,
    interpolated on log size; ``inf`` when they never do, and NaN when they are there at
    the grid's lowest size (a bound, not a crossing: the caller widens the grid first)."""
    above = np.flatnonzero(np.asarray(rates) >= level)
    if above.size == 0:
        return float("inf")
    i = int(above[0])
    if i == 0:
        return float("nan")
    x0, x1 = math.log(grid[i - 1]), math.log(grid[i])
    y0, y1 = rates[i - 1], rates[i]
    return math.exp(x0 + (level - y0) * (x1 - x0) / max(y1 - y0, 1e-9))


def power(
    sim: Simulator, *, step: float, seeds: int, sizes: Sequence[int]
) -> tuple[list[str], dict]:
    lines = [
        f"{'systems':>7} {'share':>6} {'draws':>6} {'predicted':>9} {'simulated':>9} {'ratio':>6}"
    ]
    curves = {}
    for n in sizes:
        q = step * (np.arange(n)[::-1] - (n - 1) / 2)
        s = sim.with_quality(q)
        k = min(5, n)
        test_set = s.draw_outputs(np.random.default_rng([n, 2024]))
        share, tie = pair_shares(
            s, rng=np.random.default_rng([n, 3]), judgements=200_000, k=k, outputs=test_set
        )
        a, b = n // 2 - 1, n // 2
        predicted = judgements_for(
            comparisons_needed(share[a, b], draws=tie[a, b]), n_systems=n, k=k
        )
        grid = np.unique(np.round(predicted * np.geomspace(0.25, 4.0, 9)).astype(int))
        rates = [separated_share(s, n, k, int(size), seeds, test_set, a, b) for size in grid]
        # Already separated at the grid's lowest size: halve it until it is not (at most
        # four times), so the figure is a crossing, not the grid's edge.
        while rates[0] >= 0.8 and grid[0] > 2 * n and grid[0] >= predicted / 16:
            lower = round(int(grid[0]) / 2)
            grid = np.concatenate([[lower], grid])
            rates.insert(0, separated_share(s, n, k, lower, seeds, test_set, a, b))
        rates_a = np.array(rates)
        simulated = crossing(grid, rates_a, 0.8)
        curves[n] = (grid, rates_a, predicted)
        if math.isnan(simulated):  # separated even at the widened grid's lowest size
            shown, ratio = f"<={grid[0]}", f"<={grid[0] / predicted:.2f}"
        else:
            shown, ratio = f"{simulated:.0f}", f"{simulated / predicted:.2f}"
        lines.append(
            f"{n:7d} {share[a, b]:6.3f} {tie[a, b]:6.3f} {predicted:9.0f} {shown:>9} {ratio:>6}"
        )
    return lines, curves


# --- plot and main ------------------------------------------------------------------------


def plot(runs: dict[str, list[Run]], curves: dict, path: Path, cap: int, batch: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter

    fig, axes = plt.subplots(1, 2 if curves else 1, figsize=(11 if curves else 6, 4), squeeze=False)
    ax = axes[0][0]
    colours = {
        "balanced": "#1f5fbf",
        "contested": "#c2410c",
        "overlap": "#15803d",
        "lucb": "#7c3aed",
        "oracle": "#6b7280",
        "oracle-adaptive": "#111827",
    }
    # designs that never reached the truth (or were left out of a run) are not drawn;
    # the axis ends a little after the last seed that reached it
    drawn = {d: rs for d, rs in runs.items() if any(r.needed is not None for r in rs)}
    last = max((r.needed for rs in drawn.values() for r in rs if r.needed), default=cap)
    grid = np.arange(batch, min(cap, int(last * 1.15)) + batch, batch)
    for d, rs in drawn.items():
        reached = [np.mean([r.needed is not None and r.needed <= g for r in rs]) for g in grid]
        ax.plot(grid, reached, color=colours[d], label=d)
    ax.set_xlabel("judgements")
    ax.set_ylabel("share of seeds at the true clusters")
    ax.set_title("Designs on the E2E-fitted simulator")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    if curves:
        ax = axes[0][1]
        for n, (grid_n, rates, predicted) in curves.items():
            line = ax.plot(grid_n / predicted, rates, marker="o", label=f"{n} systems")[0]
            del line
        ax.axhline(0.8, color="k", lw=0.8, ls=":")
        ax.axvline(1.0, color="k", lw=0.8, ls=":")
        ax.set_xscale("log")
        ax.set_xticks([0.25, 0.5, 1.0, 2.0, 4.0], labels=["0.25", "0.5", "1", "2", "4"])
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("judgements / predicted by the power analysis")
        ax.set_ylabel("share of seeds separating the pair")
        ax.set_title("Power analysis against the simulator")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "command", nargs="?", default="all", choices=("all", "check", "designs", "power")
    )
    parser.add_argument("--criterion", default="quality", choices=SCORE_COLUMN)
    parser.add_argument("--campaign", help="fit to this campaign (slug) in the database")
    parser.add_argument("--criterion-name", help="with --campaign: the criterion (first)")
    parser.add_argument("--seeds", type=int, default=150, help="evaluation seeds 0 .. N-1")
    parser.add_argument(
        "--tune-seeds",
        type=int,
        default=40,
        help=f"tuning seeds {TUNE_SEEDS} .. (disjoint from the evaluation seeds; 0: no tuning)",
    )
    parser.add_argument("--margins", default="1,2,3,4,5", help="contested margins to tune")
    parser.add_argument(
        "--min-shares", default="0.15,0.3,0.5", help="contested coverage minima to tune"
    )
    parser.add_argument("--margin", type=int, default=3, help="without tuning")
    parser.add_argument("--min-share", type=float, default=0.3, help="without tuning")
    parser.add_argument(
        "--budgets", default="0.25,0.5,0.75,1", help="fixed budgets, shares of the reference"
    )
    parser.add_argument("--designs", default=",".join(DESIGNS), help="designs to run")
    parser.add_argument(
        "--stop-rules",
        default="",
        help=f"candidate stop rules to tabulate ('all': {', '.join(STOP_RULES)})",
    )
    parser.add_argument(
        "--planted",
        type=int,
        default=0,
        help="planted truth: this many systems of equally spaced qualities (fitted crowd)",
    )
    parser.add_argument("--planted-step", type=float, default=0.02, help="their quality step")
    parser.add_argument("--batch", type=int, default=100, help="tasks per batch")
    parser.add_argument("--reference", type=int, default=None, help="target: balanced size")
    parser.add_argument("--cap", type=int, default=None, help="judgements at most per run")
    parser.add_argument("--power-step", type=float, default=0.05, help="quality step, power")
    parser.add_argument("--power-seeds", type=int, default=40)
    parser.add_argument(
        "--power-sizes", type=int, nargs="+", default=[2, 5, 20], help="systems, power"
    )
    # Not the committed figure by default: a reproduction run must not overwrite it.
    parser.add_argument("--plot", type=Path, default=Path("/tmp/adaptive-simulation.png"))
    parser.add_argument(
        "--quality-scale",
        type=float,
        default=1.0,
        help="multiply the fitted qualities (a what-if: systems further apart)",
    )
    parser.add_argument("--no-calibrate", action="store_true", help="keep the fitted output sd")
    parser.add_argument("--quick", action="store_true", help="smoke run: 4 seeds, 10 power seeds")
    args = parser.parse_args(argv)
    if args.quick:
        args.seeds, args.power_seeds, args.tune_seeds = 4, 10, 3
        args.margins, args.min_shares = "2,3", "0.3"

    started = time.perf_counter()
    if args.campaign:
        data = load_campaign(args.campaign, args.criterion_name)
        args.criterion = args.criterion_name or "campaign"
    else:
        folder = e2e_folder()
        if not (folder / f"{args.criterion}.csv").is_file():
            print("E2E ratings not found (set HUMANEVAL_E2E_DIR): nothing to simulate.")
            return 0
        data = load_e2e(folder, args.criterion)
    sim = fit_simulator(
        judgement_item=data.item,
        judgement_worker=data.worker,
        systems=data.systems,
        scores=data.scores,
        n_systems=len(data.labels),
    )
    print(
        f"fit to {len(data)} {args.criterion} judgements: {sim.n_systems} systems, "
        f"{sim.n_items} items, {sim.n_workers} workers; quality range "
        f"{np.ptp(sim.quality):.3f}, output sd {sim.interaction:.3f}, judgement sd "
        f"{sim.judgement_sd:.3f}, worker noise median {np.median(sim.noise):.3f}, flat share "
        f"{np.average(sim.flat_share, weights=sim.weight):.3f}",
        flush=True,
    )
    if not args.no_calibrate:
        sim, lines = calibrate(
            data, sim, factors=(1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0)
        )
        print("calibration of the output sd to the workers' agreement:")
        print("\n".join(lines))
        print(
            f"  kept: output sd {sim.interaction:.3f}, worker noise median {np.median(sim.noise):.3f}"
        )
        sim, lines = calibrate_spread(data, sim)
        print("calibration of the quality spread to the real ranking's rank ranges:")
        print("\n".join(lines))
        print(f"  kept: quality range {np.ptp(sim.quality):.3f}")
    if args.quality_scale != 1.0:
        sim = sim.with_quality(sim.quality * args.quality_scale)
        print(f"what-if: qualities times {args.quality_scale}")
    if args.planted:
        n = args.planted
        sim = sim.with_quality(args.planted_step * ((n - 1) / 2 - np.arange(n)))
        print(f"planted truth: {n} systems, qualities equally spaced by {args.planted_step}")
    runs: dict[str, list[Run]] = {}
    curves: dict = {}
    if args.command in ("all", "check"):
        print("\n== check: real vs simulated (same tasks, items and workers) ==")
        print("\n".join(check(data, sim, seeds=min(args.seeds, 10))), flush=True)
    if args.command in ("all", "designs"):
        reference = args.reference or len(data)
        cap = args.cap or 5 * reference
        budgets = [
            max(args.batch, int(float(f) * reference) // args.batch * args.batch)
            for f in args.budgets.split(",")
        ]
        truth = make_truth(sim, reference=reference)
        margin, min_share = args.margin, args.min_share
        names = list(STOP_RULES) if args.stop_rules == "all" else args.stop_rules.split(",")
        unknown = sorted(set(names) - set(STOP_RULES) - {""})
        if unknown:
            parser.error(f"unknown stop rule(s): {', '.join(unknown)}")
        # the table's ratios are to the first rule named (production's when not named)
        stop_rules = [STOP_RULES[name] for name in dict.fromkeys(names) if name]
        if stop_rules and PRODUCTION_STOP not in stop_rules:
            stop_rules.insert(0, PRODUCTION_STOP)
        if args.tune_seeds:
            tuning = range(TUNE_SEEDS, TUNE_SEEDS + args.tune_seeds)
            (margin, min_share), lines = tune(
                sim,
                truth=truth,
                seeds=tuning,
                batch=args.batch,
                cap=cap,
                margins=[int(m) for m in args.margins.split(",")],
                min_shares=[float(m) for m in args.min_shares.split(",")],
            )
            print(
                f"\n== tuning contested on seeds {tuning.start}-{tuning.stop - 1} "
                f"(evaluation: 0-{args.seeds - 1}): margin {margin}, min_share {min_share} =="
            )
            print("\n".join(lines), flush=True)
        tables, runs, info = designs(
            sim,
            reference=reference,
            seeds=range(args.seeds),
            batch=args.batch,
            cap=cap,
            budgets=budgets,
            margin=margin,
            min_share=min_share,
            names=[d for d in args.designs.split(",") if d],
            truth=truth,
            stop_rules=stop_rules,
        )
        print(
            f"\n== designs: judgements to the true clusters ({info['n_target_clusters']} target "
            f"clusters, from {reference} judgements without noise; {args.seeds} seeds, batches "
            f"of {args.batch}, cap {cap}; contested margin {margin}, min_share {min_share}; "
            "answers shared across designs) =="
        )
        print("\n".join(tables["truth"]))
        print(f"\n== at the production stop ({PRODUCTION_STOP}) ==")
        print("\n".join(tables["stop"]))
        print("\n== at fixed budgets: share of seeds right / wrong [Wilson 95%] ==")
        print("\n".join(tables["budgets"]), flush=True)
        print(
            "\n== why: the target boundaries, the best fixed allocation and the comparisons "
            "each design's refit read when it reached the truth (medians) =="
        )
        print("\n".join(boundary_report(truth, runs)), flush=True)
        if stop_rules:
            print(
                "\n== stop rules (no truth): judgements at the first stop (paired ratio to "
                "the first rule), right / wrong then [Wilson 95%] =="
            )
            print("\n".join(tables["stop rules"]), flush=True)
    if args.command in ("all", "power"):
        lines, curves = power(
            sim, step=args.power_step, seeds=args.power_seeds, sizes=args.power_sizes
        )
        print(
            f"\n== power: judgements to separate the middle pair (80% power, 95%), step {args.power_step} =="
        )
        print("\n".join(lines), flush=True)
    if runs:
        plot(
            runs,
            curves,
            args.plot,
            cap=args.cap or 5 * (args.reference or len(data)),
            batch=args.batch,
        )
        print(
            f"\nplot: {args.plot.relative_to(REPO) if args.plot.is_relative_to(REPO) else args.plot.name}"
        )
    print(f"total {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
