"""The evaluation datasheet (HEDS 1.0) of a campaign: what the platform knows, merged with
the designer's saved answers (``Datasheet.answers``, keyed as ``reports.core.heds``)."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Min, QuerySet

from annotations.core.inputs import mr_attributes
from annotations.models import (
    Campaign,
    Criterion,
    ImportJob,
    Judgement,
    JudgementScore,
    Output,
    System,
    Task,
    TaskOutput,
    Worker,
    WorkerCheck,
)
from annotations.selectors import agreement as agreement_selectors
from ranking.models import RankingRun
from ranking.selectors.runs import ranking_data_rule
from ranking.stats import range_coverage
from reports.core import heds
from reports.models import Datasheet


@dataclass(frozen=True)
class Entry:
    """One question of the datasheet. ``platform_answer`` states only what the stored
    data show; ``ask`` names what only a person can add to it (the question then stays
    open); a person's answer replaces the platform's, it is never appended to it."""

    key: str
    question: heds.Question
    criterion: str | None
    platform_answer: str
    person_answer: str
    ask: str = ""

    @property
    def open(self) -> bool:
        return not self.person_answer and (not self.platform_answer or bool(self.ask))

    @property
    def source(self) -> str:
        if self.person_answer:
            return "person"
        if self.platform_answer:
            return "platform, incomplete" if self.ask else "platform"
        return "open"

    @property
    def answer(self) -> str:
        """The answer as given: the person's when there is one, else the platform's (the
        renderings add :data:`heds.TO_BE_ANSWERED` and ``ask`` while :attr:`open`)."""
        return self.person_answer or self.platform_answer or heds.TO_BE_ANSWERED

    @property
    def to_be_answered(self) -> str:
        """The marker of an open question: what a person is asked to add."""
        return heds.TO_BE_ANSWERED + (f" ({self.ask})" if self.ask else "")


@dataclass(frozen=True)
class FilledDatasheet:
    campaign: str
    name: str
    entries: list[Entry] = field(default_factory=list)

    @property
    def open_keys(self) -> list[str]:
        return [e.key for e in self.entries if e.open]

    def sections(self) -> list[tuple[str, str, list[Entry]]]:
        return [
            (sid, title, [e for e in self.entries if e.question.section == sid])
            for sid, title in heds.SECTIONS.items()
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "campaign": self.campaign,
            "name": self.name,
            "heds_version": heds.VERSION,
            "source": heds.SOURCE,
            "questions": [
                {
                    "key": e.key,
                    "id": e.question.id,
                    "section": e.question.section,
                    "criterion": e.criterion,
                    "question": e.question.text,
                    "answer": None if e.open else e.answer,
                    "platform_answer": e.platform_answer or None,
                    "person_answer": e.person_answer or None,
                    "to_be_answered": e.to_be_answered if e.open else None,
                    "source": e.source,
                }
                for e in self.entries
            ],
            "open": self.open_keys,
        }


def _words(texts: list[str]) -> str:
    lengths = [len(t.split()) for t in texts]
    if not lengths:
        return ""
    return f"mean {statistics.fmean(lengths):.1f} words (from {min(lengths)} to {max(lengths)})"


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _languages(codes: list[str]) -> str:
    """Stored language codes with how often each occurs ("en (630)", or "de (3), en (2)")."""
    counts = Counter(c for c in codes if c)
    return ", ".join(f"{code} ({n:,})" for code, n in sorted(counts.items()))


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


#: ``Criterion.scale_settings["source"]`` of a WMT relative ranking imported with
#: ``import_wmt`` (``annotations.importing.wmt``)
WMT_RANKING = "wmt-ranking"


@dataclass
class _Answers:
    """The platform's answers by key, and what a person is asked to add (``ask``)."""

    text: dict[str, str] = field(default_factory=dict)
    ask: dict[str, str] = field(default_factory=dict)

    def __setitem__(self, key: str, value: str) -> None:
        self.text[key] = value


