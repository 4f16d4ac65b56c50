"""A ranking's fingerprint identifies what was ranked by content, never by database ids:
the same judgements imported twice (two campaigns, or two installations) give the same
fingerprint; one changed score gives another."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing.outputs import outputs_import
from annotations.importing.ratings import ratings_import
from annotations.models import JudgementScore
from annotations.services.criteria import criterion_from_preset
from ranking.selectors.runs import ranking_scores
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from tests.annotations.importing.conftest import (
    good_quality_rows,
    make_e2e_folder,
    write_ratings,
)
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def _imported(tmp_path: Path, name: str):
    campaign = CampaignFactory()
    outputs_import(campaign=campaign, path=make_e2e_folder(tmp_path / name, ratings=False))
    criterion = criterion_from_preset(campaign=campaign, preset="quality")
    path = write_ratings(tmp_path / f"{name}-quality.csv", good_quality_rows())
    ratings_import(campaign=campaign, criterion=criterion, path=path)
    return campaign, criterion


def _run(campaign, criterion, **kwargs):
    run = ranking_run_create(
        campaign=campaign, criterion=criterion, queue=False, runs=20, seed=3, **kwargs
    )
    return ranking_run_compute(run=run)


def test_the_same_judgements_imported_twice_have_the_same_fingerprint(tmp_path):
    first = _imported(tmp_path, "a")
    second = _imported(tmp_path, "b")
    # different rows: other ids for campaigns, systems, items, workers and judgements
    assert first[0].pk != second[0].pk
    a, b = ranking_scores(criterion=first[1]), ranking_scores(criterion=second[1])
    assert a.fingerprint == b.fingerprint
    run_a, run_b = _run(*first), _run(*second)
    assert run_a.status == run_b.status == "done", (run_a.error, run_b.error)
    assert run_a.fingerprint == run_b.fingerprint
    assert run_a.inputs["judgements_fingerprint"] == a.fingerprint


def test_a_changed_score_or_seed_or_method_changes_the_fingerprint(tmp_path):
    first = _imported(tmp_path, "a")
    second = _imported(tmp_path, "b")
    run_a = _run(*first)
    score = JudgementScore.objects.filter(judgement__criterion=second[1]).order_by("pk").first()
    assert score is not None
    score.score += 1
    score.save(update_fields=["score"])
    assert ranking_scores(criterion=first[1]).fingerprint != (
        ranking_scores(criterion=second[1]).fingerprint
    )
    assert _run(*second).fingerprint != run_a.fingerprint
    other_seed = ranking_run_compute(
        run=ranking_run_create(campaign=first[0], criterion=first[1], queue=False, runs=20, seed=4)
    )
    assert other_seed.fingerprint != run_a.fingerprint
    assert other_seed.inputs["judgements_fingerprint"] == run_a.inputs["judgements_fingerprint"]
    other_method = _run(*first, method="bradley_terry")
    assert other_method.fingerprint != run_a.fingerprint


def _reference_scores(criterion):
    """The scores and fingerprint as they were read before the read was split in two
    (one wide query in the order ranked, hashed row by row): the definition."""
    import hashlib
    import json

    from annotations.models import Item, System
    from annotations.selectors.judgements import scores_counted

    rows = list(
        scores_counted(criterion=criterion, exclude_excluded_workers=True)
        .order_by("judgement__submitted_at", "judgement_id", "slot", "output_id")
        .values_list(
            "judgement_id",
            "output__system_id",
            "score",
            "slot",
            "judgement__task__item_id",
            "judgement__worker__external_id",
        )
    )
    systems = list(
        System.objects.filter(
            campaign_id=criterion.campaign_id, pk__in={r[1] for r in rows}
        ).order_by("label")
    )
    index = {s.pk: i for i, s in enumerate(systems)}
    label = {s.pk: s.label for s in systems}
    items = {
        pk: (key, hashlib.sha256(text.encode()).hexdigest()[:16])
        for pk, key, text in Item.objects.filter(pk__in={r[4] for r in rows}).values_list(
            "pk", "external_id", "input"
        )
    }
    digest = hashlib.sha256(json.dumps(["criterion", criterion.name]).encode())
    judgement, system, score, slot = [], [], [], []
    previous, number = None, -1
    for judgement_id, system_id, value, slot_number, item_id, worker in rows:
        if judgement_id != previous:
            previous, number = judgement_id, number + 1
            digest.update(json.dumps(["judgement", *items[item_id], worker]).encode())
        judgement.append(number)
        system.append(index[system_id])
        score.append(value)
        slot.append(slot_number)
        digest.update(json.dumps([label[system_id], slot_number, float(value)]).encode())
    return systems, judgement, system, score, slot, digest.hexdigest()


def test_the_two_narrow_reads_give_the_scores_and_fingerprint_of_the_wide_one(tmp_path):
    """The read that feeds a ranking was split into two narrow queries and sorted in
    numpy (a million scores sorted by the database spilled to disk): every array and
    the fingerprint must stay exactly what the one wide query gave, with hostile labels,
    fractional scores and judgements submitted out of id order."""
    from datetime import timedelta

    from annotations.models import Judgement, System

    campaign, criterion = _imported(tmp_path, "wide")
    for n, system in enumerate(System.objects.filter(campaign=campaign).order_by("pk")):
        system.label = ['"quoted"', "back\\slash", "ünïcødé ✓", "tab\there", "</script>"][
            n % 5
        ] + f" {n}"
        system.save(update_fields=["label"])
    judgements = list(Judgement.objects.filter(criterion=criterion).order_by("pk"))
    base = max(j.submitted_at for j in judgements)
    for n, judgement in enumerate(judgements):  # the reverse of the ids
        judgement.submitted_at = base + timedelta(seconds=len(judgements) - n)
        judgement.save(update_fields=["submitted_at"])
    first = JudgementScore.objects.filter(judgement__criterion=criterion).order_by("pk")
    for n, score in enumerate(first[:7]):
        score.score = 33.3 + n / 7
        score.save(update_fields=["score"])

    got = ranking_scores(criterion=criterion)
    systems, judgement, system, score, slot, fingerprint = _reference_scores(criterion)
    assert [s.pk for s in got.systems] == [s.pk for s in systems]
    assert got.judgement.tolist() == judgement
    assert got.system.tolist() == system
    assert got.score.tolist() == score
    assert got.slot.tolist() == slot
    assert got.fingerprint == fingerprint


def test_a_judgement_submitted_between_the_two_reads_is_left_out(tmp_path, monkeypatch):
    """The counted judgements are read first and their scores second: a judgement
    submitted in between has scores but no place (an IndexError under concurrent
    hand-outs on PostgreSQL). It is left out, as if it had come a moment later."""
    import numpy as np

    from ranking.selectors import runs

    _, criterion = _imported(tmp_path, "between")
    before = ranking_scores(criterion=criterion)
    real = runs.numeric_rows

    def with_a_newcomer(queryset, fields):
        rows = real(queryset, fields)
        extra = rows[:3].copy()
        extra["judgement_id"] = rows["judgement_id"].max() + 1000
        return np.concatenate([rows, extra])

    monkeypatch.setattr(runs, "numeric_rows", with_a_newcomer)
    after = ranking_scores(criterion=criterion)
    assert after.fingerprint == before.fingerprint
    assert after.judgement.tolist() == before.judgement.tolist()
    assert after.score.tolist() == before.score.tolist()
