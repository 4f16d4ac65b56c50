"""Reads for the MTG-style table: each criterion's mean rating per system and
language, with confidence intervals, beside the latest ranking run's rank ranges and clusters (any method).

The database adds the ratings up per (system, language): count, sum and sum of squares,
one aggregate query per criterion; ``ranking.stats.mean_intervals`` turns them into
means and Student t intervals (cut to the scale's range on a Likert or slider scale: a
mean cannot leave it), and pooling the languages is adding their sums. The
ratings are the ones a ranking counts (``scores_counted``: regular and imported tasks,
first answers, no degraded copies, no excluded workers). Beside each column: the latest
finished ranking run of the criterion on that language's slice (``where={"language":
tag}``) or on all items, its rank range and cluster per system.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from django.db.models import Count, ExpressionWrapper, FloatField, Sum
from django.db.models.functions import Cast, Ln

from annotations.core.slices import LANGUAGE
from annotations.models import Campaign, Criterion
from annotations.selectors.criteria import criteria_in_order
from annotations.selectors.judgements import scores_counted
from ranking import stats
from ranking.models import RankingRun
from ranking.selectors.data_rule import ranking_data_rule
from ranking.selectors.runs import DEFAULT_CONFIDENCE, Row, ranking_run_rows_claimed

ALL = ""  # the pooled column's key: every language


@dataclass(frozen=True)
class MeanCell:
    """One system's mean rating in one column, and its ranking there (if ranked)."""

    n: int
    mean: float
    low: float
    high: float
    ranked: Row | None = None
    #: ranked with fewer judgements or comparisons than the minimum (the run page's †)
    thin: bool = False

    @property
    def no_spread(self) -> bool:
        """Every rating equal (n > 1): the interval has no width, and says nothing."""
        return self.n > 1 and self.low == self.high


@dataclass(frozen=True)
class CriterionMeans:
    """A criterion's table: systems (best pooled mean first) x columns (languages, then
    all of them pooled when there are several)."""

    criterion: str
    scale: str
    scale_range: tuple[float, float] | None  # Likert: lowest and highest level
    #: geometric means (magnitude estimates: the mean of the logarithms, turned back)
    geometric: bool
    columns: list[str]  # language tags; ALL for the pooled column
    systems: list[str]
    cells: dict[tuple[str, str], MeanCell] = field(default_factory=dict)
    runs: dict[str, RankingRun] = field(default_factory=dict)
    #: the columns whose run does not meet the minimum-data rule: why (its ranks are
    #: shown without clusters)
    unmet: dict[str, str] = field(default_factory=dict)
    #: the rule's minimum (judgements and comparisons) behind the † marks
    min_comparisons: int = 0
    #: the scores are ranks stored as k + 1 - rank (a WMT relative ranking): their mean
    #: is not a rating
    ranks: bool = False

    @property
    def any_thin(self) -> bool:
        return any(cell.thin for cell in self.cells.values())

    @property
    def unmet_runs(self) -> list[tuple[str, RankingRun, str]]:
        return [(c, self.runs[c], why) for c, why in self.unmet.items() if c in self.runs]

    def rows(self) -> list[tuple[str, list[MeanCell | None]]]:
        return [(s, [self.cells.get((s, c)) for c in self.columns]) for s in self.systems]

    def column_runs(self) -> list[tuple[str, RankingRun | None]]:
        return [(c, self.runs.get(c)) for c in self.columns]

    @property
    def ratings(self) -> int:
        return sum(cell.n for (_, c), cell in self.cells.items() if c == ALL)


@dataclass(frozen=True)
class MeansTable:
    campaign: str
    confidence: float
    languages: list[str]
    criteria: list[CriterionMeans]


def _scale_range(criterion: Criterion) -> tuple[float, float] | None:
    if criterion.scale == Criterion.Scale.LIKERT and criterion.likert_levels:
        values = [float(level["value"]) for level in criterion.likert_levels]
        return (min(values), max(values))
    if criterion.scale == Criterion.Scale.SLIDER:
        return (0.0, 100.0)
    return None


def _latest_runs(criterion: Criterion, columns: list[str]) -> dict[str, RankingRun]:
    """The latest finished run of the criterion per column (its language's slice, or all
    items for the pooled column / a one-language campaign). One indexed read per column,
    whatever the number of runs (the runs of other slices are never loaded)."""
    done = RankingRun.objects.filter(criterion=criterion, status=RankingRun.Status.DONE)
    found: dict[str, RankingRun] = {}
    for column in columns:
        where = {LANGUAGE: column} if column != ALL else {}
        run = done.filter(where=where).order_by("-created_at", "-id").first()
        if run is not None:
            found[column] = run
    return found