@dataclass(frozen=True)
class _Facts:
    """What every section of the datasheet reads about the campaign, read once."""

    campaign: Campaign
    items: list[tuple[str, dict[str, str], str]]
    systems: list[System]
    # (pk, text, system_id, item_id, language) per output
    outputs: list[tuple[int, str, int, int, str]]
    tasks: QuerySet[Task]
    kinds: Counter[str]
    n_imported: int
    # Every judgement came from a finished evaluation (none collected here): the
    # platform's settings and interface are not how they were collected.
    imported: bool
    judged_outputs: set[int]
    workers: list[Worker]

    @property
    def n_excluded(self) -> int:
        return sum(w.excluded for w in self.workers)


def _facts(campaign: Campaign) -> _Facts:
    tasks = Task.objects.filter(campaign=campaign)
    judged_on = Counter(
        Judgement.objects.filter(criterion__campaign=campaign).values_list("task__kind", flat=True)
    )
    n_imported = judged_on[Task.Kind.IMPORTED]
    return _Facts(
        campaign=campaign,
        items=list(campaign.items.values_list("input", "attributes", "language")),
        systems=list(campaign.systems.order_by("label")),
        outputs=list(
            Output.objects.filter(item__campaign=campaign).values_list(
                "pk", "text", "system_id", "item_id", "language"
            )
        ),
        tasks=tasks,
        kinds=Counter(tasks.values_list("kind", flat=True)),
        n_imported=n_imported,
        imported=n_imported > 0 and n_imported == sum(judged_on.values()),
        judged_outputs=set(
            JudgementScore.objects.filter(
                judgement__criterion__campaign=campaign, role=TaskOutput.Role.REGULAR
            )
            .values_list("output_id", flat=True)
            .distinct()
        ),
        workers=list(campaign.workers.all()),
    )


def _campaign_answers(campaign: Campaign) -> _Answers:
    """What the stored data show. For a campaign whose judgements were all imported from
    a finished evaluation, the campaign's own settings (attention-check rate, threshold,
    minimum time, the interface, the criteria's presets) describe this platform, not the
    evaluation that collected them: they are not stated, and a person is asked."""
    a = _Answers()
    f = _facts(campaign)
    _inputs_and_outputs(a, f)
    _system_coverage(a, f)
    _selection(a, f)
    _evaluators(a, f)
    _collection(a, f)
    _quality_checks(a, f)
    criteria = list(campaign.criteria.all())
    ticked = _criteria_with_stored_checks(campaign)
    _presentation(a, f, criteria, ticked)
    _conditions(a, f)
    agreement = {
        ag.criterion.pk: ag for ag in agreement_selectors.campaign_agreement(campaign=campaign)
    }
    for c in criteria:
        _criterion_answers(a, c, agreement.get(c.pk), imported=f.imported, ticked=c.name in ticked)
    return a


def _inputs_and_outputs(a: _Answers, f: _Facts) -> None:
    """Section 2: the inputs and outputs, their form and stored languages."""
    items = f.items
    if items:
        mrs = [mr_attributes(text) for text, _, _ in items[:200]]
        if all(mrs):
            names = sorted({name for pairs in mrs if pairs for name, _ in pairs})
            a["2.1"] = (
                f"Structured data: meaning representations (attribute[value] lists) with "
                f"the attributes {', '.join(names)}; {len(items):,} inputs."
            )
        else:
            a["2.1"] = f"Text: {len(items):,} inputs, {_words([t for t, _, _ in items])}."
        a["2.4"] = "Stored language of the inputs: " + _languages([lang for *_, lang in items])
    if f.outputs:
        a["2.2"] = f"Text: {len(f.outputs):,} outputs, {_words([o[1] for o in f.outputs])}."
        a["2.5"] = "Stored language of the outputs: " + _languages([o[4] for o in f.outputs])


