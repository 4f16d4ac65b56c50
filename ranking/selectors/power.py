"""Reads for power analysis: how many judgements separate systems.

Two questions, answered from ``ranking.stats``' power functions:

- before launch (``campaign_power_plan``): from stated assumptions (the better system's
  share of comparisons, the draw rate), the judgements, tasks, hours and money a
  balanced design needs so that two systems that far apart come out separated;
- after launch (``criterion_power``): from the judgements so far (a pilot), for each
  pair of systems next to each other in the pilot's order, the judgements still needed
  ("N more judgements to resolve A vs B"), and the time and money they take.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median
from typing import NamedTuple

import numpy as np

from annotations.models import Campaign, Criterion
from annotations.selectors.plan import PAY_PER_HOUR_DEFAULT
from ranking import stats
from ranking.selectors.runs import DEFAULT_CONFIDENCE, ranking_scores

# A power question's inputs and their bounds, inclusive, defined once: the power page's form
# (ranking/forms/power.py) and the API's query (ranking/serializers/power.py) are built
# from these, ranking.selectors.runs.CONFIDENCE_RANGE and power_draws_problem, so both accept and refuse the
# same values with the same messages. The better system's share lies above 1/2 (at 1/2
# no number of judgements separates two systems; below it the other one is the better)
# and below 1 (a system that always wins leaves nothing to plan); a power below 1/2
# plans to miss the difference more often than to find it.
SHARE_RANGE = (0.51, 0.99)
DRAWS_RANGE = (0.0, 1.0)  # and at most twice the worse system's share: power_draws_problem
POWER_RANGE = (0.5, 0.99)
#: the power a question takes when none is given (the page's form, the API, the command)
DEFAULT_POWER = 0.8
PAY_PER_HOUR_RANGE = (0.0, 10_000.0)
SECONDS_PER_TASK_RANGE = (1.0, 86_400.0)


def power_draws_problem(*, share: float, draws: float) -> str | None:
    """Why ``draws`` cannot go with ``share``, or None: a draw counts half to each system,
    so the draws are at most twice the worse system's share (``ranking.stats``' rule)."""
    if draws > 2 * min(share, 1 - share) + 1e-12:
        return "More draws than the share allows (a draw counts half to each)."
    return None


@dataclass(frozen=True)
class PowerPair:
    better: str
    worse: str
    share: float  # the better one's share of their comparisons, draws counting half
    draws: float
    have: int  # their comparisons so far
    comparisons_more: float  # math.inf: level so far, no number of judgements separates them
    judgements_more: float
    hours: float
    cost: float
    #: the comparisons so far already tell the two apart (a test of the share against 1/2)
    significant: bool = False
    #: ``judgements_more`` at the two ends of the share's confidence interval (math.inf:
    #: the interval reaches 1/2, so the pair may be level and no figure bounds it)
    judgements_low: float = math.inf
    judgements_high: float = math.inf

    @property
    def resolved(self) -> bool:
        return self.comparisons_more == 0

    @property
    def bounded(self) -> bool:
        """Whether the share's interval bounds the judgements needed (it stays off 1/2)."""
        return math.isfinite(self.judgements_high)

    @property
    def compared(self) -> bool:
        """Whether the two were ever compared: a pair never shown together has no share
        to plan from (it is no estimate, not "level")."""
        return self.have > 0

    @property
    def level(self) -> bool:
        return self.compared and math.isinf(self.comparisons_more)


