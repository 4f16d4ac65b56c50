"""The evaluation datasheet's answers (HEDS 1.0, keyed as :mod:`reports.core.heds`),
worded from values: pure, no Django.

``reports.selectors.datasheet`` reads the campaign (its settings, items, outputs,
workers, checks, criteria, the latest ranking run, the agreement) and passes what it
read; these functions only write the sentences into :class:`Answers`, and say there what
a person is asked to add (``Answers.ask``). A campaign whose judgements were all imported
from a finished evaluation (``imported``) states only what the stored data show: this
platform's settings and interface are not how those judgements were collected.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Protocol

from annotations.core.inputs import mr_attributes
from reports.core import heds


@dataclass
class Answers:
    """The platform's answers by key, and what a person is asked to add (``ask``)."""

    text: dict[str, str] = field(default_factory=dict)
    ask: dict[str, str] = field(default_factory=dict)

    def __setitem__(self, key: str, value: str) -> None:
        self.text[key] = value


@dataclass(frozen=True)
class CampaignSettings:
    """The campaign's settings the datasheet words (``*_display``: the choice's label)."""

    task_seed: int
    outputs_per_task: int
    judgements_per_task: int
    merge_identical_outputs: bool
    tasks_per_worker: int
    setup_display: str
    together: bool  # set-up 1: every criterion of an item on one page
    instructions: str
    consent_text: bool
    attention_check_rate: float
    quality_threshold: float
    stop_failed_workers: bool
    repeat_rate: float
    min_seconds_per_task: int
    min_time_policy_display: str
    assignment_timeout_minutes: int


@dataclass(frozen=True)
class CriterionFacts:
    """One criterion as section 4 words it.

    ``ranking``: a WMT relative ranking (``import_wmt``), whose stored 1..k values are
    ranks of the outputs shown together, turned around so that higher is better, not
    scores. ``ticked``: checklist ticks are stored for it."""

    name: str
    question: str
    show_input: bool
    magnitude: bool
    likert: bool
    ranking: bool
    imported: bool
    ticked: bool
    standard: Any = None
    standard_input: str = ""
    standard_text: str = ""
    max_digits: int = 6
    likert_levels: list[dict[str, Any]] = field(default_factory=list)
    content_checks: list[Any] = field(default_factory=list)
    #: every stored judgement of it scores one output (a file of one output per row)
    one_output: bool = False

    def key(self, question_id: str) -> str:
        return heds.answer_key(question_id, self.name)


@dataclass(frozen=True)
class StoredScores:
    """The stored scores of an imported criterion's outputs: their range and number."""

    low: float | None = None
    high: float | None = None
    n: int = 0


@dataclass(frozen=True)
class RunFacts:
    """The latest finished ranking run of a criterion, as 4.3.9 and 4.3.10 word it:
    ``kept`` of ``runs`` bootstrap runs (``share``) inside the rank ranges;
    ``clusters_claimed`` when the minimum-data rule holds, else its ``problems``."""

    pk: int
    method_display: str
    n_judgements: int
    n_comparisons: int
    runs: int
    seed: int
    exclude_flagged: bool
    excluded_workers: int
    confidence: float
    kept: int
    share: float
    clusters_claimed: bool
    problems: list[str] = field(default_factory=list)
    #: what the ranges' share of runs is under the run's method (``ranking_run_coverage``)
    ranges_meaning: str = ""


class Agreement(Protocol):
    """The evaluators' agreement on a criterion (``annotations.selectors.agreement``)."""

    @property
    def judgements(self) -> int: ...
    @property
    def workers(self) -> int: ...
    @property
    def excluded_judgements(self) -> int: ...
    @property
    def excluded_workers(self) -> int: ...
    @property
    def preference_alpha(self) -> float | None: ...
    @property
    def score_alpha(self) -> float | None: ...
    @property
    def inter_kappa(self) -> float | None: ...
    @property
    def intra_kappa(self) -> float | None: ...


# Numbers and lists in words -----------------------------------------------------------------


