"""Reads for rankings: the judgements a run uses, as integer-indexed arrays, and results;
a run's defaults and the confidence levels' bounds, defined once here. The minimum-data
rule is ``data_rule``'s, the content checks' summary ``content_checks``'."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, QuerySet

from annotations.access.campaigns import campaigns_visible_to
from annotations.core.slices import describe
from annotations.models import Campaign, Criterion, Item, Judgement, JudgementScore, System
from annotations.selectors.judgements import (
    judgements_counted,
    judgements_left_out,
    scores_counted,
    slice_q,
)
from common.arrays import numeric_rows
from ranking import stats
from ranking.models import RankingRun
from ranking.selectors.data_rule import ranking_data_rule
from ranking.selectors.sweep import ranking_runs_as_swept


@dataclass(frozen=True)
class Row:
    """One system's line of a ranking."""

    system: str
    value: float
    spread: float
    rank_lo: int
    rank_hi: int
    cluster: int | None  # None: withheld (``ranking_run_rows_claimed``)
    comparisons: int

    @property
    def rank_range(self) -> str:
        return (
            f"{self.rank_lo}" if self.rank_lo == self.rank_hi else f"{self.rank_lo}-{self.rank_hi}"
        )


#: The confidence levels the ranking pages and APIs take (a run's rank ranges, the means
#: table, power analysis), inclusive: each page's form and its API's serializer are built
#: from these bounds. The statistics take any level strictly between 0 and 1; below 1/2 an
#: interval covers less than it leaves out, and 0.999 is already an extreme level.
CONFIDENCE_RANGE = (0.5, 0.999)
#: The confidence level those pages, APIs and commands take when none is given, and the
#: level a run's content checks are summarized at.
DEFAULT_CONFIDENCE = 0.95


@dataclass(frozen=True)
class RunDefaults:
    """What a ranking run is started with when its request leaves it out: the run page's
    form, the runs API's serializer, the ``rank`` command and the services that create
    runs all take these (the model's column defaults are the same values, tested: the
    models sit below the selectors and cannot import them)."""

    method: str = "wmt14"
    runs: int = 200
    seed: int = 1
    confidence: float = DEFAULT_CONFIDENCE


RUN_DEFAULTS = RunDefaults()


@dataclass(frozen=True)
class ScoreArrays:
    """Every score a ranking uses, one entry per (judgement, output).

    ``judgement`` numbers judgements 0..n_judgements-1 in submission order; ``system``
    indexes ``systems``; ``slot`` is the display slot (outputs merged into one slot
    share it and were not compared with each other by the worker). ``fingerprint``
    identifies the scores by content, never by database ids (:func:`ranking_scores`).
    """

    systems: list[System]
    judgement: np.ndarray
    system: np.ndarray
    score: np.ndarray
    slot: np.ndarray
    fingerprint: str

    @property
    def n_judgements(self) -> int:
        return int(self.judgement[-1]) + 1 if self.judgement.size else 0


def _counted_scores(
    *,
    criterion: Criterion,
    exclude_excluded_workers: bool,
    where: Mapping[str, str] | None = None,
) -> QuerySet[JudgementScore]:
    """The scores that count for a ranking: regular and imported tasks, first answers
    (no repeats), no degraded copies, and, when asked, no excluded workers; of the items
    of a slice with ``where``."""
    return scores_counted(
        criterion=criterion, exclude_excluded_workers=exclude_excluded_workers, where=where
    )