@dataclass(frozen=True)
class PowerReport:
    """After launch: what each pair of neighbours still needs (``pairs``, pilot order)."""

    criterion: str
    confidence: float
    power: float
    systems: int
    outputs_per_task: int
    judgements: int
    seconds_per_task: float
    pay_per_hour: float
    pairs: list[PowerPair]

    @property
    def level_pairs(self) -> list[PowerPair]:
        """Pairs whose comparisons so far are level (no figure is computed for them)."""
        return [p for p in self.pairs if not p.resolved and p.level]

    @property
    def never_compared(self) -> list[PowerPair]:
        """Pairs never shown together: the pilot gives no share to plan from."""
        return [p for p in self.pairs if not p.compared]

    @property
    def separated(self) -> int:
        return sum(p.resolved for p in self.pairs)

    @property
    def unresolved(self) -> list[PowerPair]:
        """Pairs still to resolve that more judgements can resolve, fewest needed first."""
        return sorted(
            (p for p in self.pairs if p.compared and not p.resolved and not p.level),
            key=lambda p: p.judgements_more,
        )


class SimulatedRatio(NamedTuple):
    """How far off the plan's figure was on one simulated campaign of ``systems``
    systems: the lowest and highest ratio of the judgements needed to the figure."""

    systems: int
    low: float
    high: float


@dataclass(frozen=True)
class PowerPlan:
    """Before launch: a balanced design's size to separate two systems ``share`` apart."""

    share: float
    draws: float
    confidence: float
    power: float
    systems: int
    outputs_per_task: int
    judgements_per_task: int
    comparisons_per_pair: float
    judgements: float
    tasks: float
    hours: float
    cost: float
    seconds_per_task: float
    pay_per_hour: float

    @property
    def level(self) -> bool:
        """No number of judgements separates the two systems (``judgements`` is infinite)."""
        return math.isinf(self.judgements)

    @property
    def measured(self) -> list[SimulatedRatio]:
        """(systems, lowest, highest) simulated / predicted, as measured on one simulated
        campaign (``stats.SIMULATED_RATIOS``): quoted, never applied."""
        return [SimulatedRatio(n, lo, hi) for n, (lo, hi) in sorted(stats.SIMULATED_RATIOS.items())]


def _seconds(criterion: Criterion | None, campaign: Campaign) -> float:
    """Seconds per task: the median of the criterion's judgements so far, else the
    plan's default (the minimum time per task, at least a minute)."""
    if criterion is not None:
        times = list(
            criterion.judgements.filter(seconds_on_task__gt=0).values_list(
                "seconds_on_task", flat=True
            )[:5000]
        )
        if times:
            return float(median(times))
    return float(max(campaign.min_seconds_per_task, 60))


def _hours_cost(judgements: float, seconds: float, pay_per_hour: float) -> tuple[float, float]:
    if math.isinf(judgements):
        return math.inf, math.inf
    hours = judgements * seconds / 3600.0
    return hours, hours * pay_per_hour


def campaign_power_plan(
    *,
    campaign: Campaign,
    share: float = 0.6,
    draws: float = 0.0,
    confidence: float = DEFAULT_CONFIDENCE,
    power: float = DEFAULT_POWER,
    pay_per_hour: float = PAY_PER_HOUR_DEFAULT,
    seconds_per_task: float | None = None,
) -> PowerPlan:
    """The judgements a balanced design of this campaign needs to separate two systems
    when the better one wins ``share`` of their comparisons (draws counting half).

    Raises ``ValueError`` (its message says which setting) for impossible settings.
    """
    systems = max(campaign.systems.count(), 2)
    k = min(max(campaign.outputs_per_task, 2), systems)
    per_pair = stats.comparisons_needed(share, draws=draws, confidence=confidence, power=power)
    judgements = stats.judgements_for(per_pair, n_systems=systems, k=k)
    jpt = max(campaign.judgements_per_task, 1)
    seconds = seconds_per_task if seconds_per_task is not None else _seconds(None, campaign)
    hours, cost = _hours_cost(judgements, seconds, pay_per_hour)
    return PowerPlan(
        share=share,
        draws=draws,
        confidence=confidence,
        power=power,
        systems=systems,
        outputs_per_task=k,
        judgements_per_task=jpt,
        comparisons_per_pair=per_pair,
        judgements=judgements,
        tasks=math.ceil(judgements / jpt) if math.isfinite(judgements) else math.inf,
        hours=hours,
        cost=cost,
        seconds_per_task=seconds,
        pay_per_hour=pay_per_hour,
    )


