"""The evaluation datasheet (HEDS 1.0) of a campaign: what the platform knows, merged with
the designer's saved answers (``Datasheet.answers``, keyed as ``reports.core.heds``)."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from annotations.models import (
    Campaign,
    Criterion,
    ImportJob,
    Judgement,
    JudgementScore,
    Output,
    Task,
    TaskOutput,
    WorkerCheck,
)
from annotations.selectors import monitoring
from annotations.selectors.worker import mr_attributes
from ranking.models import RankingRun
from reports.core import heds
from reports.models import Datasheet

LANGUAGE_KEYS = ("language", "lang")


@dataclass(frozen=True)
class Entry:
    key: str
    question: heds.Question
    criterion: str | None
    platform_answer: str
    person_answer: str

    @property
    def open(self) -> bool:
        return not (self.platform_answer or self.person_answer)

    @property
    def source(self) -> str:
        if self.platform_answer and self.person_answer:
            return "platform+person"
        if self.platform_answer:
            return "platform"
        return "person" if self.person_answer else "open"

    @property
    def answer(self) -> str:
        parts = [self.platform_answer, self.person_answer]
        return "\n\n".join(p for p in parts if p) or heds.TO_BE_ANSWERED


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


def _languages(values: list[dict]) -> str:
    found = sorted({str(v[k]) for v in values for k in LANGUAGE_KEYS if v.get(k)})
    return ", ".join(found)


def _campaign_answers(campaign: Campaign) -> dict[str, str]:
    a: dict[str, str] = {}
    items = list(campaign.items.values_list("input", "attributes"))
    systems = list(campaign.systems.all())
    outputs = list(Output.objects.filter(item__campaign=campaign).values_list("text", flat=True))
    tasks = Task.objects.filter(campaign=campaign)
    kinds = Counter(tasks.values_list("kind", flat=True))
    imported = bool(kinds) and set(kinds) == {Task.Kind.IMPORTED}

    if items:
        mrs = [mr_attributes(text) for text, _ in items[:200]]
        if all(mrs):
            names = sorted({name for pairs in mrs if pairs for name, _ in pairs})
            a["2.1"] = (
                f"Structured data: meaning representations (attribute[value] lists) with "
                f"the attributes {', '.join(names)}; {len(items)} inputs."
            )
        else:
            a["2.1"] = f"Text: {len(items)} inputs, {_words([t for t, _ in items])}."
    if outputs:
        a["2.2"] = f"Text: {len(outputs)} outputs, {_words(outputs)}."
    lang_in = _languages([attrs for _, attrs in items])
    lang_out = _languages([s.metadata for s in systems])
    if lang_in:
        a["2.4"] = lang_in
    if lang_out or lang_in:
        a["2.5"] = lang_out or lang_in

    judged = (
        JudgementScore.objects.filter(
            judgement__criterion__campaign=campaign, role=TaskOutput.Role.REGULAR
        )
        .values("output")
        .distinct()
        .count()
    )
    system_list = "; ".join(
        s.label + (f" ({s.name})" if s.name and s.name != s.label else "") for s in systems
    )
    a["3.1.1"] = (
        f"{judged} of the {len(outputs)} outputs ({len(systems)} systems on {len(items)} items) "
        f"received judgements. Systems: {system_list or 'none'}."
    )
    sel = [f"All {len(items)} items of the campaign, one output per system and item."]
    jobs = campaign.import_jobs.filter(status=ImportJob.Status.DONE)
    if jobs:
        sel.append("Imported from: " + ", ".join(f"{j.filename} ({j.kind})" for j in jobs) + ".")
    if imported:
        sel.append(
            f"Judgements imported from a finished evaluation ({kinds[Task.Kind.IMPORTED]} tasks)."
        )
    else:
        sel.append(
            f"Tasks designed by the platform with seed {campaign.task_seed}: "
            f"{campaign.outputs_per_task} outputs of one item per task, "
            f"{campaign.judgements_per_task} judgements per task"
            + (
                ", identical outputs of an item shown once"
                if campaign.merge_identical_outputs
                else ""
            )
            + "."
        )
    attrs = sorted({k for _, at in items for k in (at or {})})
    if attrs:
        sel.append("Item attributes (slices): " + ", ".join(attrs) + ".")
    a["3.1.2"] = " ".join(sel)

    workers = list(campaign.workers.all())
    active = set(
        Judgement.objects.filter(worker__campaign=campaign).values_list("worker_id", flat=True)
    )
    n_exp = sum(w.expert for w in workers)
    n_excl = sum(w.excluded for w in workers)
    a["3.2.1"] = (
        f"{len(active)} evaluators submitted judgements ({len(workers)} registered); "
        f"{n_excl} excluded from the results."
    )
    a["3.2.2"] = f"{n_exp} marked as experts, {len(workers) - n_exp} crowd workers (non-experts)."
    platforms = Counter(w.get_platform_display() for w in workers)
    channels = Counter(
        str(w.metadata.get("_channel")) for w in workers if w.metadata.get("_channel")
    )
    rec = ["Platforms: " + ", ".join(f"{p} ({n})" for p, n in sorted(platforms.items())) + "."]
    if channels:
        rec.append(
            "Channels: " + ", ".join(f"{c} ({n})" for c, n in sorted(channels.items())) + "."
        )
    bonused = [w for w in workers if w.bonus > 0]
    reviews = Counter(w.review for w in workers)
    rec.append(
        f"Bonuses: {sum((w.bonus for w in bonused), start=0):.2f} in total to {len(bonused)} "
        f"workers; payment decisions: {reviews.get('approved', 0)} approved, "
        f"{reviews.get('rejected', 0)} rejected."
    )
    a["3.2.3"] = " ".join(rec)
    if campaign.instructions.strip():
        a["3.2.4"] = (
            f"Written instructions ({len(campaign.instructions.split())} words) shown before "
            "the tasks" + ("; a consent text is shown first" if campaign.consent_text else "") + "."
        )

    if imported:
        a["3.3.2"] = (
            f"Judgements imported from a finished evaluation: "
            f"{Judgement.objects.filter(criterion__campaign=campaign).count()} judgements."
        )
    else:
        a["3.3.2"] = (
            f"Through the platform's web interface ({campaign.get_setup_display()}); "
            f"at most {campaign.tasks_per_worker} tasks per evaluator."
        )
    checks = Counter(
        (k, p)
        for k, p in WorkerCheck.objects.filter(worker__campaign=campaign).values_list(
            "kind", "passed"
        )
    )
    too_fast = Judgement.objects.filter(criterion__campaign=campaign, too_fast=True).count()
    qa = [
        f"Attention checks: {campaign.attention_check_rate:.0%} of tasks "
        f"({checks[('attention', True)]} passed, {checks[('attention', False)]} failed); "
        f"lowest pass rate {campaign.quality_threshold:.0%}"
        + ("; failing workers are stopped" if campaign.stop_failed_workers else "")
        + ".",
        f"Repeated tasks (self-consistency): {campaign.repeat_rate:.0%} of tasks "
        f"({checks[('repeat', True)]} passed, {checks[('repeat', False)]} failed).",
        f"Uniform-scoring checks failed: {checks[('uniform', False)]}.",
        f"Minimum time per task: {campaign.min_seconds_per_task} s "
        f"({campaign.get_min_time_policy_display().lower()}); {too_fast} judgements too fast.",
        f"Exclusions: {n_excl} workers excluded, {sum(w.flagged for w in workers)} flagged, "
        f"{sum(w.stopped for w in workers)} stopped.",
    ]
    a["3.3.3"] = " ".join(qa)
    per_task = Counter(
        TaskOutput.objects.filter(
            task__campaign=campaign, role=TaskOutput.Role.REGULAR
        ).values_list("task_id", flat=True)
    ).values()
    criteria = list(campaign.criteria.all())
    shown = [c.name for c in criteria if c.show_input]
    hidden = [c.name for c in criteria if not c.show_input]
    see = []
    if per_task:
        see.append(f"Each task shows {min(per_task)} to {max(per_task)} outputs of one item")
    else:
        see.append(f"Each task shows up to {campaign.outputs_per_task} outputs of one item")
    see.append(
        f", side by side in an order of their own per evaluator; the input is shown for "
        f"{', '.join(shown) or 'no criterion'} and hidden for {', '.join(hidden) or 'no criterion'}."
    )
    a["3.3.4"] = "".join(see)
    if not imported:
        a["3.3.5"] = (
            f"Free to start at any time; each task must be submitted within "
            f"{campaign.assignment_timeout_minutes} minutes, at most "
            f"{campaign.tasks_per_worker} tasks each; minimum {campaign.min_seconds_per_task} s per task."
        )
        a["3.3.7"] = "Online and unsupervised, on the evaluators' own devices."

    agreement = {ag.criterion.pk: ag for ag in monitoring.campaign_agreement(campaign=campaign)}
    for c in criteria:
        a.update(_criterion_answers(c, agreement.get(c.pk)))
    return a


def _criterion_answers(c: Criterion, ag: monitoring.CriterionAgreement | None) -> dict[str, str]:
    k = lambda qid: heds.answer_key(qid, c.name)  # noqa: E731
    a: dict[str, str] = {}
    magnitude = c.scale == Criterion.Scale.MAGNITUDE
    a[k("4.1.3")] = (
        "Relative to the input (shown with the outputs)"
        if c.show_input
        else "In its own right (input hidden)"
    ) + ("; scores relative to a standard output." if magnitude else ".")
    a[k("4.2.2")] = (
        f"Relative: magnitude estimation against a standard scored {c.standard} (RankME)."
        if magnitude
        else "Absolute scores, several outputs side by side (turned into ranks for ranking)."
    )
    a[k("4.2.3")] = "Intrinsic: evaluators judge the outputs themselves."
    a[k("4.3.1")] = c.name
    levels = c.likert_levels
    if magnitude:
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
    if c.content_checks:
        a[k("4.3.5")] += (
            " Under each output a checklist: " + ", ".join(map(str, c.content_checks)) + "."
        )
    a[k("4.3.6")] = "Not applicable: a rating instrument is used."
    a[k("4.3.7")] = c.question
    a[k("4.3.8")] = (
        "Relative quality estimation: rank-based magnitude estimation (RankME)."
        if magnitude
        else "Direct quality estimation."
    )
    run = (
        RankingRun.objects.filter(criterion=c, status=RankingRun.Status.DONE)
        .order_by("-finished_at", "-pk")
        .first()
    )
    if run is not None:
        excluded = len((run.inputs or {}).get("excluded_workers", []))
        a[k("4.3.9")] = (
            f"Each judgement's scores are turned into ranks (1 best, ties shared) and pairwise "
            f"comparisons; systems ranked by {run.get_method_display()} from "
            f"{run.n_judgements} judgements ({run.n_comparisons} comparisons), {run.runs} runs, "
            f"seed {run.seed}"
            + (
                f"; judgements of {excluded} excluded workers left out"
                if run.exclude_flagged
                else ""
            )
            + f" (ranking run {run.pk})."
        )
        a[k("4.3.10")] = (
            f"Rank ranges at {run.confidence:.0%} confidence over the {run.runs} runs; systems "
            f"grouped into clusters that differ significantly at the same level."
        )
    if ag is not None and ag.judgements:
        a[k("4.3.11")] = (
            f"Yes, on {ag.judgements} judgements by {ag.workers} evaluators: Krippendorff's alpha "
            f"{_fmt(ag.preference_alpha)} over pairwise preferences (ordinal), "
            f"{_fmt(ag.score_alpha)} over scores (interval"
            + (", log scores" if magnitude else "")
            + f"); pairwise kappa {_fmt(ag.inter_kappa)} between evaluators (inter), "
            f"{_fmt(ag.intra_kappa)} within (intra, repeated tasks)."
        )
    return a


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
                platform_answer=platform.get(key, "") if question.platform else "",
                person_answer=str(saved.get(key, "")),
            )
        )
    return FilledDatasheet(campaign=campaign.slug, name=campaign.name, entries=entries)


def datasheet_keys(*, campaign: Campaign) -> set[str]:
    criteria = list(campaign.criteria.values_list("name", flat=True))
    return {heds.answer_key(q.id, c) for q, c in heds.keys_for(criteria)}