def criterion_means(
    *,
    criterion: Criterion,
    languages: list[str],
    confidence: float = DEFAULT_CONFIDENCE,
    exclude_excluded_workers: bool = True,
) -> CriterionMeans:
    """The criterion's mean rating per system and language (and pooled), with intervals.

    Magnitude estimates are means of their logarithms, turned back (geometric means, with
    the t interval of the logarithms' mean turned back: positive and not symmetric), as
    magnitude estimation is analysed (Bard, Robertson and Sorace 1996): an arithmetic mean
    of numbers with no upper bound followed a few scores of 111,111 (E2E's gong: 230.7,
    interval -36 to 498, where the others sit at 78-97). Scores of 0 have no logarithm and
    are left out of a magnitude mean."""
    counted = scores_counted(criterion=criterion, exclude_excluded_workers=exclude_excluded_workers)
    geometric = criterion.scale == Criterion.Scale.MAGNITUDE
    value: Any = Cast("score", FloatField())
    if geometric:
        counted = counted.filter(score__gt=0)
        value = Ln(value)
    sums = list(
        counted.values("output__system__label", "judgement__task__language")
        .annotate(
            n=Count("id"),
            total=Sum(value),
            squares=Sum(ExpressionWrapper(value * value, output_field=FloatField())),
        )
        .values_list("output__system__label", "judgement__task__language", "n", "total", "squares")
        .order_by()
    )
    found = sorted({language for _, language, *_ in sums})
    order = [tag for tag in languages if tag in found] + [t for t in found if t not in languages]
    columns = [*order, ALL] if len(order) > 1 else [ALL]
    keys: list[tuple[str, str]] = []
    n: list[int] = []
    total: list[float] = []
    squares: list[float] = []
    pooled: dict[str, tuple[int, float, float]] = {}
    for system, language, count, s, ss in sums:
        if len(columns) > 1:
            keys.append((system, language))
            n.append(count)
            total.append(float(s or 0.0))
            squares.append(float(ss or 0.0))
        had = pooled.get(system, (0, 0.0, 0.0))
        pooled[system] = (had[0] + count, had[1] + float(s or 0.0), had[2] + float(ss or 0.0))
    for system, (count, s_all, ss_all) in pooled.items():
        keys.append((system, ALL))
        n.append(count)
        total.append(s_all)
        squares.append(ss_all)
    result = stats.mean_intervals(
        np.array(n, dtype=np.int64), total, squares, confidence=confidence
    )
    runs = _latest_runs(criterion, columns)
    rules = {column: ranking_data_rule(run=run) for column, run in runs.items()}
    ranked = {
        column: {
            row.system: row for row in ranking_run_rows_claimed(run=run, met=rules[column].met)
        }
        for column, run in runs.items()
    }
    mean, low, high = result.mean, result.low, result.high
    if geometric:
        mean, low, high = np.exp(mean), np.exp(low), np.exp(high)
    scale_range = _scale_range(criterion)
    if scale_range is not None:  # a mean cannot leave the scale: neither can its interval
        low, high = np.clip(low, *scale_range), np.clip(high, *scale_range)
    cells = {
        key: MeanCell(
            n=int(result.n[i]),
            mean=float(mean[i]),
            low=float(low[i]),
            high=float(high[i]),
            ranked=ranked.get(key[1], {}).get(key[0]),
            thin=key[1] in rules and key[0] in rules[key[1]].thin_labels,
        )
        for i, key in enumerate(keys)
    }
    systems = sorted(
        pooled,
        key=lambda s: (-cells[(s, ALL)].mean if not math.isnan(cells[(s, ALL)].mean) else 0, s),
    )
    return CriterionMeans(
        criterion=criterion.name,
        scale=criterion.scale,
        scale_range=scale_range,
        geometric=geometric,
        ranks=criterion.of_ranks,
        columns=columns,
        systems=systems,
        cells=cells,
        runs=runs,
        unmet={c: rule.no_clusters for c, rule in rules.items() if not rule.met},
        min_comparisons=next(iter(rules.values())).min_comparisons if rules else 0,
    )


def means_criterion_names(*, campaign: Campaign) -> list[str]:
    """The campaign's criteria by name, in its order (the page's choice of criterion)."""
    return [c.name for c in criteria_in_order(campaign=campaign)]


def campaign_means(
    *, campaign: Campaign, confidence: float = DEFAULT_CONFIDENCE, criterion: str = ""
) -> MeansTable:
    """Every criterion's table (or the one named ``criterion``), in the campaign's order."""
    criteria = [
        c for c in criteria_in_order(campaign=campaign) if not criterion or c.name == criterion
    ]
    languages = campaign.languages_or_default
    return MeansTable(
        campaign=campaign.slug,
        confidence=confidence,
        languages=languages,
        criteria=[
            criterion_means(criterion=c, languages=languages, confidence=confidence)
            for c in criteria
        ],
    )