def _observed_outputs_per_judgement(judgement: np.ndarray, n: int) -> int:
    """The outputs a judgement of the pilot scored (the median; 2 to ``n``): the design the
    pilot's judgements came from, which the judgements still needed are counted in. The
    campaign's setting (5 by default) understated by 3.3x what 3-way imported judgements
    of 6 systems need."""
    _, sizes = np.unique(np.asarray(judgement), return_counts=True)
    return int(min(max(round(float(np.median(sizes))), 2), n)) if sizes.size else 2


def criterion_power(
    *,
    criterion: Criterion,
    confidence: float = DEFAULT_CONFIDENCE,
    power: float = DEFAULT_POWER,
    pairs: str = "adjacent",
    pay_per_hour: float = PAY_PER_HOUR_DEFAULT,
    seconds_per_task: float | None = None,
) -> PowerReport | None:
    """From the criterion's judgements so far: what each pair of neighbours (or every
    pair) still needs. None while fewer than two systems have been compared."""
    campaign = criterion.campaign
    data = ranking_scores(criterion=criterion)
    if data.n_judgements == 0:
        return None
    try:
        comparisons, ranked = stats.prepare_comparisons(
            n_systems=len(data.systems),
            judgement=data.judgement,
            system=data.system,
            score=data.score,
            slot=data.slot,
        )
    except ValueError:
        return None
    n = comparisons.n_systems
    # The pilot's order: each system's share of its comparisons won (draws as halves).
    points = np.zeros(n)
    np.add.at(points, comparisons.winners, np.where(comparisons.draws, 0.5, 1.0))
    np.add.at(points, comparisons.losers[comparisons.draws], 0.5)
    share = points / np.maximum(comparisons.per_system(), 1)
    order = np.argsort(-share, kind="stable")
    k = _observed_outputs_per_judgement(data.judgement, n)
    seconds = seconds_per_task if seconds_per_task is not None else _seconds(criterion, campaign)
    labels = [data.systems[int(i)].label for i in ranked]
    found = []
    for pair in stats.pilot_power(
        comparisons, order, k=k, confidence=confidence, power=power, pairs=pairs
    ):
        hours, cost = _hours_cost(pair.judgements_more, seconds, pay_per_hour)
        # never compared: no share to plan from (the stats' 0.5 is a stand-in, not data)
        unknown = math.nan if pair.have == 0 else None
        found.append(
            PowerPair(
                better=labels[pair.a],
                worse=labels[pair.b],
                share=pair.share if unknown is None else unknown,
                draws=pair.draws if unknown is None else unknown,
                have=pair.have,
                comparisons_more=pair.more,
                judgements_more=pair.judgements_more,
                hours=hours,
                cost=cost,
                significant=pair.significant,
                judgements_low=pair.judgements_low,
                judgements_high=pair.judgements_high,
            )
        )
    return PowerReport(
        criterion=criterion.name,
        confidence=confidence,
        power=power,
        systems=n,
        outputs_per_task=k,
        judgements=data.n_judgements,
        seconds_per_task=seconds,
        pay_per_hour=pay_per_hour,
        pairs=found,
    )


def campaign_power_reports(
    *,
    campaign: Campaign,
    confidence: float = DEFAULT_CONFIDENCE,
    power: float = DEFAULT_POWER,
    pay_per_hour: float = PAY_PER_HOUR_DEFAULT,
    seconds_per_task: float | None = None,
) -> list[PowerReport]:
    """:func:`criterion_power` of each criterion that has one (two systems compared)."""
    reports = (
        criterion_power(
            criterion=criterion,
            confidence=confidence,
            power=power,
            pay_per_hour=pay_per_hour,
            seconds_per_task=seconds_per_task,
        )
        for criterion in campaign.criteria.all()
    )
    return [report for report in reports if report is not None]
