"""Reads for rankings: the judgements a run uses, as integer-indexed arrays, and results."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from django.conf import settings
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
    confidence, seed and the minimum comparisons. Two installations that rank the same
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


@dataclass(frozen=True)
class DataRule:
    """Whether a finished run has enough data for its clusters and stability verdict.

    The rule has two parts: enough comparisons (every system of the campaign ranked,
    each in at least ``min_comparisons`` comparisons) and a passing stability check of
    the clusters (``ranking.stats``: two random halves of the runs give the same
    clusters and no boundary rests near the cut). They fail for different reasons and
    call for different remedies: more judgements for the first, more runs for the
    second; :attr:`no_clusters` says which. Why the stability check failed is worded
    from the reasons the check stored (:func:`ranking.stats.stability_reasons`), the
    same source as its note, so the two never contradict each other.
    """

    min_comparisons: int
    thin_systems: list[tuple[str, int]]
    unranked: list[str]
    stable: bool | None
    #: the run's runs, and the runs its stability check suggests (None: not stored)
    runs: int = 0
    suggested_runs: int | None = None
    #: systems left out of the ranking with fewer than ``min_comparisons`` comparisons
    #: (label, comparisons): the others are ranked without them
    provisional: list[tuple[str, int]] = field(default_factory=list)
    method: str = ""
    #: why the stability check failed, one clause per failed part (empty: it passed)
    reasons: list[str] = field(default_factory=list)
    #: the runs needed as the check estimated them: (fewest, most or None: unbounded)
    runs_interval: tuple[int, int | None] | None = None
    #: the most runs this server accepts for the run's campaign (None: not stored)
    max_runs: int | None = None
    #: the check found fragile boundaries but could give no estimate of the runs needed
    runs_unknown: bool = False

    @property
    def stability_failure(self) -> str:
        """Why the stability check failed, in one clause list (empty when it did not)."""
        return "; ".join(self.reasons) or "it failed"

    @property
    def runs_advice(self) -> str:
        """What more runs can do, from the stored estimate: a number with its
        uncertainty, or that more runs than the server accepts would be needed."""
        interval = self.runs_interval
        if self.runs_unknown:
            return (
                f"no estimate of the runs needed: {self.runs:,} runs cannot tell whether "
                "more runs settle the fragile boundaries; if a range end lies on the cut no "
                "number of runs does, and more judgements of the systems at that boundary, "
                "not more runs, are needed"
            )
        if self.suggested_runs is None and interval is not None:
            cap = f"the {self.max_runs:,}" if self.max_runs else "the runs"
            return (
                f"settling them would take more runs than {cap} this server accepts: read "
                "those boundaries as uncertain"
            )
        if not self.suggested_runs or self.suggested_runs <= self.runs:
            return "rank again with more runs"
        if interval is None:
            return f"rank again with more runs (about {self.suggested_runs:,} suggested)"
        low, high = interval
        if high is None:
            needed = f"{low:,} at the fewest, no upper bound known"
        else:
            needed = f"about {low:,} to {high:,}"
        return (
            f"rank again with more runs ({self.suggested_runs:,} suggested; the runs needed: "
            f"{needed})"
        )

    @property
    def enough_comparisons(self) -> bool:
        return not self.thin_systems

    @property
    def met(self) -> bool:
        return (
            self.enough_comparisons
            and not self.unranked
            and not self.provisional
            and self.stable is True
        )

    @property
    def provisional_note(self) -> str:
        """What the provisional systems are and why they are not ranked; empty if none."""
        if not self.provisional:
            return ""
        listed = ", ".join(f"{label} ({n})" for label, n in self.provisional[:10])
        more = f" and {len(self.provisional) - 10} more" if len(self.provisional) > 10 else ""
        trueskill = (
            " Under TrueSkill a system's comparisons move its opponents' values too, so "
            "ranking them in would change the other systems' values and order."
            if self.method in ("wmt14", "bootstrap")
            else ""
        )
        return (
            f"{len(self.provisional)} system(s) are provisional, not ranked: fewer than "
            f"{self.min_comparisons} comparisons each: {listed}{more}. The ranking is "
            f"computed without them (as WMT leaves out systems below a minimum and "
            f"Chatbot Arena lists new models as preliminary).{trueskill}"
        )

    @property
    def problems(self) -> list[str]:
        """What is missing, one sentence each (empty when the rule is met)."""
        out = []
        if self.provisional:
            out.append(self.provisional_note)
        if self.thin_systems:
            listed = ", ".join(f"{label} ({n})" for label, n in self.thin_systems[:10])
            more = f" and {len(self.thin_systems) - 10} more" if len(self.thin_systems) > 10 else ""
            out.append(
                f"{len(self.thin_systems)} system(s) have fewer than {self.min_comparisons} "
                f"comparisons: {listed}{more}."
            )
        if self.unranked:
            out.append(
                f"{len(self.unranked)} system(s) have no comparisons at all and are unranked: "
                f"{', '.join(self.unranked[:10])}{' ...' if len(self.unranked) > 10 else ''}."
            )
        if self.stable is False:
            out.append(f"The stability check fails: {self.stability_failure}.")
        elif self.stable is None:
            out.append("The run stored no stability check.")
        return out

    @property
    def no_clusters(self) -> str:
        """Why no clusters are shown, naming the part of the rule that failed, and what to
        do about it (a sentence per failed part); empty when the rule is met."""
        out = []
        if self.provisional:
            out.append(
                f"Provisional systems: {len(self.provisional)} system(s) have fewer than "
                f"{self.min_comparisons} comparisons and are not ranked; collect more "
                "judgements for them, then rank again."
            )
        if self.thin_systems:
            out.append(
                f"Too few comparisons: {len(self.thin_systems)} system(s) have fewer than "
                f"{self.min_comparisons} (RANKING_MIN_COMPARISONS); collect more judgements "
                "for them, then rank again."
            )
        if self.unranked:
            out.append(
                f"Unranked systems: {len(self.unranked)} system(s) have no comparisons; "
                "collect judgements for them, then rank again."
            )
        if self.stable is False:
            out.append(
                f"The stability check fails at {self.runs:,} runs ({self.stability_failure}); "
                f"{self.runs_advice}."
            )
        elif self.stable is None:
            out.append("The run stored no stability check; rank again.")
        return " ".join(out)

    @property
    def no_clusters_short(self) -> str:
        """:attr:`no_clusters` in a few words (for a plot's axis label)."""
        parts = []
        if self.provisional:
            parts.append("provisional systems left out")
        if self.thin_systems:
            parts.append(f"fewer than {self.min_comparisons} comparisons")
        if self.unranked:
            parts.append("unranked systems")
        if self.stable is False:
            parts.append(f"stability check fails at {self.runs:,} runs")
        elif self.stable is None:
            parts.append("no stability check")
        return "; ".join(parts)


def ranking_data_rule(*, run: RankingRun) -> DataRule:
    """Apply the minimum-data rule (``RANKING_MIN_COMPARISONS``, as the run stored it)
    to a finished run."""
    inputs = run.inputs or {}
    minimum = int(inputs.get("min_comparisons", settings.RANKING_MIN_COMPARISONS))
    thin = [
        (label, n)
        for label, n in run.results.order_by("comparisons", "system__label").values_list(
            "system__label", "comparisons"
        )
        if n < minimum
    ]
    stability = run.stability or {}
    suggested = stability.get("suggested_runs")
    interval = stability.get("runs_interval")
    cap = stability.get("max_runs")
    return DataRule(
        min_comparisons=minimum,
        thin_systems=thin,
        unranked=list(inputs.get("unranked", [])),
        stable=bool(stability["stable"]) if "stable" in stability else None,
        runs=run.runs,
        suggested_runs=int(suggested) if isinstance(suggested, int | float) else None,
        provisional=[(p["system"], int(p["comparisons"])) for p in inputs.get("provisional", [])],
        method=run.method,
        reasons=stats.stability_reasons(stability) if stability.get("stable") is False else [],
        runs_interval=(
            (int(interval[0]), None if interval[1] is None else int(interval[1]))
            if isinstance(interval, list) and len(interval) == 2
            else None
        ),
        max_runs=int(cap) if isinstance(cap, int) else None,
        runs_unknown=_runs_unknown(stability),
    )


def _runs_unknown(stability: dict[str, Any]) -> bool:
    """Whether a stored check gave no estimate of the runs needed. Checks stored before
    ``runs_unknown`` existed suggested twice their runs then: an interval with no upper
    bound whose lower end is within twice the runs is the same case."""
    if "runs_unknown" in stability:
        return bool(stability["runs_unknown"])
    interval, runs = stability.get("runs_interval"), stability.get("n_runs")
    return (
        stability.get("stable") is False
        and isinstance(interval, list)
        and len(interval) == 2
        and interval[1] is None
        and isinstance(runs, int)
        and isinstance(interval[0], int)
        and interval[0] <= 2 * runs
    )


@dataclass(frozen=True)
class CheckCounts:
    """How often each content check was ticked for each system's outputs."""

    checks: list[str]
    systems: list[str]
    outputs: list[int]  # outputs judged per system (the trials)
    ticked: list[list[int]]  # [system][check]


def content_check_counts(
    *,
    criterion: Criterion,
    exclude_excluded_workers: bool = True,
    where: Mapping[str, str] | None = None,
) -> CheckCounts | None:
    """Per system: outputs judged and how many times each enabled content check was ticked.

    None when the criterion has no content checks. Uses the judgements a ranking uses.
    """
    checks = [str(c) for c in (criterion.content_checks or [])]
    if not checks:
        return None
    qs = _counted_scores(
        criterion=criterion, exclude_excluded_workers=exclude_excluded_workers, where=where
    )
    outputs: Counter[str] = Counter()
    ticked: Counter[tuple[str, str]] = Counter()
    for label, ticks in qs.values_list("output__system__label", "checks").iterator():
        outputs[label] += 1
        for key in set(ticks or []):
            ticked[(label, str(key))] += 1
    systems = sorted(outputs)
    return CheckCounts(
        checks=checks,
        systems=systems,
        outputs=[outputs[s] for s in systems],
        ticked=[[ticked[(s, c)] for c in checks] for s in systems],
    )


@dataclass(frozen=True)
class CheckCell:
    """How often one content check was ticked on one system's outputs: the share and its
    Wilson interval."""

    ticked: int
    rate: float
    lo: float
    hi: float


@dataclass(frozen=True)
class CheckRow:
    system: str
    outputs: int  # outputs judged (the trials)
    cells: list[CheckCell]  # one per check, in ``CheckSummary.checks`` order


@dataclass(frozen=True)
class CheckSummary:
    """A run's content checks per system, as its result page (and API) show them."""

    checks: list[str]
    confidence: float
    rows: list[CheckRow]


def content_check_summary(
    *, run: RankingRun, confidence: float = DEFAULT_CONFIDENCE
) -> CheckSummary | None:
    """Per system, the share of its outputs on which workers ticked each content check,
    with a Wilson interval (``ranking.stats.wilson_interval``, 95% by default), on the
    judgements the run ranks (its slice, its exclusions); None when the criterion has no
    content checks."""
    counts = content_check_counts(
        criterion=run.criterion, exclude_excluded_workers=run.exclude_flagged, where=run.where
    )
    if counts is None:
        return None
    trials = np.asarray(counts.outputs, dtype=np.int64)
    ticked = np.asarray(counts.ticked, dtype=np.int64).reshape(len(counts.systems), -1)
    rows = []
    for i, system in enumerate(counts.systems):
        lo, hi = stats.wilson_interval(
            ticked[i], np.full(ticked.shape[1], trials[i]), confidence=confidence
        )
        rows.append(
            CheckRow(
                system=system,
                outputs=int(trials[i]),
                cells=[
                    CheckCell(
                        ticked=int(ticked[i, j]),
                        rate=float(ticked[i, j] / trials[i]),
                        lo=float(lo[j]),
                        hi=float(hi[j]),
                    )
                    for j in range(ticked.shape[1])
                ],
            )
        )
    return CheckSummary(checks=counts.checks, confidence=confidence, rows=rows)


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
    }


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
        "provisional": [{"system": label, "comparisons": n} for label, n in rule.provisional],
        "data_rule": {
            "min_comparisons": rule.min_comparisons,
            "met": rule.met,
            "problems": rule.problems,
            "no_clusters": rule.no_clusters,
        },
        "stability": run.stability,
    }