def ranking_scores(
    *,
    criterion: Criterion,
    exclude_excluded_workers: bool = True,
    where: Mapping[str, str] | None = None,
) -> ScoreArrays:
    """The scores of a criterion that count for its ranking (of a slice with ``where``).

    Left out: attention-check tasks, repeat assignments, degraded copies, and, when asked,
    judgements of workers an organizer excluded (they stay stored).

    The fingerprint is a SHA-256 of the content, in the order ranked: the criterion's
    name, then per judgement its item (external id and a digest of its input) and its
    worker (external id), and per score the system's label, the slot and the score.
    The same judgements imported into another installation, or again into another
    campaign, give the same fingerprint; any changed score gives another.
    """
    # Two narrow reads instead of one wide one: the counted judgements in the order
    # ranked (one row each) and their scores unordered (sorted here: the database's sort
    # of every score spilled to disk at a million comparisons).
    ordered = list(
        judgements_counted(
            criterion=criterion, exclude_excluded_workers=exclude_excluded_workers, where=where
        )
        .order_by("submitted_at", "id")
        .values_list("id", "task__item_id", "worker__external_id")
    )
    scores = numeric_rows(
        _counted_scores(
            criterion=criterion, exclude_excluded_workers=exclude_excluded_workers, where=where
        ).order_by(),
        {
            "judgement_id": "i8",
            "output__system_id": "i8",
            "score": "f8",
            "slot": "i8",
            "output_id": "i8",
        },
    )
    scores.dtype.names = ("j", "system", "score", "slot", "output")
    judgement_ids = np.fromiter((row[0] for row in ordered), dtype=np.int64, count=len(ordered))
    by_id = np.argsort(judgement_ids, kind="stable")
    found = np.searchsorted(judgement_ids, scores["j"], sorter=by_id)
    # A judgement submitted between the two reads has scores but no place in the order:
    # it is left out, as it would have been had it come a moment later.
    known = found < len(by_id)
    known[known] = judgement_ids[by_id[found[known]]] == scores["j"][known]
    scores, place = scores[known], by_id[found[known]]
    order = np.lexsort((scores["output"], scores["slot"], place))
    scores, place = scores[order], place[order]
    # Only systems that were judged: a system without comparisons has no rank.
    judged = np.unique(scores["system"])
    systems = list(
        System.objects.filter(campaign_id=criterion.campaign_id, pk__in=judged.tolist()).order_by(
            "label"
        )
    )
    pks = np.array([s.pk for s in systems], dtype=np.int64)
    by_pk = np.argsort(pks)
    system = by_pk[np.searchsorted(pks, scores["system"], sorter=by_pk)].astype(np.int64)
    new = np.ones(len(scores), dtype=bool)
    new[1:] = place[1:] != place[:-1]
    judgement = np.cumsum(new, dtype=np.int64) - 1
    score = np.ascontiguousarray(scores["score"])
    slot = np.ascontiguousarray(scores["slot"])
    used = place[new]
    items = {
        pk: f"{json.dumps(key)}, {json.dumps(hashlib.sha256(text.encode()).hexdigest()[:16])}"
        for pk, key, text in Item.objects.filter(
            pk__in={ordered[k][1] for k in used.tolist()}
        ).values_list("pk", "external_id", "input")
    }
    workers = {worker: json.dumps(worker) for _, _, worker in ordered}
    headers = [
        f'["judgement", {items[ordered[k][1]]}, {workers[ordered[k][2]]}]' for k in used.tolist()
    ]
    digest = hashlib.sha256(json.dumps(["criterion", criterion.name]).encode())
    digest.update(
        _fingerprint_text(
            headers=headers,
            labels=[json.dumps(s.label) for s in systems],
            new=new,
            system=system,
            slot=slot,
            score=score,
        ).encode()
    )
    return ScoreArrays(
        systems=systems,
        judgement=judgement,
        system=system,
        score=score,
        slot=slot,
        fingerprint=digest.hexdigest(),
    )


def ranking_comparisons_estimate(
    *,
    criterion: Criterion,
    exclude_excluded_workers: bool = True,
    where: Mapping[str, str] | None = None,
) -> int:
    """About how many pairwise comparisons a ranking of these judgements makes (what a
    run's chunks are sized by): ``k (k - 1) / 2`` per judgement for the mean number
    ``k`` of scores per judgement, from two counts."""
    counts = _counted_scores(
        criterion=criterion, exclude_excluded_workers=exclude_excluded_workers, where=where
    ).aggregate(scores=Count("pk"), judgements=Count("judgement_id", distinct=True))
    scores, judgements = counts["scores"] or 0, counts["judgements"] or 0
    if not judgements:
        return 0
    k = scores / judgements
    return int(judgements * k * (k - 1) / 2)


