"""Reads for metric-human correlation: the stored metric scores, the humans' scores of
the same outputs and systems, and the correlations between them.

Human side, per criterion, from the judgements that count for rankings
(``annotations.selectors.judgements.scores_counted``, excluded workers left out):

* segment level: each output's mean score over its judgements. Magnitude-estimation
  (RankME) scores are ratios to the standard, so they are averaged as logarithms,
  ``log(max(score, 1))``, as the agreement and expert reports compare them (one
  worker's 111111 would otherwise swamp an output's mean); other scales as they are;
* system level: the mean of the system's output means (``human="mean"``, the default),
  or the value of the criterion's latest finished ranking run (``human="ranking"``: the
  TrueSkill mu for the WMT14/TrueSkill methods, the method's value otherwise).

Metric side: a system's score is its system-level score when the file gave one, else the
mean of its segment-level scores.
"""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np

from annotations.models import Campaign, Criterion
from annotations.selectors.judgements import scores_counted
from ranking.models import RankingRun
from reports.core.correlation import metric_rng, segment_correlations, system_correlations
from reports.core.correlation_report import CorrelationReport, MetricCorrelation, Point
from reports.models import MetricScore

HUMAN_SOURCES = ("mean", "ranking")


def metric_names(*, campaign: Campaign) -> list[str]:
    """The metrics stored for a campaign, sorted."""
    return list(
        MetricScore.objects.filter(campaign=campaign)
        .order_by("metric")
        .values_list("metric", flat=True)
        .distinct()
    )


def metric_score_counts(*, campaign: Campaign) -> list[tuple[str, int, int]]:
    """Per stored metric: (name, segment-level scores, system-level scores)."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for name, output_id in MetricScore.objects.filter(campaign=campaign).values_list(
        "metric", "output_id"
    ):
        counts[name][0 if output_id is not None else 1] += 1
    return [(name, seg, sys) for name, (seg, sys) in sorted(counts.items())]


def human_output_scores(
    *, criterion: Criterion, exclude_excluded_workers: bool = True
) -> dict[int, tuple[int, int, float]]:
    """Each judged output's (system id, item id, mean normalised human score)."""
    magnitude = criterion.scale == Criterion.Scale.MAGNITUDE
    values: dict[int, list[float]] = {}
    where: dict[int, tuple[int, int]] = {}
    rows = scores_counted(
        criterion=criterion, exclude_excluded_workers=exclude_excluded_workers
    ).values_list("output_id", "output__system_id", "output__item_id", "score")
    for output_id, system_id, item_id, score in rows.iterator():
        values.setdefault(output_id, []).append(
            math.log(max(score, 1.0)) if magnitude else float(score)
        )
        where[output_id] = (system_id, item_id)
    return {o: (*where[o], _mean(v)) for o, v in values.items()}


def _mean(values: list[float]) -> float:
    """The mean with a correctly rounded sum (``math.fsum``): the same float whatever
    order the database returns the rows in."""
    return math.fsum(values) / len(values)


def _latest_run(criterion: Criterion) -> RankingRun | None:
    return (
        RankingRun.objects.filter(criterion=criterion, status=RankingRun.Status.DONE)
        .order_by("-finished_at", "-pk")
        .first()
    )


def metric_correlations(
    *,
    campaign: Campaign,
    criterion: Criterion,
    seed: int,
    resamples: int = 1000,
    confidence: float = 0.95,
    human: str = "mean",
    metrics: list[str] | None = None,
) -> CorrelationReport:
    """Every stored metric (or those named) against the criterion's human scores.

    Each metric's bootstrap draws from its own stream (``core.correlation.metric_rng``:
    ``seed`` and the metric's name), so a metric's intervals do not change when another
    metric is imported or left out. With ``human="ranking"``
    and no finished ranking run of the criterion, the mean is used and the report says so.
    """
    if human not in HUMAN_SOURCES:
        raise ValueError(f"human must be one of {HUMAN_SOURCES}")
    outputs = human_output_scores(criterion=criterion)
    labels = dict(campaign.systems.values_list("pk", "label"))
    by_system: dict[int, list[float]] = defaultdict(list)
    for system_id, _, value in outputs.values():
        by_system[system_id].append(value)
    human_system = {s: _mean(v) for s, v in by_system.items()}
    described = "mean over its outputs of each output's mean human score"
    run = _latest_run(criterion) if human == "ranking" else None
    if run is not None:
        human_system = dict(run.results.values_list("system_id", "value"))
        described = f"value of ranking run #{run.pk} ({run.get_method_display()})"
    elif human == "ranking":
        described += " (no finished ranking run of this criterion)"
    normalisation = (
        "magnitude scores averaged as log(max(score, 1))"
        if criterion.scale == Criterion.Scale.MAGNITUDE
        else "scores averaged as they are"
    )
    report = CorrelationReport(
        campaign=campaign.slug,
        criterion=criterion.name,
        human=described,
        normalisation=normalisation,
        resamples=resamples,
        seed=seed,
        confidence=confidence,
    )
    names = metrics if metrics is not None else metric_names(campaign=campaign)
    for name in names:
        rng = metric_rng(seed, name)
        rows = list(
            MetricScore.objects.filter(campaign=campaign, metric=name).values_list(
                "system_id", "output_id", "score"
            )
        )
        seg_metric, seg_human, seg_item = [], [], []
        system_level: dict[int, float] = {}
        segment_by_system: dict[int, list[float]] = defaultdict(list)
        for system_id, output_id, score in rows:
            if output_id is None:
                system_level[system_id] = score
                continue
            segment_by_system[system_id].append(score)
            if output_id in outputs:
                _, item_id, value = outputs[output_id]
                seg_metric.append(score)
                seg_human.append(value)
                seg_item.append(item_id)
        metric_system = {s: _mean(v) for s, v in segment_by_system.items()}
        metric_system.update(system_level)
        shared = sorted((s for s in metric_system if s in human_system), key=lambda s: labels[s])
        points = [Point(labels[s], metric_system[s], human_system[s]) for s in shared]
        report.metrics.append(
            MetricCorrelation(
                metric=name,
                system=system_correlations(
                    [p.metric for p in points],
                    [p.human for p in points],
                    rng=rng,
                    resamples=resamples,
                    confidence=confidence,
                ),
                segment=segment_correlations(
                    seg_metric,
                    seg_human,
                    np.asarray(seg_item, dtype=np.int64),
                    rng=rng,
                    resamples=resamples,
                    confidence=confidence,
                ),
                points=points,
                n_systems=len(points),
                n_segments=len(seg_metric),
            )
        )
    return report