def _system_coverage(a: _Answers, f: _Facts) -> None:
    """3.1.1: the outputs judged, per system."""
    outputs, judged = f.outputs, f.judged_outputs
    per_system_all = Counter(o[2] for o in outputs)
    per_system_judged = Counter(o[2] for o in outputs if o[0] in judged)
    system_list = "; ".join(
        s.label
        + (f" ({s.name})" if s.name and s.name != s.label else "")
        + f": {per_system_judged[s.pk]:,} of {per_system_all[s.pk]:,}"
        for s in f.systems
    )
    a["3.1.1"] = (
        f"{len(judged):,} of the {len(outputs):,} outputs ({len(f.systems):,} systems on "
        f"{len(f.items):,} items) received judgements. Judged outputs per system: "
        f"{system_list or 'none'}."
    )


def _selection(a: _Answers, f: _Facts) -> None:
    """3.1.2: how the items and outputs judged were chosen."""
    campaign, items = f.campaign, f.items
    judged_items = {o[3] for o in f.outputs if o[0] in f.judged_outputs}
    sel = [
        f"Judgements cover {len(f.judged_outputs):,} of the {len(f.outputs):,} outputs, on "
        f"{len(judged_items):,} of the {len(items):,} items."
    ]
    jobs = campaign.import_jobs.filter(status=ImportJob.Status.DONE)
    if jobs:
        sel.append("Imported from: " + ", ".join(f"{j.filename} ({j.kind})" for j in jobs) + ".")
    if f.imported:
        sel.append(
            f"Judgements imported from a finished evaluation ({f.kinds[Task.Kind.IMPORTED]:,} tasks)."
        )
        a.ask["3.1.2"] = "how the original evaluation chose the items and outputs it showed"
    else:
        task_items = f.tasks.filter(kind=Task.Kind.REGULAR).values("item").distinct().count()
        sel.append(
            f"Tasks designed by the platform with seed {campaign.task_seed} on "
            f"{task_items:,} of the {len(items):,} items: "
            f"{_count(campaign.outputs_per_task, 'output')} of one item per task, "
            f"{campaign.judgements_per_task} judgements per task"
            + (
                ", identical outputs of an item shown once"
                if campaign.merge_identical_outputs
                else ""
            )
            + "."
        )
    attrs = sorted({k for _, at, _ in items for k in (at or {})})
    if attrs:
        sel.append("Item attributes (slices): " + ", ".join(attrs) + ".")
    a["3.1.2"] = " ".join(sel)


def _evaluators(a: _Answers, f: _Facts) -> None:
    """3.2: the evaluators, how they were recruited and paid, what they were told."""
    campaign, workers, imported = f.campaign, f.workers, f.imported
    active = set(
        Judgement.objects.filter(worker__campaign=campaign).values_list("worker_id", flat=True)
    )
    n_exp = sum(w.expert for w in workers)
    a["3.2.1"] = (
        f"{len(active):,} evaluators submitted judgements ({len(workers):,} registered); "
        f"{f.n_excluded:,} excluded from the results."
    )
    a["3.2.2"] = f"{n_exp} marked as experts, {len(workers) - n_exp} not marked as experts."
    if imported:
        a.ask["3.2.3"] = "how the original evaluation recruited and paid its evaluators"
    a["3.2.3"] = " ".join(_recruitment(f))
    if campaign.instructions.strip() and not imported:
        a["3.2.4"] = (
            f"Written instructions ({len(campaign.instructions.split())} words) shown before "
            "the tasks" + ("; a consent text is shown first" if campaign.consent_text else "") + "."
        )


def _recruitment(f: _Facts) -> list[str]:
    """3.2.3's sentences: platforms, channels, bonuses and payment decisions."""
    workers = f.workers
    platforms = Counter(w.get_platform_display() for w in workers)
    channels = Counter(
        str(w.metadata.get("_channel")) for w in workers if w.metadata.get("_channel")
    )
    rec = ["Platforms: " + ", ".join(f"{p} ({n:,})" for p, n in sorted(platforms.items())) + "."]
    if channels:
        rec.append(
            "Channels: " + ", ".join(f"{c} ({n:,})" for c, n in sorted(channels.items())) + "."
        )
    bonused = [w for w in workers if w.bonus > 0]
    reviews = Counter(w.review for w in workers)
    approved = reviews.get(Worker.Review.APPROVED, 0)
    rejected = reviews.get(Worker.Review.REJECTED, 0)
    if not f.imported or bonused or approved or rejected:
        rec.append(
            f"Bonuses: {sum((w.bonus for w in bonused), start=0):.2f} in total to "
            f"{len(bonused):,} workers; payment decisions: {approved} approved, "
            f"{rejected} rejected."
        )
    return rec


