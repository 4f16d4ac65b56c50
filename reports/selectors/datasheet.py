"""The evaluation datasheet (HEDS 1.0) of a campaign: what the platform knows, merged with
the designer's saved answers (``Datasheet.answers``, keyed as ``reports.core.heds``).

This module reads; ``reports.core.datasheet_text`` words what it read."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Min, QuerySet

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
from annotations.selectors.judgements import regular_q
from ranking.models import RankingRun
from ranking.selectors.data_rule import ranking_data_rule
from ranking.selectors.runs import ranking_run_coverage
from ranking.stats import range_coverage
from reports.core import datasheet_text as text
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


@dataclass(frozen=True)
class _Facts:
    """What every section of the datasheet reads about the campaign, read once."""

    campaign: Campaign
    settings: text.CampaignSettings
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


def _settings(campaign: Campaign) -> text.CampaignSettings:
    return text.CampaignSettings(
        task_seed=campaign.task_seed,
        outputs_per_task=campaign.outputs_per_task,
        judgements_per_task=campaign.judgements_per_task,
        merge_identical_outputs=campaign.merge_identical_outputs,
        tasks_per_worker=campaign.tasks_per_worker,
        setup_display=campaign.get_setup_display(),
        together=campaign.setup == Campaign.Setup.TOGETHER,
        instructions=campaign.instructions,
        consent_text=bool(campaign.consent_text),
        attention_check_rate=campaign.attention_check_rate,
        quality_threshold=campaign.quality_threshold,
        stop_failed_workers=campaign.stop_failed_workers,
        repeat_rate=campaign.repeat_rate,
        min_seconds_per_task=campaign.min_seconds_per_task,
        min_time_policy_display=campaign.get_min_time_policy_display(),
        assignment_timeout_minutes=campaign.assignment_timeout_minutes,
    )


def _facts(campaign: Campaign) -> _Facts:
    tasks = Task.objects.filter(campaign=campaign)
    judged_on = Counter(
        Judgement.objects.filter(criterion__campaign=campaign).values_list("task__kind", flat=True)
    )
    n_imported = judged_on[Task.Kind.IMPORTED]
    return _Facts(
        campaign=campaign,
        settings=_settings(campaign),
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
            JudgementScore.objects.filter(regular_q(), judgement__criterion__campaign=campaign)
            .values_list("output_id", flat=True)
            .distinct()
        ),
        workers=list(campaign.workers.all()),
    )


def _campaign_answers(campaign: Campaign) -> text.Answers:
    """What the stored data show. For a campaign whose judgements were all imported from
    a finished evaluation, the campaign's own settings (attention-check rate, threshold,
    minimum time, the interface, the criteria's presets) describe this platform, not the
    evaluation that collected them: they are not stated, and a person is asked."""
    a = text.Answers()
    f = _facts(campaign)
    text.inputs_and_outputs(
        a,
        inputs=[t for t, _, _ in f.items],
        input_languages=[lang for *_, lang in f.items],
        outputs=[o[1] for o in f.outputs],
        output_languages=[o[4] for o in f.outputs],
    )
    _system_coverage(a, f)
    _selection(a, f)
    _evaluators(a, f)
    _collection(a, f)
    _quality_checks(a, f)
    criteria = list(campaign.criteria.all())
    ticked = _criteria_with_stored_checks(campaign)
    _presentation(a, f, criteria, ticked)
    text.conditions(a, f.settings, imported=f.imported)
    agreement = {
        ag.criterion.pk: ag for ag in agreement_selectors.campaign_agreement(campaign=campaign)
    }
    for c in criteria:
        _criterion_answers(a, c, agreement.get(c.pk), imported=f.imported, ticked=c.name in ticked)
    return a


def _system_coverage(a: text.Answers, f: _Facts) -> None:
    """3.1.1: the outputs judged, per system."""
    outputs, judged = f.outputs, f.judged_outputs
    per_system_all = Counter(o[2] for o in outputs)
    per_system_judged = Counter(o[2] for o in outputs if o[0] in judged)
    text.system_coverage(
        a,
        systems=[
            (s.label, s.name, per_system_judged[s.pk], per_system_all[s.pk]) for s in f.systems
        ],
        n_judged=len(judged),
        n_outputs=len(outputs),
        n_items=len(f.items),
    )


def _selection(a: text.Answers, f: _Facts) -> None:
    """3.1.2: how the items and outputs judged were chosen."""
    jobs = f.campaign.import_jobs.filter(status=ImportJob.Status.DONE)
    text.selection(
        a,
        f.settings,
        imported=f.imported,
        n_judged_outputs=len(f.judged_outputs),
        n_outputs=len(f.outputs),
        n_judged_items=len({o[3] for o in f.outputs if o[0] in f.judged_outputs}),
        n_items=len(f.items),
        jobs=[(j.filename, j.kind) for j in jobs],
        n_imported_tasks=f.kinds[Task.Kind.IMPORTED],
        n_task_items=(
            0
            if f.imported
            else f.tasks.filter(kind=Task.Kind.REGULAR).values("item").distinct().count()
        ),
        attributes=sorted({k for _, at, _ in f.items for k in (at or {})}),
    )


def _evaluators(a: text.Answers, f: _Facts) -> None:
    """3.2: the evaluators, how they were recruited and paid, what they were told."""
    workers = f.workers
    active = set(
        Judgement.objects.filter(worker__campaign=f.campaign).values_list("worker_id", flat=True)
    )
    reviews = Counter(w.review for w in workers)
    recruitment = text.recruitment(
        imported=f.imported,
        platforms=Counter(w.get_platform_display() for w in workers),
        channels=Counter(
            str(w.metadata.get("_channel")) for w in workers if w.metadata.get("_channel")
        ),
        bonuses=[w.bonus for w in workers if w.bonus > 0],
        approved=reviews.get(Worker.Review.APPROVED, 0),
        rejected=reviews.get(Worker.Review.REJECTED, 0),
    )
    text.evaluators(
        a,
        f.settings,
        imported=f.imported,
        n_active=len(active),
        n_registered=len(workers),
        n_excluded=f.n_excluded,
        n_experts=sum(w.expert for w in workers),
        recruitment=recruitment,
    )


def _collection(a: text.Answers, f: _Facts) -> None:
    """3.3.2: how the judgements were collected."""
    text.collection(
        a,
        f.settings,
        imported=f.imported,
        n_judgements=(
            Judgement.objects.filter(criterion__campaign=f.campaign).count() if f.imported else 0
        ),
        n_imported=f.n_imported,
    )


def _quality_checks(a: text.Answers, f: _Facts) -> None:
    """3.3.3: the quality checks and exclusions (the stored ones only, when imported)."""
    campaign, workers = f.campaign, f.workers
    checks = Counter(
        (k, p)
        for k, p in WorkerCheck.objects.filter(worker__campaign=campaign).values_list(
            "kind", "passed"
        )
    )
    text.quality_checks(
        a,
        f.settings,
        imported=f.imported,
        checks=checks,
        too_fast=Judgement.objects.filter(criterion__campaign=campaign, too_fast=True).count(),
        n_excluded=f.n_excluded,
        n_flagged=sum(w.flagged for w in workers),
        n_stopped=sum(w.stopped for w in workers),
    )


def _presentation(a: text.Answers, f: _Facts, criteria: list[Criterion], ticked: set[str]) -> None:
    """3.3.4: what a task shows, and how."""
    shown_tasks = TaskOutput.objects.filter(regular_q(), task__campaign=f.campaign)
    if f.imported:
        shown_tasks = shown_tasks.filter(task__kind=Task.Kind.IMPORTED)
    text.presentation(
        a,
        f.settings,
        imported=f.imported,
        outputs_per_task=Counter(shown_tasks.values_list("task_id", flat=True)).values(),
        ticked=ticked,
        show_input=[(c.name, c.show_input) for c in criteria],
    )


def _criteria_with_stored_checks(campaign: Campaign) -> set[str]:
    """Criteria with at least one stored checklist tick (``JudgementScore.checks``)."""
    return set(
        JudgementScore.objects.filter(judgement__criterion__campaign=campaign)
        .exclude(checks=[])
        .values_list("judgement__criterion__name", flat=True)
        .distinct()
    )


def _criterion_facts(c: Criterion, *, imported: bool, ticked: bool) -> text.CriterionFacts:
    settings = c.scale_settings or {}
    return text.CriterionFacts(
        name=c.name,
        question=c.question,
        show_input=c.show_input,
        magnitude=c.scale == Criterion.Scale.MAGNITUDE,
        likert=c.scale == Criterion.Scale.LIKERT,
        ranking=c.of_ranks,
        imported=imported,
        ticked=ticked,
        standard=c.standard,
        standard_input=c.standard_input,
        standard_text=c.standard_text,
        max_digits=int(settings.get("max_digits", Criterion.MAGNITUDE_MAX_DIGITS)),
        likert_levels=c.likert_levels,
        content_checks=list(c.content_checks or []),
        one_output=_one_output_each(c),
    )


def _one_output_each(c: Criterion) -> bool:
    """Whether every stored judgement of ``c`` scores one output (and there are some)."""
    sizes = (
        Judgement.objects.filter(criterion=c)
        .annotate(n=Count("scores"))
        .aggregate(most=Max("n"))["most"]
    )
    return sizes == 1


def _criterion_answers(
    a: text.Answers,
    c: Criterion,
    ag: agreement_selectors.CriterionAgreement | None,
    *,
    imported: bool,
    ticked: bool,
) -> None:
    cr = _criterion_facts(c, imported=imported, ticked=ticked)
    text.criterion_quality(a, cr)
    text.instrument(a, cr, _stored_scores(c) if imported else text.StoredScores())
    text.criterion_method(a, cr)
    run = (
        RankingRun.objects.filter(criterion=c, status=RankingRun.Status.DONE)
        .order_by("-finished_at", "-pk")
        .first()
    )
    if run is not None:
        text.ranking_answers(a, cr, _run_facts(run))
    if ag is not None and ag.judgements:
        text.agreement_answer(
            a, cr, ag, ranking_kept_excluded=run is not None and not run.exclude_flagged
        )


def _stored_scores(c: Criterion) -> text.StoredScores:
    """The range and number of the criterion's stored scores of regular outputs."""
    scores = JudgementScore.objects.filter(regular_q(), judgement__criterion=c).aggregate(
        low=Min("score"), high=Max("score"), n=Count("pk")
    )
    return text.StoredScores(low=scores["low"], high=scores["high"], n=scores["n"])


def _run_facts(run: RankingRun) -> text.RunFacts:
    rule = ranking_data_rule(run=run)
    kept, share = range_coverage(run.runs, run.confidence)
    return text.RunFacts(
        pk=run.pk,
        method_display=run.get_method_display(),
        n_judgements=run.n_judgements,
        n_comparisons=run.n_comparisons,
        runs=run.runs,
        seed=run.seed,
        exclude_flagged=run.exclude_flagged,
        excluded_workers=len((run.inputs or {}).get("excluded_workers", [])),
        confidence=run.confidence,
        kept=kept,
        share=share,
        clusters_claimed=rule.met,
        problems=list(rule.problems),
        ranges_meaning=str(ranking_run_coverage(run=run)["meaning"]),
    )


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