def _fingerprint_text(
    *,
    headers: list[str],
    labels: list[str],
    new: np.ndarray,
    system: np.ndarray,
    slot: np.ndarray,
    score: np.ndarray,
) -> str:
    """The text the fingerprint hashes after the criterion: per judgement its header,
    then per score ``json.dumps([label, slot, score])``, written out once per distinct
    (system, slot, score) and laid out by numpy (the same text)."""
    if not len(score):
        return ""
    values, value = np.unique(score.view(np.int64), return_inverse=True)
    slots, position = np.unique(slot, return_inverse=True)
    key = (system * len(slots) + position.reshape(-1)) * len(values) + value.reshape(-1)
    distinct, which = np.unique(key, return_inverse=True)
    s_of, rest = np.divmod(distinct, len(slots) * len(values))
    p_of, v_of = np.divmod(rest, len(values))
    texts = np.array(
        [
            f"[{labels[s]}, {p}, {json.dumps(v)}]"
            for s, p, v in zip(
                s_of.tolist(),
                slots[p_of].tolist(),
                values[v_of].view(np.float64).tolist(),
                strict=True,
            )
        ]
        + list(headers),
        dtype=object,
    )
    # each score's text after the headers of its judgement and those before it
    at = np.arange(len(score)) + np.cumsum(new)
    parts = np.empty(len(score) + len(headers), dtype=np.int64)
    parts[at] = which.reshape(-1)
    parts[at[new] - 1] = len(distinct) + np.arange(len(headers))
    return "".join(texts[parts].tolist())


def ranking_run_fingerprint(*, run: RankingRun, judgements: str, min_comparisons: int) -> str:
    """What a run ranked, by content: the judgements' fingerprint (:func:`ranking_scores`:
    systems by label, items by external id and input, workers by external id, scores)
    with the criterion, slice and exclusions, the method, its parameters, the runs,
    confidence, seed and the minimum comparisons and judgements. Two installations that rank the same
    judgements the same way get the same fingerprint, whatever their database ids."""
    described = {
        "judgements": judgements,
        "criterion": run.criterion.name,
        "where": dict(sorted((run.where or {}).items())),
        "exclude_excluded_workers": run.exclude_flagged,
        "method": run.method,
        "parameters": run.parameters or {},
        "runs": run.runs,
        "confidence": run.confidence,
        "seed": run.seed,
        "min_comparisons": min_comparisons,
        # The rule counts judgements as well (a run before it left in a system of eight
        # five-way judgements): the same minimum, now of both.
        "min_judgements": min_comparisons,
    }
    return hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()


def ranking_parameters_used(*, run: RankingRun) -> dict[str, Any]:
    """The method's parameters the run computed with, defaults included: as stored when
    it finished, else the method's defaults with the run's own over them (None: worked
    out from the data, as WMT14's steps are)."""
    used = (run.inputs or {}).get("parameters_used")
    if isinstance(used, dict):
        return dict(used)
    try:
        defaults = stats.method_parameters(run.method)
    except stats.ParameterError:
        defaults = {}
    return {**defaults, **(run.parameters or {})}