def _collection(a: _Answers, f: _Facts) -> None:
    """3.3.2: how the judgements were collected."""
    campaign = f.campaign
    if f.imported:
        a["3.3.2"] = (
            f"Judgements imported from a finished evaluation: "
            f"{Judgement.objects.filter(criterion__campaign=campaign).count():,} judgements."
        )
        a.ask["3.3.2"] = "how the original evaluation collected them"
    else:
        a["3.3.2"] = (
            f"Through the platform's web interface ({campaign.get_setup_display()}); "
            f"at most {campaign.tasks_per_worker} tasks per evaluator."
            + (
                f" Besides, {f.n_imported:,} judgements were imported from a finished "
                "evaluation: this platform's settings below do not describe them."
                if f.n_imported
                else ""
            )
        )


def _quality_checks(a: _Answers, f: _Facts) -> None:
    """3.3.3: the quality checks and exclusions (the stored ones only, when imported)."""
    campaign, workers = f.campaign, f.workers
    checks = Counter(
        (k, p)
        for k, p in WorkerCheck.objects.filter(worker__campaign=campaign).values_list(
            "kind", "passed"
        )
    )
    too_fast = Judgement.objects.filter(criterion__campaign=campaign, too_fast=True).count()
    exclusions = (
        f"Exclusions: {f.n_excluded:,} workers excluded, {sum(w.flagged for w in workers)} "
        f"flagged, {sum(w.stopped for w in workers)} stopped."
    )
    if f.imported:
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
            f"Attention checks: {campaign.attention_check_rate:.0%} of tasks "
            f"({checks[('attention', True)]:,} passed, {checks[('attention', False)]:,} "
            f"failed); lowest pass rate {campaign.quality_threshold:.0%} (attention "
            "checks and repeated tasks each rated on their own; a worker below it is "
            "flagged" + (" and stopped)" if campaign.stop_failed_workers else ")") + ".",
            f"Repeated tasks (self-consistency): {campaign.repeat_rate:.0%} of tasks "
            f"({checks[('repeat', True)]:,} passed, {checks[('repeat', False)]:,} failed).",
            f"Uniform-scoring checks failed: {checks[('uniform', False)]:,}.",
            f"Minimum time per task: {campaign.min_seconds_per_task} s "
            f"({campaign.get_min_time_policy_display().lower()}); "
            f"{too_fast:,} judgements too fast.",
            exclusions,
        ]
    )


def _presentation(a: _Answers, f: _Facts, criteria: list[Criterion], ticked: set[str]) -> None:
    """3.3.4: what a task shows, and how."""
    shown_tasks = TaskOutput.objects.filter(task__campaign=f.campaign, role=TaskOutput.Role.REGULAR)
    if f.imported:
        shown_tasks = shown_tasks.filter(task__kind=Task.Kind.IMPORTED)
    per_task = Counter(shown_tasks.values_list("task_id", flat=True)).values()
    if per_task:
        low, high = min(per_task), max(per_task)
        shown = _count(high, "output") if low == high else f"{low} to {high} outputs"
        see = [f"Each task shows {shown} of one item"]
    else:
        see = [f"Each task shows up to {_count(f.campaign.outputs_per_task, 'output')} of one item"]
    if f.imported:
        if ticked:
            see.append(
                f"; checklist ticks are stored for {', '.join(sorted(ticked))}, so a checklist "
                "was shown for it"
            )
        see.append(".")
        a.ask["3.3.4"] = "whether the input was shown, and how the outputs were laid out"
    elif f.campaign.setup == Campaign.Setup.TOGETHER:
        see.append(", every criterion of the item on one page")
        see.append(_input_on_one_page(a, criteria))
    else:
        shown_for = [c.name for c in criteria if c.show_input]
        hidden_for = [c.name for c in criteria if not c.show_input]
        see.append(
            f", side by side in an order of their own per evaluator; the input is shown for "
            f"{', '.join(shown_for) or 'no criterion'} and hidden for "
            f"{', '.join(hidden_for) or 'no criterion'}."
        )
    a["3.3.4"] = "".join(see)


