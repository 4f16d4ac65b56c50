"""The minimum-data rule of a finished ranking run: whether it has enough comparisons
(``RANKING_MIN_COMPARISONS``, as the run stored it) and a passing stability check for its
clusters to be shown, and what to do when it has not."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from ranking import stats
from ranking.models import RankingResult, RankingRun

#: systems a note names before "and N more" (a campaign rarely has more; a longer list
#: hid the very system a reader looked for)
LISTED = 30


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
    #: the ranked systems' groups (labels, highest first) when the data leave values
    #: unbounded: under Bradley-Terry every comparison between groups went to the higher
    #: one (``separation_compared``), or, under any method, some groups were never
    #: compared with each other, directly or through others; empty when neither
    separation: list[list[str]] = field(default_factory=list)
    separation_compared: bool = True
    #: the thin systems' judgements, by label, where those are fewer than the minimum
    #: (a system is thin by its comparisons, its judgements, or both)
    thin_judgements: dict[str, int] = field(default_factory=dict)

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
    def thin_labels(self) -> frozenset[str]:
        """The systems of :attr:`thin_systems`, by label (the table marks their rows)."""
        return frozenset(label for label, _n in self.thin_systems)

    @property
    def enough_comparisons(self) -> bool:
        return not self.thin_systems

    @property
    def enough_data(self) -> bool:
        """Whether the data part of the rule holds (the stability check is the other)."""
        return (
            self.enough_comparisons
            and not self.unranked
            and not self.provisional
            and not self.separation
        )

    @property
    def met(self) -> bool:
        return self.enough_data and self.stable is True

    @property
    def separation_note(self) -> str:
        """Why the values are not estimates when the data leave them unbounded; empty if
        they do not."""
        if not self.separation:
            return ""
        groups = " | ".join(", ".join(group) for group in self.separation[:6])
        more = (
            f" | ... ({len(self.separation) - 6} more groups)" if len(self.separation) > 6 else ""
        )
        if not self.separation_compared:
            return (
                f"The systems fall into {len(self.separation)} groups that were never compared "
                f"with each other, directly or through other systems: {groups}{more}. Values "
                "and ranks across groups say nothing about which is better; collect "
                "judgements that show systems of different groups together."
            )
        top = self.separation[0]
        first = (
            f"{top[0]} won every comparison it was in"
            if len(top) == 1 and len(self.separation) == 2
            else "every comparison between groups was won by the higher group"
        )
        if self.method == "expected_wins":
            return (
                f"Expected wins cannot bound these values: {first} (groups, highest first: "
                f"{groups}{more}). Every bootstrap resample then repeats the same wins, so "
                "the spreads at those boundaries are zero and the rank ranges certain by "
                "construction, not by the data. Collect more judgements of these systems, or "
                "rank with TrueSkill (wmt14), whose prior keeps its uncertainty."
            )
        return (
            f"Bradley-Terry cannot estimate these values: {first} (groups, highest first: "
            f"{groups}{more}). The maximum-likelihood strengths are then infinitely far "
            "apart: the values and spreads shown are set by the fit's small ridge, not by "
            "the data, and the rank ranges at those boundaries are certain only because "
            "every resample repeats the same wins. Collect more judgements of these systems, "
            "or rank with TrueSkill (wmt14), whose prior keeps values finite."
        )

    @property
    def provisional_note(self) -> str:
        """What the provisional systems are and why they are not ranked; empty if none."""
        if not self.provisional:
            return ""
        listed = ", ".join(f"{label} ({n})" for label, n in self.provisional[:LISTED])
        more = (
            f" and {len(self.provisional) - LISTED} more" if len(self.provisional) > LISTED else ""
        )
        trueskill = (
            " Under TrueSkill a system's comparisons move its opponents' values too, so "
            "ranking them in would change the other systems' values and order."
            if self.method in ("wmt14", "bootstrap")
            else ""
        )
        return (
            f"{len(self.provisional)} system(s) are provisional, not ranked: fewer than "
            f"{self.min_comparisons} judgements or comparisons each, in all or with the "
            f"systems ranked (a system that loses its opponents to this rule loses their "
            f"comparisons too; comparisons in all given): {listed}{more}. The ranking is "
            f"computed without them (as WMT leaves out systems below a minimum and "
            f"Chatbot Arena lists new models as preliminary).{trueskill}"
        )

    def _thin_counts(self, label: str, comparisons: int) -> str:
        """A thin system with the counts below the minimum: "sysA (28 comparisons)",
        "sysB (9 judgements)" (its 34 comparisons meet it), or both."""
        short = []
        if comparisons < self.min_comparisons:
            short.append(f"{comparisons:,} comparisons")
        if label in self.thin_judgements:
            short.append(f"{self.thin_judgements[label]:,} judgements")
        return f"{label} ({', '.join(short) or f'{comparisons:,} comparisons'})"

    @property
    def problems(self) -> list[str]:
        """What is missing, one sentence each (empty when the rule is met)."""
        out = []
        if self.provisional:
            out.append(self.provisional_note)
        if self.thin_systems:
            listed = ", ".join(self._thin_counts(label, n) for label, n in self.thin_systems[:10])
            more = f" and {len(self.thin_systems) - 10} more" if len(self.thin_systems) > 10 else ""
            out.append(
                f"{len(self.thin_systems)} system(s) have fewer than {self.min_comparisons} "
                f"judgements or comparisons: {listed}{more}."
            )
        if self.unranked:
            out.append(
                f"{len(self.unranked)} system(s) have no comparisons at all and are unranked: "
                f"{', '.join(self.unranked[:10])}{' ...' if len(self.unranked) > 10 else ''}."
            )
        if self.separation:
            out.append(self.separation_note)
        # On data the rule rejects there are no clusters to check: no verdict (as the
        # page, the API and the rank command say), so none here either.
        if self.stable is False and self.enough_data:
            out.append(f"The stability check fails: {self.stability_failure}.")
        elif self.stable is None and self.enough_data:
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
                f"{self.min_comparisons} judgements or comparisons and are not ranked; collect more "
                "judgements for them, then rank again."
            )
        if self.thin_systems:
            out.append(
                f"Too few comparisons: {len(self.thin_systems)} system(s) have fewer than "
                f"{self.min_comparisons} judgements or comparisons (RANKING_MIN_COMPARISONS); collect more judgements "
                "for them, then rank again."
            )
        if self.unranked:
            out.append(
                f"Unranked systems: {len(self.unranked)} system(s) have no comparisons; "
                "collect judgements for them, then rank again."
            )
        if self.separation:
            out.append(
                (
                    "Groups never compared: some systems were never shown with the others, "
                    "directly or through other systems; collect judgements that show them "
                    "together, then rank again."
                )
                if not self.separation_compared
                else (
                    "Unbounded values: some systems won (or lost) every comparison with the "
                    "others, so "
                    + (
                        "every resample repeats the same wins (a zero spread)"
                        if self.method == "expected_wins"
                        else "Bradley-Terry has no finite estimate"
                    )
                    + "; collect more judgements of them, then rank again."
                )
            )
        if self.stable is False and self.enough_data:
            out.append(
                f"The stability check fails at {self.runs:,} runs ({self.stability_failure}); "
                f"{self.runs_advice}."
            )
        elif self.stable is None and self.enough_data:
            out.append("The run stored no stability check; rank again.")
        return " ".join(out)

    @property
    def no_clusters_short(self) -> str:
        """:attr:`no_clusters` in a few words (for a plot's axis label)."""
        parts = []
        if self.provisional:
            parts.append("provisional systems left out")
        if self.thin_systems:
            parts.append(f"fewer than {self.min_comparisons} judgements or comparisons")
        if self.unranked:
            parts.append("unranked systems")
        if self.separation:
            parts.append(
                "groups never compared" if not self.separation_compared else "values unbounded"
            )
        if self.stable is False and self.enough_data:
            parts.append(f"stability check fails at {self.runs:,} runs")
        elif self.stable is None and self.enough_data:
            parts.append("no stability check")
        return "; ".join(parts)


def ranking_data_rule(*, run: RankingRun) -> DataRule:
    """Apply the minimum-data rule (``RANKING_MIN_COMPARISONS``, as the run stored it)
    to a finished run."""
    counts = run.results.order_by("comparisons", "system__label").values_list(
        "system__label", "comparisons"
    )
    return _data_rule(run, list(counts))


def ranking_data_rules(*, runs: Sequence[RankingRun]) -> dict[int, DataRule]:
    """:func:`ranking_data_rule` of each run of ``runs`` (by id), their systems' counts
    read in one query: a list of runs asks once, not once per run."""
    counts: dict[int, list[tuple[str, int]]] = {run.pk: [] for run in runs}
    rows = (
        RankingResult.objects.filter(run_id__in=list(counts))
        .order_by("run_id", "comparisons", "system__label")
        .values_list("run_id", "system__label", "comparisons")
    )
    for run_id, label, n in rows:
        counts[run_id].append((label, n))
    return {run.pk: _data_rule(run, counts[run.pk]) for run in runs}


def _data_rule(run: RankingRun, counts: list[tuple[str, int]]) -> DataRule:
    """The rule of ``run``, whose systems' comparisons are ``counts`` (label, count;
    fewest first, then by label)."""
    inputs = run.inputs or {}
    minimum = int(inputs.get("min_comparisons", settings.RANKING_MIN_COMPARISONS))
    # Too few comparisons, or (runs since judgements are counted) too few judgements:
    # a system's comparisons in one five-way judgement are one judge's one look.
    few_judgements = {str(label): int(n) for label, n in inputs.get("thin_judgements", [])}
    thin = [(label, n) for label, n in counts if n < minimum or label in few_judgements]
    stability = run.stability or {}
    suggested = stability.get("suggested_runs")
    interval = stability.get("runs_interval")
    cap = stability.get("max_runs")
    split = inputs.get("separation")
    split = split if isinstance(split, dict) else {}
    return DataRule(
        min_comparisons=minimum,
        thin_systems=thin,
        thin_judgements={
            label: few_judgements[label] for label, _ in thin if label in few_judgements
        },
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
        separation=[[str(label) for label in group] for group in split.get("groups", [])],
        separation_compared=bool(split.get("compared", True)),
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
