"""Adaptive design online: when a live campaign's tasks run low, refit the
ranking and add a batch of tasks whose systems are chosen where the clusters are
undecided (``ranking.stats.choose_batch``), and say when the clusters are stable.

A campaign with ``adaptive_design`` starts from its built tasks (any design: a small
balanced pilot is the usual start). For each criterion, once the open places of its
regular tasks (``judgements_per_task`` minus places held, summed) fall below half a
batch, :func:`adaptive_batch_build` does, under the campaign row's lock:

1. *Refit*: the criterion's counted judgements (as a ranking reads them) ranked as the
   simulator that validated the stop rule refits (:func:`~ranking.stats.adaptive_refit`):
   every pair of a judgement's outputs one comparison (equal scores a draw), a
   Bradley-Terry fit of the counts and rank ranges from its normal approximation
   (:data:`REFIT_RUNS` = 1,000 draws, 95%: :func:`~ranking.stats.bt_normal`), clusters by
   the WMT14 rule; a system without comparisons yet gets the largest sigma and every
   rank, so it is asked for. (Until 2026-11 the refit was WMT14 TrueSkill with 64 runs,
   which the simulator never ran: a statistician's review found it, on the same
   simulated answers, stopping in 4 of 11 seeds where this refit stopped in 10.)
2. *Choose*: :func:`~ranking.stats.choose_batch` on that state: every system keeps a
   coverage minimum (:data:`MIN_SHARE` of the balanced share), the rest of the
   ``adaptive_batch_tasks`` tasks go to the systems at contested cluster boundaries,
   largest sigma first; a task's systems are distinct and shuffled (position balance).
3. *Items*: each task takes the (item, language) row with outputs of all its systems
   that this criterion's tasks use least (then the language they use least, then at
   random), so items and languages stay balanced and a task never mixes languages.
4. *Log*: an :class:`~ranking.models.AdaptiveBatch` keeps the seed, the judgements and
   fingerprint the refit read, each system's state, the decision and the tasks added.

The refit draws its normal numbers from ``default_rng([task_seed, criterion id, 0])`` for
every batch (so two refits differ only by the judgements they read, as the simulator's
common random numbers), the choice from a child of
``default_rng([task_seed, criterion id, batch number])``; the same judgements give the
same batch.
The tasks are ordinary regular tasks: the hand-out's guarantees (no place over the
judgements per task, no item twice for a worker, expiry) hold for them as for any.

**Stop rule.** A batch is *stable* when its refit draws at least one cluster boundary
and its clusters equal those of every refit back to one that read :func:`stable_span`
fewer judgements (the clusters held while each system was shown :data:`STABLE_SHOWS`
more times on average), and of at least the :data:`STABLE_REFITS` - 1 refits before it,
each of which read more judgements than the one before, with every system judged.
On the simulator (``benchmarks/simulate.py``, docs/adaptive-simulation.md) the
clusters are then right in 79% of the seeds on E2E quality and 89% on naturalness,
where three equal refits of 100 judgements were right in 32% and 71%. The organizer then
reads "the clusters are stable: you can close the campaign"; batches keep coming until
the campaign is closed or paused (the rule advises, it does not stop anything).

Called by the Celery beat task ``ranking.adaptive_step`` every minute (without a broker,
the web process's embedded beat runs it), by ``manage.py adaptive_step``, and by the
*Adaptive design* page's button (a batch now, whatever the open places). What a batch reads (open places, earlier refits, the outputs, the tasks)
and what the page shows are ``ranking.selectors.adaptive``'s.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import numpy as np
from django.db import transaction

from annotations.models import Campaign, Criterion
from annotations.services.campaigns import campaign_settings_problems
from annotations.services.tasks import TaskRow, tasks_add
from common.errors import DomainError, StaleRequest
from ranking import stats
from ranking.models import AdaptiveBatch
from ranking.selectors import adaptive as selectors
from ranking.selectors.runs import ranking_scores

#: the refit: Bradley-Terry with its normal approximation, as the simulator refits
REFIT_METHOD = stats.BT_NORMAL_METHOD
#: the refit's draws (logged as the batch's ``runs``) and its ranges' confidence: the
#: simulator's
REFIT_RUNS = stats.ADAPTIVE_REFIT_DRAWS
REFIT_CONFIDENCE = stats.ADAPTIVE_REFIT_CONFIDENCE
MIN_SHARE = 0.3
MARGIN = 3
STABLE_REFITS = 3
#: the stop rule's span: the clusters must have held while each system was shown this
#: many more times on average (the simulator's eight equal refits of 100 judgements,
#: 21 systems, 5 per task: 700 judgements, 167 showings each)
STABLE_SHOWS = 160


def stable_span(*, n_systems: int, k: int) -> int:
    """Judgements the clusters must have held over to be stable: ``STABLE_SHOWS``
    showings of each of ``n_systems`` systems in tasks of ``k`` (at most all of them)."""
    return math.ceil(STABLE_SHOWS * n_systems / max(min(k, n_systems), 1))


def campaign_stable_span(*, campaign: Campaign) -> int:
    """:func:`stable_span` of the campaign's systems in its tasks: what its adaptive
    page and API state the stop rule waits for."""
    n = len(selectors.adaptive_systems(campaign=campaign))
    return stable_span(n_systems=n, k=int(campaign.outputs_per_task))


def adaptive_problem(campaign: Campaign) -> str:
    """Why the campaign cannot get an adaptive batch now ("" when it can): the rule every
    batch is held to, on the campaign settings' own rules (``annotations.services``, which
    a selector does not import)."""
    if not campaign.adaptive_design:
        return "Adaptive design is off for this campaign (Settings page)."
    if campaign.status != Campaign.Status.LIVE:
        return "Batches are added only while the campaign is live."
    # The design's rules are the settings' own (the Settings page shows the same words).
    rule = campaign_settings_problems(campaign=campaign).get("adaptive_design", "")
    if rule:
        return f"Adaptive design cannot run: {rule}"
    if not campaign.systems.exists():
        return "The campaign has no systems yet: there is nothing to choose."
    return ""


@dataclass(frozen=True)
class _State:
    labels: list[str]
    value: np.ndarray
    sigma: np.ndarray
    rank_lo: np.ndarray
    rank_hi: np.ndarray
    cluster: np.ndarray
    judged: np.ndarray
    judgements: int
    fingerprint: str


def _refit(criterion: Criterion, system_ids: list[int], labels: list[str], rng) -> _State:
    """The criterion's counted judgements refitted as the simulator refits
    (:func:`~ranking.stats.adaptive_refit`), the systems indexed as ``system_ids``."""
    n = len(system_ids)
    data = ranking_scores(criterion=criterion)
    value = np.zeros(n)
    sigma = np.ones(n)
    rank_lo = np.ones(n, dtype=np.int64)
    rank_hi = np.full(n, n, dtype=np.int64)
    cluster = np.zeros(n, dtype=np.int64)
    judged = np.zeros(n, dtype=bool)
    if data.n_judgements:
        index = {pk: i for i, pk in enumerate(system_ids)}
        campaign_index = np.array([index[s.pk] for s in data.systems], dtype=np.int64)
        refit = stats.adaptive_refit(
            n_systems=n,
            judgement=data.judgement,
            system=campaign_index[data.system],
            score=data.score,
            slot=data.slot,
            rng=rng,
            draws=REFIT_RUNS,
            confidence=REFIT_CONFIDENCE,
        )
        result = refit.result
        if result is not None:
            ranked = refit.ranked
            value[ranked] = result.value
            sigma[ranked] = result.spread
            rank_lo[ranked] = result.rank_lo
            rank_hi[ranked] = result.rank_hi
            cluster[ranked] = result.cluster
            judged[ranked] = True
            # Systems not ranked yet: the middle value, the largest sigma, every rank.
            missing = ~judged
            if missing.any():
                value[missing] = float(np.median(value[judged]))
                sigma[missing] = float(sigma[judged].max(initial=1.0)) * 1.5 or 1.0
                cluster[missing] = 0
    return _State(
        labels=labels,
        value=value,
        sigma=sigma,
        rank_lo=rank_lo,
        rank_hi=rank_hi,
        cluster=cluster,
        judged=judged,
        judgements=data.n_judgements,
        fingerprint=data.fingerprint,
    )


def _stable(criterion: Criterion, state: _State, number: int) -> bool:
    """The stop rule: every system judged, at least one cluster boundary drawn, and the
    clusters equal to those of every earlier refit back to one that read
    :func:`stable_span` fewer judgements, and to at least ``STABLE_REFITS - 1`` earlier
    refits, each of which saw more judgements than the one before (refits of the same
    judgements prove nothing: they are identical). Every system in one cluster is where
    a campaign starts, not a result: early refits agree on it, and it never counts as
    stable. Three equal refits alone stopped too early on the simulator (right in a
    third of the seeds on E2E quality)."""
    if not state.judged.all() or number < STABLE_REFITS:
        return False
    mine = [int(c) for c in state.cluster]
    if len(set(mine)) < 2:
        return False
    span = stable_span(n_systems=len(state.labels), k=int(criterion.campaign.outputs_per_task))
    since = state.judgements - span
    seen = state.judgements
    before = selectors.adaptive_refits_before(criterion=criterion, number=number)
    for checked, (old, judgements) in enumerate(before, start=1):
        if judgements >= seen:
            return False
        seen = judgements
        clusters = {row["label"]: row.get("cluster") for row in old}
        if [clusters.get(label) for label in state.labels] != mine:
            return False
        if checked >= STABLE_REFITS - 1 and judgements <= since:
            return True
    return False


@transaction.atomic
def adaptive_batch_build(
    *, criterion: Criterion, force: bool = False, trigger: str = "auto", after: int | None = None
) -> AdaptiveBatch | None:
    """Add the next batch of the criterion's tasks when its open places are under half a
    batch (or at once with ``force``); None when none is needed. ``DomainError`` when
    the campaign cannot take one (``adaptive_problem``); ``StaleRequest`` when ``after``
    (the number of the latest batch the requester saw) is no longer the latest, so that a
    form sent twice adds one batch. Locks the campaign row."""
    campaign = Campaign.objects.select_for_update().get(pk=criterion.campaign_id)
    problem = adaptive_problem(campaign)
    if problem:
        raise DomainError(problem)
    criterion = Criterion.objects.get(pk=criterion.pk)
    size = int(campaign.adaptive_batch_tasks)
    jpt = int(campaign.judgements_per_task)
    if not force and selectors.adaptive_open_places(criterion=criterion) * 2 >= size * jpt:
        return None
    systems = selectors.adaptive_systems(campaign=campaign)
    system_ids = [pk for pk, _ in systems]
    labels = [label for _, label in systems]
    k = min(int(campaign.outputs_per_task), len(systems))
    last = selectors.adaptive_batch_last_number(criterion=criterion)
    if after is not None and after > last:
        raise DomainError(
            f"{criterion.name} has {last} batch{'' if last == 1 else 'es'}: 'after' is the "
            "number of the latest batch you saw, not more.",
            field="after",
        )
    if after is not None and after != last:
        raise StaleRequest(
            f"No batch was added: {criterion.name} has {last} batch"
            f"{'' if last == 1 else 'es'} now, not {after} (the request was sent again, or "
            "another batch was added first). Reload to see them, then add one more if you "
            "still want it.",
            field="after",
        )
    number = last + 1
    seed = [int(campaign.task_seed or 0), int(criterion.pk), number]
    # The refit's generator is the same for every batch of the criterion, so that refits
    # differ only by the judgements they read (as in the replay); the choice's is the
    # batch's own.
    refit_rng = np.random.default_rng([seed[0], seed[1], 0])
    (choice_rng,) = np.random.default_rng(seed).spawn(1)
    state = _refit(criterion, system_ids, labels, refit_rng)
    batch = stats.choose_batch(
        value=state.value,
        sigma=state.sigma,
        rank_lo=state.rank_lo,
        rank_hi=state.rank_hi,
        n_tasks=size,
        k=k,
        rng=choice_rng,
        min_share=MIN_SHARE,
        margin=MARGIN,
    )
    first_number, added, unplaced = _batch_tasks_add(
        campaign, criterion, system_ids, batch, choice_rng
    )
    decision = {
        **batch.summary(),
        "contested_gaps": [f"{labels[a]} | {labels[b]}" for a, b in _gap_pairs(state, batch.gaps)],
        "boundary_systems": [labels[int(i)] for i in batch.boundary],
        "quota": {labels[i]: int(q) for i, q in enumerate(batch.quota)},
        "unplaced": unplaced,
    }
    return AdaptiveBatch.objects.create(
        campaign=campaign,
        criterion=criterion,
        number=number,
        seed=seed,
        method=REFIT_METHOD,
        runs=REFIT_RUNS,
        judgements=state.judgements,
        fingerprint=state.fingerprint,
        state=[
            {
                "label": labels[i],
                "value": round(float(state.value[i]), 6) if state.judged[i] else None,
                "sigma": round(float(state.sigma[i]), 6) if state.judged[i] else None,
                "rank_lo": int(state.rank_lo[i]),
                "rank_hi": int(state.rank_hi[i]),
                "cluster": int(state.cluster[i]) if state.judged[i] else None,
            }
            for i in range(len(labels))
        ],
        decision=decision,
        tasks=added,
        first_task_number=first_number,
        stable=_stable(criterion, state, number),
        trigger=trigger,
    )


def _gap_pairs(state: _State, gaps: np.ndarray) -> list[tuple[int, int]]:
    """The two systems beside each contested gap (positions in value order)."""
    order = np.lexsort((np.arange(len(state.value)), -state.value))
    return [(int(order[int(p)]), int(order[int(p) + 1])) for p in gaps]


def _batch_tasks_add(
    campaign: Campaign,
    criterion: Criterion,
    system_ids: list[int],
    batch: stats.AdaptiveBatch,
    rng: np.random.Generator,
) -> tuple[int, int, int]:
    """Choose the batch's tasks' rows and add them (``annotations.services.tasks``
    numbers them on and places their outputs); returns (first task number, tasks added, tasks that no
    item could take: no row has outputs of all their systems)."""
    outputs = selectors.adaptive_output_rows(campaign=campaign)
    rows = sorted(outputs)
    used: dict[tuple[int, str], int] = {row: 0 for row in rows}
    per_language: Counter[str] = Counter()
    for item_id, language in selectors.adaptive_task_rows(criterion=criterion):
        per_language[language] += 1
        if (item_id, language) in used:
            used[(item_id, language)] += 1
    new_tasks: list[TaskRow] = []
    unplaced = 0
    ties = rng.random(len(rows))
    for row_systems in batch.tasks:
        wanted = [system_ids[int(s)] for s in row_systems if s >= 0]
        fits = [n for n, row in enumerate(rows) if all(s in outputs[row] for s in wanted)]
        if not fits:
            unplaced += 1
            continue
        best = min(fits, key=lambda n: (used[rows[n]], per_language[rows[n][1]], ties[n]))
        row = rows[best]
        used[row] += 1
        per_language[row[1]] += 1
        new_tasks.append(
            TaskRow(item_id=row[0], language=row[1], outputs=[outputs[row][s] for s in wanted])
        )
    first = tasks_add(campaign=campaign, criterion=criterion, rows=new_tasks)
    return first, len(new_tasks), unplaced


def adaptive_step(*, campaign: Campaign | None = None) -> list[AdaptiveBatch]:
    """Every live adaptive campaign (or the one given): each criterion a batch if it
    runs low. Returns the batches added."""
    campaigns = [campaign] if campaign is not None else selectors.adaptive_campaigns_live()
    added = []
    for one in campaigns:
        if adaptive_problem(one):
            continue
        for criterion in selectors.adaptive_criteria(campaign=one):
            batch = adaptive_batch_build(criterion=criterion)
            if batch is not None:
                added.append(batch)
    return added


def adaptive_batch_now(
    *, criterion: Criterion, trigger: str = "manual", after: int | None = None
) -> AdaptiveBatch:
    """A batch of the criterion's tasks now, whatever its open places (the page's button,
    the API's POST, ``adaptive_step --force``). With ``after``, only if the criterion's
    latest batch is still number ``after`` (``StaleRequest`` otherwise): the page sends
    it, so a double click or a resent form adds one batch, not two."""
    batch = adaptive_batch_build(criterion=criterion, force=True, trigger=trigger, after=after)
    if batch is None:  # pragma: no cover - a forced build always makes one
        raise DomainError("No batch was made.")
    return batch