def _input_on_one_page(a: _Answers, criteria: list[Criterion]) -> str:
    """3.3.4 when every criterion of an item shares one page: whether the input is on it
    (a person is asked when the criteria disagree)."""
    show = {c.show_input for c in criteria}
    if show == {True}:
        return "; the input is shown on every page."
    if show == {False}:
        return "; the input is not shown."
    a.ask["3.3.4"] = "whether the input was on the page: the criteria disagree and share one page"
    return "."


def _conditions(a: _Answers, f: _Facts) -> None:
    """3.3.5, 3.3.7, 3.3.8: when and where evaluators work (this platform's only)."""
    if f.imported:
        return
    campaign = f.campaign
    a["3.3.5"] = (
        f"Free to start at any time; each task must be submitted within "
        f"{campaign.assignment_timeout_minutes} minutes, at most "
        f"{campaign.tasks_per_worker} tasks each; minimum {campaign.min_seconds_per_task} s per task."
    )
    a["3.3.7"] = "Online and unsupervised, on the evaluators' own devices."
    a["3.3.8"] = (
        "Not applicable: evaluators work online at a place of their own choosing; the "
        "platform records no other conditions."
    )


def _criteria_with_stored_checks(campaign: Campaign) -> set[str]:
    """Criteria with at least one stored checklist tick (``JudgementScore.checks``)."""
    return set(
        JudgementScore.objects.filter(judgement__criterion__campaign=campaign)
        .exclude(checks=[])
        .values_list("judgement__criterion__name", flat=True)
        .distinct()
    )


@dataclass(frozen=True)
class _Criterion:
    """One criterion as section 4 reads it."""

    c: Criterion
    imported: bool
    ticked: bool

    def key(self, question_id: str) -> str:
        return heds.answer_key(question_id, self.c.name)

    @property
    def magnitude(self) -> bool:
        return self.c.scale == Criterion.Scale.MAGNITUDE

    @property
    def ranking(self) -> bool:
        """A WMT relative ranking (``import_wmt``): the stored 1..k values are ranks of the
        outputs shown together, turned around so that higher is better; not scores."""
        return (self.c.scale_settings or {}).get("source") == WMT_RANKING


def _criterion_answers(
    a: _Answers,
    c: Criterion,
    ag: agreement_selectors.CriterionAgreement | None,
    *,
    imported: bool,
    ticked: bool,
) -> None:
    cr = _Criterion(c, imported=imported, ticked=ticked)
    _criterion_quality(a, cr)
    _instrument(a, cr)
    _criterion_method(a, cr)
    run = (
        RankingRun.objects.filter(criterion=c, status=RankingRun.Status.DONE)
        .order_by("-finished_at", "-pk")
        .first()
    )
    if run is not None:
        _ranking_answers(a, cr, run)
    if ag is not None and ag.judgements:
        _agreement_answer(a, cr, ag, run)