def ranking_inputs(
    *,
    criterion: Criterion,
    exclude_excluded_workers: bool = True,
    where: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Which of a criterion's judgements a ranking uses and which it leaves out, and why.

    Stored with every run (``RankingRun.inputs``) and written into every export, so a
    published ranking says what it rests on.
    """
    judgements = Judgement.objects.filter(slice_q(where), criterion=criterion)
    left_out = judgements_left_out(criterion=criterion, where=where)
    regular = judgements_counted(criterion=criterion, where=where)
    excluded = regular.filter(worker__excluded=True)
    excluded_ids = sorted(set(excluded.values_list("worker__external_id", flat=True)))
    n_excluded = excluded.count() if exclude_excluded_workers else 0
    return {
        "judgements_total": judgements.count(),
        "judgements_used": regular.count() - n_excluded,
        "left_out": {
            "attention_checks": left_out["attention_checks"],
            "repeats": left_out["repeats"],
            "excluded_workers": n_excluded,
        },
        "exclude_excluded_workers": exclude_excluded_workers,
        "excluded_workers": excluded_ids if exclude_excluded_workers else [],
        "where": dict(where or {}),
    }


def ranking_campaign_system_labels(*, criterion: Criterion) -> list[str]:
    """Every system of the criterion's campaign (a ranking lists the unjudged as unranked)."""
    return list(
        System.objects.filter(campaign_id=criterion.campaign_id)
        .order_by("label")
        .values_list("label", flat=True)
    )


def ranking_runs_visible_to(*, user: User | AnonymousUser) -> QuerySet[RankingRun]:
    """The runs of the campaigns the user may see, with their campaign and criterion."""
    return RankingRun.objects.select_related("campaign", "criterion").filter(
        campaign__in=campaigns_visible_to(user)
    )


def ranking_runs_recent(*, campaign: Campaign, limit: int | None = 10) -> list[RankingRun]:
    """A campaign's latest ranking runs (newest first; all with ``limit=None``), with
    their criteria, each shown as the sweep will leave it (a lost run as failed)."""
    runs = RankingRun.objects.filter(campaign=campaign).select_related("criterion")
    return list(ranking_runs_as_swept(runs=list(runs if limit is None else runs[:limit])))


def ranking_runs_listed(
    *, campaign: Campaign, criterion: str = "", status: str = ""
) -> QuerySet[RankingRun]:
    """A campaign's ranking runs, newest first, with their campaign and criterion: the
    runs API's list. ``criterion`` (a name) and ``status``, when given, keep only the
    runs of that criterion and in that status. Stored status: the caller shows each run
    of the page it cuts as the sweep will leave it (``ranking_runs_as_swept``)."""
    runs = RankingRun.objects.filter(campaign=campaign).select_related("campaign", "criterion")
    if criterion:
        runs = runs.filter(criterion__name=criterion)
    if status:
        runs = runs.filter(status=status)
    return runs.order_by("-created_at", "-id")


def ranking_run_result_count(*, run: RankingRun) -> int:
    """The result rows (one per system ranked) a run holds: what deleting it drops."""
    return run.results.count()


def ranking_runs_active_count(*, user_id: int) -> int:
    """Pending or running runs a designer started (they count against a cap)."""
    return RankingRun.objects.filter(created_by_id=user_id, status__in=RankingRun.ACTIVE).count()


def ranking_run_active_same(
    *,
    user_id: int,
    criterion_id: int,
    request: Mapping[str, Any],
) -> RankingRun | None:
    """The designer's pending or running run of the criterion made with the same request
    (``method``, ``runs``, ``seed``, ``confidence``, ``exclude_flagged``, ``parameters``,
    ``where``), if any: a form sent twice gets it instead of a second, identical run."""
    scalars = {k: request[k] for k in ("method", "runs", "seed", "confidence", "exclude_flagged")}
    for run in RankingRun.objects.filter(
        created_by_id=user_id,
        criterion_id=criterion_id,
        status__in=RankingRun.ACTIVE,
        **scalars,
    ).order_by("pk"):
        if run.parameters == request["parameters"] and run.where == request["where"]:
            return run
    return None


def ranking_run_rows(*, run: RankingRun) -> list[Row]:
    """A finished run's rows in ranking order (best value first)."""
    return [
        Row(
            system=r.system.label,
            value=r.value,
            spread=r.spread,
            rank_lo=r.rank_lo,
            rank_hi=r.rank_hi,
            cluster=r.cluster,
            comparisons=r.comparisons,
        )
        for r in run.results.select_related("system").order_by("cluster", "-value", "system__label")
    ]


def ranking_run_rows_claimed(*, run: RankingRun, met: bool | None = None) -> list[Row]:
    """The rows as they may be claimed elsewhere (the API's result, the means table): the
    clusters only when the minimum-data rule is met (``ranking_data_rule``; ``met``: its
    verdict, when the caller has it already), else None."""
    rows = ranking_run_rows(run=run)
    if ranking_data_rule(run=run).met if met is None else met:
        return rows
    return [replace(row, cluster=None) for row in rows]


def ranking_run_coverage(*, run: RankingRun) -> dict[str, Any]:
    """The share of the runs a run's rank ranges actually keep, beside the level asked:
    the trim drops ``ceil(runs * (1 - confidence) / 2)`` runs at each end (WMT's
    ``cluster.py``), so 100 runs at 0.95 keep 94 (94%), 200 keep 190 (95%)."""
    kept, share = stats.range_coverage(run.runs, run.confidence)
    return {
        "runs_kept": kept,
        "runs": run.runs,
        "coverage": share,
        "confidence_asked": run.confidence,
        "text": (
            f"the rank ranges keep {kept:,} of {run.runs:,} runs ({share:.1%}; "
            f"{run.confidence:.1%} asked)"
        ),
        "meaning": _coverage_meaning(run.method),
    }


def _coverage_meaning(method: str) -> str:
    """What a rank range's share of runs is, and is not, under ``method``."""
    if method == "wmt14":
        return (
            "A share of the runs kept, not a confidence level: WMT14's runs go over the same "
            "comparisons in shuffled order, one comparison at a time, not over resampled "
            "judgements, so its ranges are narrower than a bootstrap over judgements gives, "
            "and two ranges that do not overlap are no significance test. Read a difference "
            "from the clusters (shown once the stability check passes) or a Bradley-Terry run."
        )
    return (
        "A share of the bootstrap replicates kept (each resamples the judgements): a "
        "percentile interval of each system's rank."
    )


def ranking_run_meta(*, run: RankingRun) -> dict[str, Any]:
    """What a finished run rests on, for its exports: which judgements it used and left
    out (counts, excluded workers), the method, its parameters, runs, seed, confidence,
    the systems it could not rank and the minimum-data rule's verdict."""
    inputs = run.inputs or {}
    rule = ranking_data_rule(run=run)
    return {
        "campaign": run.campaign.slug,
        "criterion": run.criterion.name,
        "slice": describe(run.where),
        "ranking_run": run.pk,
        "method": run.method,
        "parameters": ranking_parameters_used(run=run),
        "runs": run.runs,
        "seed": run.seed,
        "confidence": run.confidence,
        "coverage": ranking_run_coverage(run=run),
        "judgements_total": inputs.get("judgements_total"),
        "judgements": run.n_judgements,
        "left_out": inputs.get("left_out", {}),
        "exclude_excluded_workers": run.exclude_flagged,
        "excluded_workers": inputs.get("excluded_workers", []),
        "comparisons": run.n_comparisons,
        "fingerprint": run.fingerprint,
        "judgements_fingerprint": inputs.get("judgements_fingerprint", ""),
        "unranked": list(inputs.get("unranked", [])),
        # As stored: each with its comparisons and (runs since they are counted) judgements.
        "provisional": [
            {k: p[k] for k in ("system", "comparisons", "judgements") if k in p}
            for p in inputs.get("provisional", [])
            if isinstance(p, dict)
        ],
        "data_rule": {
            "min_comparisons": rule.min_comparisons,
            "met": rule.met,
            "problems": rule.problems,
            "no_clusters": rule.no_clusters,
            # ranked systems short of the minimum (the page marks their rows with †)
            "thin": sorted(rule.thin_labels),
            "separation": (
                {"groups": rule.separation, "compared": rule.separation_compared}
                if rule.separation
                else None
            ),
        },
        "stability": run.stability,
    }