def words(texts: list[str]) -> str:
    """The texts' length: "mean 12.5 words (from 3 to 30)", "" for no text, and "no texts
    given" when every text is empty (imported judgements of a file without texts, such
    as WMT's rankings: "mean 0.0 words" read as empty outputs)."""
    lengths = [len(t.split()) for t in texts]
    if not lengths:
        return ""
    if not any(lengths):
        return "no texts given (the file had none)"
    return f"mean {statistics.fmean(lengths):.1f} words (from {min(lengths)} to {max(lengths)})"


def fmt(value: float | None) -> str:
    """A coefficient to three decimals, or "n/a" when undefined."""
    return "n/a" if value is None else f"{value:.3f}"


def languages(codes: list[str]) -> str:
    """Stored language codes with how often each occurs ("en (630)", or "de (3), en (2)")."""
    counts = Counter(c for c in codes if c)
    return ", ".join(f"{code} ({n:,})" for code, n in sorted(counts.items()))


def count(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless one: "1 output", "3 outputs"."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def number(value: float) -> str:
    """A stored score as short as it goes ("3", "2.5")."""
    return f"{value:g}"


# Sections 2 and 3 ---------------------------------------------------------------------------


def inputs_and_outputs(
    a: Answers,
    *,
    inputs: list[str],
    input_languages: list[str],
    outputs: list[str],
    output_languages: list[str],
) -> None:
    """Section 2: the inputs and outputs, their form and stored languages."""
    if inputs and not any(text.strip() for text in inputs):
        # WMT's rankings, and other files without the source: no text, so no language
        a["2.1"] = f"No input texts stored ({len(inputs):,} items, the files gave none)."
        a["2.4"] = "Not applicable: no input texts are stored."
    elif inputs:
        mrs = [mr_attributes(text) for text in inputs[:200]]
        if all(mrs):
            names = sorted({name for pairs in mrs if pairs for name, _ in pairs})
            a["2.1"] = (
                f"Structured data: meaning representations (attribute[value] lists) with "
                f"the attributes {', '.join(names)}; {len(inputs):,} inputs."
            )
        else:
            a["2.1"] = f"Text: {len(inputs):,} inputs, {words(inputs)}."
        a["2.4"] = "Stored language of the inputs: " + languages(input_languages)
    if outputs:
        a["2.2"] = f"Text: {len(outputs):,} outputs, {words(outputs)}."
        a["2.5"] = "Stored language of the outputs: " + languages(output_languages)


def system_coverage(
    a: Answers,
    *,
    systems: list[tuple[str, str, int, int]],
    n_judged: int,
    n_outputs: int,
    n_items: int,
) -> None:
    """3.1.1: the outputs judged, per system (``systems``: label, name, outputs judged,
    outputs, in order)."""
    system_list = "; ".join(
        label + (f" ({name})" if name and name != label else "") + f": {judged:,} of {total:,}"
        for label, name, judged, total in systems
    )
    a["3.1.1"] = (
        f"{n_judged:,} of the {n_outputs:,} outputs ({len(systems):,} systems on "
        f"{n_items:,} items) received judgements. Judged outputs per system: "
        f"{system_list or 'none'}."
    )


def selection(
    a: Answers,
    s: CampaignSettings,
    *,
    imported: bool,
    n_judged_outputs: int,
    n_outputs: int,
    n_judged_items: int,
    n_items: int,
    jobs: list[tuple[str, str]],
    n_imported_tasks: int,
    n_task_items: int,
    attributes: list[str],
) -> None:
    """3.1.2: how the items and outputs judged were chosen (``jobs``: the finished
    imports' file and kind; ``n_task_items``: the items of the designed tasks)."""
    sel = [
        f"Judgements cover {n_judged_outputs:,} of the {n_outputs:,} outputs, on "
        f"{n_judged_items:,} of the {n_items:,} items."
    ]
    if jobs:
        sel.append("Imported from: " + ", ".join(f"{name} ({kind})" for name, kind in jobs) + ".")
    if imported:
        sel.append(f"Judgements imported from a finished evaluation ({n_imported_tasks:,} tasks).")
        a.ask["3.1.2"] = "how the original evaluation chose the items and outputs it showed"
    else:
        sel.append(
            f"Tasks designed by the platform with seed {s.task_seed} on "
            f"{n_task_items:,} of the {n_items:,} items: "
            f"{count(s.outputs_per_task, 'output')} of one item per task, "
            f"{s.judgements_per_task} judgements per task"
            + (", identical outputs of an item shown once" if s.merge_identical_outputs else "")
            + "."
        )
    if attributes:
        sel.append("Item attributes (slices): " + ", ".join(attributes) + ".")
    a["3.1.2"] = " ".join(sel)


def evaluators(
    a: Answers,
    s: CampaignSettings,
    *,
    imported: bool,
    n_active: int,
    n_registered: int,
    n_excluded: int,
    n_experts: int,
    recruitment: list[str],
) -> None:
    """3.2: the evaluators, how they were recruited and paid (``recruitment``), what they
    were told."""
    a["3.2.1"] = (
        f"{count(n_active, 'evaluator')} submitted judgements ({n_registered:,} registered); "
        f"{n_excluded:,} excluded from the results."
    )
    a["3.2.2"] = f"{n_experts} marked as experts, {n_registered - n_experts} not marked as experts."
    if imported:
        a.ask["3.2.3"] = "how the original evaluation recruited and paid its evaluators"
    a["3.2.3"] = " ".join(recruitment)
    if s.instructions.strip() and not imported:
        a["3.2.4"] = (
            f"Written instructions ({len(s.instructions.split())} words) shown before "
            "the tasks" + ("; a consent text is shown first" if s.consent_text else "") + "."
        )


def recruitment(
    *,
    imported: bool,
    platforms: Counter[str],
    channels: Counter[str],
    bonuses: Sequence[Decimal],
    approved: int,
    rejected: int,
) -> list[str]:
    """3.2.3's sentences: workers per platform and channel, the bonuses paid (one per
    worker given one) and the payment decisions."""
    rec = ["Platforms: " + ", ".join(f"{p} ({n:,})" for p, n in sorted(platforms.items())) + "."]
    if channels:
        rec.append(
            "Channels: " + ", ".join(f"{c} ({n:,})" for c, n in sorted(channels.items())) + "."
        )
    if not imported or bonuses or approved or rejected:
        rec.append(
            f"Bonuses: {sum(bonuses, start=Decimal(0)):.2f} in total to "
            f"{len(bonuses):,} workers; payment decisions: {approved} approved, "
            f"{rejected} rejected."
        )
    return rec


def collection(
    a: Answers, s: CampaignSettings, *, imported: bool, n_judgements: int, n_imported: int
) -> None:
    """3.3.2: how the judgements were collected (``n_judgements``: all of them, read for
    an imported campaign only; ``n_imported``: those imported)."""
    if imported:
        a["3.3.2"] = (
            "Judgements imported from a finished evaluation: "
            f"{n_judgements:,} judgements, of all criteria."
        )
        a.ask["3.3.2"] = "how the original evaluation collected them"
    else:
        a["3.3.2"] = (
            f"Through the platform's web interface ({s.setup_display}); "
            f"at most {s.tasks_per_worker} tasks per evaluator."
            + (
                f" Besides, {n_imported:,} judgements were imported from a finished "
                "evaluation: this platform's settings below do not describe them."
                if n_imported
                else ""
            )
        )


def quality_checks(
    a: Answers,
    s: CampaignSettings,
    *,
    imported: bool,
    checks: Counter[tuple[str, bool]],
    too_fast: int,
    n_excluded: int,
    n_flagged: int,
    n_stopped: int,
) -> None:
    """3.3.3: the quality checks (``checks``: how many of each kind passed and failed)
    and exclusions; the stored ones only, when imported."""
    exclusions = (
        f"Exclusions: {n_excluded:,} workers excluded, {n_flagged} flagged, {n_stopped} stopped."
    )
    if imported:
        qa = []
        if checks:
            qa.append(
                "Quality checks stored: "
                + ", ".join(
                    f"{kind} {'passed' if passed else 'failed'} {n:,}"
                    for (kind, passed), n in sorted(checks.items())
                )
                + "."
            )
        if too_fast:
            qa.append(f"{too_fast:,} judgements marked too fast.")
        qa.append(exclusions)
        a["3.3.3"] = " ".join(qa)
        a.ask["3.3.3"] = "the quality checks of the original evaluation"
        return
    a["3.3.3"] = " ".join(
        [
            f"Attention checks: {s.attention_check_rate:.0%} of tasks "
            f"({checks[('attention', True)]:,} passed, {checks[('attention', False)]:,} "
            f"failed); lowest pass rate {s.quality_threshold:.0%} (attention "
            "checks and repeated tasks each rated on their own; a worker below it is "
            "flagged" + (" and stopped)" if s.stop_failed_workers else ")") + ".",
            f"Repeated tasks (self-consistency): {s.repeat_rate:.0%} of tasks "
            f"({checks[('repeat', True)]:,} passed, {checks[('repeat', False)]:,} failed).",
            f"Uniform-scoring checks failed: {checks[('uniform', False)]:,}.",
            f"Minimum time per task: {s.min_seconds_per_task} s "
            f"({s.min_time_policy_display.lower()}); "
            f"{too_fast:,} judgements too fast.",
            exclusions,
        ]
    )


def presentation(
    a: Answers,
    s: CampaignSettings,
    *,
    imported: bool,
    outputs_per_task: Collection[int],
    ticked: set[str],
    show_input: list[tuple[str, bool]],
) -> None:
    """3.3.4: what a task shows, and how (``outputs_per_task``: the outputs each task
    showed; ``show_input``: each criterion's name and whether it shows the input)."""
    if outputs_per_task:
        low, high = min(outputs_per_task), max(outputs_per_task)
        shown = count(high, "output") if low == high else f"{low} to {high} outputs"
        see = [f"Each task shows {shown} of one item"]
    else:
        see = [f"Each task shows up to {count(s.outputs_per_task, 'output')} of one item"]
    if imported:
        if ticked:
            see.append(
                f"; checklist ticks are stored for {', '.join(sorted(ticked))}, so a checklist "
                "was shown for it"
            )
        see.append(".")
        a.ask["3.3.4"] = "whether the input was shown, and how the outputs were laid out"
    elif s.together:
        see.append(", every criterion of the item on one page")
        see.append(_input_on_one_page(a, {shown for _, shown in show_input}))
    else:
        shown_for = [name for name, shown in show_input if shown]
        hidden_for = [name for name, shown in show_input if not shown]
        see.append(
            f", side by side in an order of their own per evaluator; the input is shown for "
            f"{', '.join(shown_for) or 'no criterion'} and hidden for "
            f"{', '.join(hidden_for) or 'no criterion'}."
        )
    a["3.3.4"] = "".join(see)


def _input_on_one_page(a: Answers, show: set[bool]) -> str:
    """3.3.4 when every criterion of an item shares one page: whether the input is on it
    (a person is asked when the criteria disagree)."""
    if show == {True}:
        return "; the input is shown on every page."
    if show == {False}:
        return "; the input is not shown."
    a.ask["3.3.4"] = "whether the input was on the page: the criteria disagree and share one page"
    return "."


def conditions(a: Answers, s: CampaignSettings, *, imported: bool) -> None:
    """3.3.5, 3.3.7, 3.3.8: when and where evaluators work (this platform's only)."""
    if imported:
        return
    a["3.3.5"] = (
        f"Free to start at any time; each task must be submitted within "
        f"{s.assignment_timeout_minutes} minutes, at most "
        f"{s.tasks_per_worker} tasks each; minimum {s.min_seconds_per_task} s per task."
    )
    a["3.3.7"] = "Online and unsupervised, on the evaluators' own devices."
    a["3.3.8"] = (
        "Not applicable: evaluators work online at a place of their own choosing; the "
        "platform records no other conditions."
    )


# Section 4, per criterion -------------------------------------------------------------------


def criterion_quality(a: Answers, cr: CriterionFacts) -> None:
    """4.1.3 to 4.3.1: the frame of reference, the kind of judgement, the criterion."""
    k, magnitude, imported = cr.key, cr.magnitude, cr.imported
    if imported:
        a.ask[k("4.1.3")] = "whether the original evaluators saw the input"
    else:
        a[k("4.1.3")] = (
            "Relative to the input (shown with the outputs)"
            if cr.show_input
            else "In its own right (input hidden)"
        ) + ("; scores relative to a standard output." if magnitude else ".")
    a[k("4.2.2")] = (
        "Relative: the evaluators ranked the outputs shown together from best to worst "
        "(WMT relative ranking, ties allowed)."
        if cr.ranking
        else f"Relative: magnitude estimation against a standard scored {cr.standard} (RankME)."
        if magnitude and not imported
        else "Relative: magnitude estimation against a standard (RankME)."
        if magnitude
        else "Absolute scores, one output at a time."
        if cr.one_output
        else "Absolute scores, several outputs side by side (turned into ranks for ranking)."
    )
    if imported and magnitude:
        a.ask[k("4.2.2")] = "the standard the original evaluators scored against, and its value"
    a[k("4.2.3")] = "Intrinsic: evaluators judge the outputs themselves."
    a[k("4.3.1")] = cr.name


def instrument(a: Answers, cr: CriterionFacts, stored: StoredScores) -> None:
    """4.3.3 to 4.3.6: the rating instrument, its size, values and presentation
    (``stored``: the stored scores, which an imported criterion's answers state)."""
    k = cr.key
    if cr.imported:
        _imported_instrument(a, cr, stored)
    elif cr.magnitude:
        digits = cr.max_digits
        a[k("4.3.3")] = f"Open-ended: any non-negative number of up to {digits} digits."
        a[k("4.3.4")] = f"0 to {10**digits - 1}; the standard's value is {cr.standard}."
        a[k("4.3.5")] = (
            f"A number box under each output; the standard (RankME's modulus) is shown with its "
            f"value {cr.standard} on every task"
            + (
                f": input '{cr.standard_input}', output '{cr.standard_text}'"
                if cr.standard_text
                else ""
            )
            + "."
        )
    elif cr.likert:
        levels = cr.likert_levels
        a[k("4.3.3")] = f"{len(levels)} levels."
        a[k("4.3.4")] = "; ".join(
            f"{lv.get('value')} = {lv.get('label', '')}"
            + (f" ({lv['descriptor']})" if lv.get("descriptor") else "")
            for lv in levels
        )
        a[k("4.3.5")] = "One choice per level, each with its label and descriptor."
    else:
        a[k("4.3.3")] = "Continuous."
        a[k("4.3.4")] = "0 to 100."
        a[k("4.3.5")] = "An unlabelled slider from 0 to 100 under each output."
    if cr.content_checks and not cr.imported:
        a.text[k("4.3.5")] += (
            " Under each output a checklist: " + ", ".join(map(str, cr.content_checks)) + "."
        )
    a[k("4.3.6")] = "Not applicable: a rating instrument is used."


def _imported_instrument(a: Answers, cr: CriterionFacts, stored: StoredScores) -> None:
    """4.3.3 to 4.3.5 of imported judgements: what the stored scores show; a person is
    asked for the rest (a WMT ranking's format fixes it)."""
    k = cr.key
    if stored.n:
        a[k("4.3.4")] = (
            f"Stored scores range from {number(stored.low or 0)} to "
            f"{number(stored.high or 0)} ({stored.n:,} scores)."
        )
    a.ask[k("4.3.4")] = "the values the original instrument allowed"
    a.ask[k("4.3.3")] = "the size of the original rating instrument"
    if cr.ranking:
        n = len(cr.likert_levels) or int(stored.high or 0)
        a[k("4.3.3")] = f"{n:,} ranks: up to {n:,} outputs ranked together."
        a[k("4.3.4")] = (
            f"Ranks 1 (best) to {n:,} (worst), ties allowed; stored as values k down to 1 "
            f"(value = k + 1 - rank, k the outputs ranked together in that judgement, at "
            f"most {n:,}), so the stored values are ranks, not scores, and the same rank "
            "stores a higher value in a longer ranking"
            + (f" ({stored.n:,} stored)." if stored.n else ".")
        )
        # The WMT format fixes them: nothing for a person to add.
        del a.ask[k("4.3.3")], a.ask[k("4.3.4")]
    if cr.ticked:
        a[k("4.3.5")] = "Checklist ticks are stored for each output: a checklist was shown."
    a.ask[k("4.3.5")] = "how the original instrument was presented"


def criterion_method(a: Answers, cr: CriterionFacts) -> None:
    """4.3.7, 4.3.8: the question asked and the kind of quality estimation."""
    k = cr.key
    if not cr.imported:
        a[k("4.3.7")] = cr.question
    a[k("4.3.8")] = (
        "Relative quality estimation: a ranking of the outputs shown together (WMT "
        "relative ranking)."
        if cr.ranking
        else "Relative quality estimation: rank-based magnitude estimation (RankME)."
        if cr.magnitude
        else "Direct quality estimation."
    )


def ranking_answers(a: Answers, cr: CriterionFacts, run: RunFacts) -> None:
    """4.3.9, 4.3.10: how the latest finished run ranked the systems, and its clusters."""
    k = cr.key
    a[k("4.3.9")] = (
        f"Each judgement's scores are turned into ranks (1 best, ties shared) and pairwise "
        f"comparisons; systems ranked by {run.method_display} from "
        f"{run.n_judgements:,} judgements of this criterion ({run.n_comparisons:,} "
        f"comparisons), {run.runs:,} runs, "
        f"seed {run.seed}"
        + (
            f"; judgements of {run.excluded_workers:,} excluded workers left out"
            if run.exclude_flagged
            else ""
        )
        + f" (ranking run {run.pk})."
    )
    ranges = (
        f"Rank ranges keep {run.kept:,} of the {run.runs:,} runs ({run.share:.1%}; "
        f"{run.confidence:.0%} asked)"
        + (
            f" ({run.ranges_meaning[0].lower()}{run.ranges_meaning[1:].rstrip('.')})"
            if run.ranges_meaning
            else ""
        )
    )
    a[k("4.3.10")] = (
        f"{ranges}. Clusters follow WMT14's rule (the minimum-data rule and the "
        "stability check are met): a boundary is drawn where the worst rank of every "
        "system above it lies above the best rank of every system below it, so a "
        "boundary separates every system above it from every system below it; within a "
        "cluster, systems are linked by overlapping rank ranges, and some of them may "
        "still differ (two members' own ranges need not overlap)."
        if run.clusters_claimed
        else f"{ranges}. No clusters are claimed: {' '.join(run.problems)}"
    )


def agreement_answer(
    a: Answers, cr: CriterionFacts, ag: Agreement, *, ranking_kept_excluded: bool
) -> None:
    """4.3.11: the evaluators' agreement on the criterion (``ranking_kept_excluded``: the
    ranking of 4.3.9 kept the excluded workers' judgements that the agreement leaves out).
    When no coefficient is defined (one evaluator, or no output judged twice) the answer
    is No, saying why: "Yes ... n/a" throughout claimed an assessment there was none of."""
    coefficients = (ag.preference_alpha, ag.score_alpha, ag.inter_kappa, ag.intra_kappa)
    if all(c is None for c in coefficients):
        a[cr.key("4.3.11")] = (
            f"No: on {ag.judgements:,} judgement{'s' if ag.judgements != 1 else ''} by "
            f"{ag.workers:,} evaluator{'s' if ag.workers != 1 else ''} no agreement "
            "coefficient is defined (it needs outputs judged by at least two evaluators, "
            "or by one evaluator twice)."
        )
        return
    a[cr.key("4.3.11")] = (
        f"Yes, on {ag.judgements:,} judgements by {ag.workers:,} evaluators"
        + (
            f" (the {ag.excluded_judgements:,} judgements of {ag.excluded_workers:,} "
            "excluded workers left out"
            + (
                "; the ranking in 4.3.9 kept them)"
                if ranking_kept_excluded
                else ", as in the ranking)"
            )
            if ag.excluded_judgements
            else ""
        )
        + f": Krippendorff's alpha "
        f"{fmt(ag.preference_alpha)} over pairwise preferences (ordinal), "
        f"{fmt(ag.score_alpha)} over scores (interval"
        + (", log scores" if cr.magnitude else "")
        + f"); pairwise kappa {fmt(ag.inter_kappa)} between evaluators (inter), "
        f"{fmt(ag.intra_kappa)} within (intra, repeated tasks)."
    )