def _criterion_quality(a: _Answers, cr: _Criterion) -> None:
    """4.1.3 to 4.3.1: the frame of reference, the kind of judgement, the criterion."""
    c, k, magnitude, imported = cr.c, cr.key, cr.magnitude, cr.imported
    if imported:
        a.ask[k("4.1.3")] = "whether the original evaluators saw the input"
    else:
        a[k("4.1.3")] = (
            "Relative to the input (shown with the outputs)"
            if c.show_input
            else "In its own right (input hidden)"
        ) + ("; scores relative to a standard output." if magnitude else ".")
    a[k("4.2.2")] = (
        "Relative: the evaluators ranked the outputs shown together from best to worst "
        "(WMT relative ranking, ties allowed)."
        if cr.ranking
        else f"Relative: magnitude estimation against a standard scored {c.standard} (RankME)."
        if magnitude and not imported
        else "Relative: magnitude estimation against a standard (RankME)."
        if magnitude
        else "Absolute scores, several outputs side by side (turned into ranks for ranking)."
    )
    if imported and magnitude:
        a.ask[k("4.2.2")] = "the standard the original evaluators scored against, and its value"
    a[k("4.2.3")] = "Intrinsic: evaluators judge the outputs themselves."
    a[k("4.3.1")] = c.name


def _instrument(a: _Answers, cr: _Criterion) -> None:
    """4.3.3 to 4.3.6: the rating instrument, its size, values and presentation."""
    c, k = cr.c, cr.key
    if cr.imported:
        _imported_instrument(a, cr)
    elif cr.magnitude:
        digits = int(c.scale_settings.get("max_digits", 6))
        a[k("4.3.3")] = f"Open-ended: any non-negative number of up to {digits} digits."
        a[k("4.3.4")] = f"0 to {10**digits - 1}; the standard's value is {c.standard}."
        a[k("4.3.5")] = (
            f"A number box under each output; the standard (RankME's modulus) is shown with its "
            f"value {c.standard} on every task"
            + (
                f": input '{c.standard_input}', output '{c.standard_text}'"
                if c.standard_text
                else ""
            )
            + "."
        )
    elif c.scale == Criterion.Scale.LIKERT:
        levels = c.likert_levels
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
    if c.content_checks and not cr.imported:
        a.text[k("4.3.5")] += (
            " Under each output a checklist: " + ", ".join(map(str, c.content_checks)) + "."
        )
    a[k("4.3.6")] = "Not applicable: a rating instrument is used."


def _imported_instrument(a: _Answers, cr: _Criterion) -> None:
    """4.3.3 to 4.3.5 of imported judgements: what the stored scores show; a person is
    asked for the rest (a WMT ranking's format fixes it)."""
    c, k = cr.c, cr.key
    scores = JudgementScore.objects.filter(
        judgement__criterion=c, role=TaskOutput.Role.REGULAR
    ).aggregate(low=Min("score"), high=Max("score"), n=Count("pk"))
    if scores["n"]:
        a[k("4.3.4")] = (
            f"Stored scores range from {_number(scores['low'])} to "
            f"{_number(scores['high'])} ({scores['n']:,} scores)."
        )
    a.ask[k("4.3.4")] = "the values the original instrument allowed"
    a.ask[k("4.3.3")] = "the size of the original rating instrument"
    if cr.ranking:
        n = len(c.likert_levels) or int(scores["high"] or 0)
        a[k("4.3.3")] = f"{n:,} ranks: up to {n:,} outputs ranked together."
        a[k("4.3.4")] = (
            f"Ranks 1 (best) to {n:,} (worst), ties allowed; stored as values {n:,} down to "
            f"1 (value = {n + 1} - rank), so the stored 1 to {n:,} are ranks, not scores"
            + (f" ({scores['n']:,} stored)." if scores["n"] else ".")
        )
        # The WMT format fixes them: nothing for a person to add.
        del a.ask[k("4.3.3")], a.ask[k("4.3.4")]
    if cr.ticked:
        a[k("4.3.5")] = "Checklist ticks are stored for each output: a checklist was shown."
    a.ask[k("4.3.5")] = "how the original instrument was presented"


def _criterion_method(a: _Answers, cr: _Criterion) -> None:
    """4.3.7, 4.3.8: the question asked and the kind of quality estimation."""
    k = cr.key
    if not cr.imported:
        a[k("4.3.7")] = cr.c.question
    a[k("4.3.8")] = (
        "Relative quality estimation: a ranking of the outputs shown together (WMT "
        "relative ranking)."
        if cr.ranking
        else "Relative quality estimation: rank-based magnitude estimation (RankME)."
        if cr.magnitude
        else "Direct quality estimation."
    )


def _ranking_answers(a: _Answers, cr: _Criterion, run: RankingRun) -> None:
    """4.3.9, 4.3.10: how the latest finished run ranked the systems, and its clusters."""
    k = cr.key
    excluded = len((run.inputs or {}).get("excluded_workers", []))
    a[k("4.3.9")] = (
        f"Each judgement's scores are turned into ranks (1 best, ties shared) and pairwise "
        f"comparisons; systems ranked by {run.get_method_display()} from "
        f"{run.n_judgements:,} judgements ({run.n_comparisons:,} comparisons), {run.runs:,} runs, "
        f"seed {run.seed}"
        + (f"; judgements of {excluded:,} excluded workers left out" if run.exclude_flagged else "")
        + f" (ranking run {run.pk})."
    )
    rule = ranking_data_rule(run=run)
    kept, share = range_coverage(run.runs, run.confidence)
    ranges = (
        f"Rank ranges keep {kept:,} of the {run.runs:,} runs ({share:.1%}; "
        f"{run.confidence:.0%} asked)"
    )
    a[k("4.3.10")] = (
        f"{ranges}. Clusters follow WMT14's rule (the minimum-data rule and the "
        "stability check are met): a boundary is drawn where the worst rank of every "
        "system above it lies above the best rank of every system below it, so a "
        "boundary separates every system above it from every system below it; within a "
        "cluster, systems are linked by overlapping rank ranges, and some of them may "
        "still differ (two members' own ranges need not overlap)."
        if rule.met
        else f"{ranges}. No clusters are claimed: {' '.join(rule.problems)}"
    )


def _agreement_answer(
    a: _Answers,
    cr: _Criterion,
    ag: agreement_selectors.CriterionAgreement,
    run: RankingRun | None,
) -> None:
    """4.3.11: the evaluators' agreement on the criterion."""
    a[cr.key("4.3.11")] = (
        f"Yes, on {ag.judgements:,} judgements by {ag.workers:,} evaluators"
        + (
            f" (the {ag.excluded_judgements:,} judgements of {ag.excluded_workers:,} "
            "excluded workers left out"
            + (
                "; the ranking in 4.3.9 kept them)"
                if run is not None and not run.exclude_flagged
                else ", as in the ranking)"
            )
            if ag.excluded_judgements
            else ""
        )
        + f": Krippendorff's alpha "
        f"{_fmt(ag.preference_alpha)} over pairwise preferences (ordinal), "
        f"{_fmt(ag.score_alpha)} over scores (interval"
        + (", log scores" if cr.magnitude else "")
        + f"); pairwise kappa {_fmt(ag.inter_kappa)} between evaluators (inter), "
        f"{_fmt(ag.intra_kappa)} within (intra, repeated tasks)."
    )


def _number(value: float) -> str:
    return f"{value:g}"


def datasheet_for(*, campaign: Campaign) -> FilledDatasheet:
    """The campaign's datasheet: every HEDS question in order (section 4 per criterion),
    the platform's answer where it has one, the designer's saved answer where given."""
    platform = _campaign_answers(campaign)
    saved = (
        Datasheet.objects.filter(campaign=campaign).values_list("answers", flat=True).first() or {}
    )
    criteria = list(campaign.criteria.values_list("name", flat=True))
    entries = []
    for question, criterion in heds.keys_for(criteria):
        key = heds.answer_key(question.id, criterion)
        entries.append(
            Entry(
                key=key,
                question=question,
                criterion=criterion,
                platform_answer=platform.text.get(key, "") if question.platform else "",
                person_answer=str(saved.get(key, "")),
                ask=platform.ask.get(key, "") if question.platform else "",
            )
        )
    return FilledDatasheet(campaign=campaign.slug, name=campaign.name, entries=entries)


def datasheet_keys(*, campaign: Campaign) -> set[str]:
    criteria = list(campaign.criteria.values_list("name", flat=True))
    return {heds.answer_key(q.id, c) for q, c in heds.keys_for(criteria)}
