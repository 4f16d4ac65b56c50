"""Numeric query results as numpy arrays (common/arrays.py): PostgreSQL's binary COPY
and the rows' way give the same array."""

from __future__ import annotations

import numpy as np
import pytest
from django.db import connection

from annotations.models import JudgementScore
from common import arrays
from tests.ranking.planted import planted_campaign

pytestmark = pytest.mark.django_db

FIELDS = {"judgement_id": "i8", "output__system_id": "i8", "score": "f8", "slot": "i8"}


@pytest.fixture
def scores():
    _, criterion = planted_campaign(strengths=[5.0, 0.0, -5.0], n_judgements=30, seed=3)
    JudgementScore.objects.filter(judgement__criterion=criterion).update(score=12.375)
    return JudgementScore.objects.filter(judgement__criterion=criterion).order_by("pk")


def test_the_array_holds_the_rows_values(scores):
    got = arrays.numeric_rows(scores, FIELDS)
    rows = list(scores.values_list(*FIELDS))
    assert got.dtype.names == tuple(FIELDS)
    assert len(got) == len(rows) == 90
    assert [tuple(r) for r in got.tolist()] == rows
    assert got["score"].dtype == np.float64 and got["slot"].dtype == np.int64


def test_no_rows_give_an_empty_array(scores):
    got = arrays.numeric_rows(scores.none(), FIELDS)
    assert got.shape == (0,) and got.dtype.names == tuple(FIELDS)
    got = arrays.numeric_rows(scores.filter(score__lt=0), FIELDS)
    assert got.shape == (0,)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="binary COPY is PostgreSQL's")
def test_postgresql_reads_by_binary_copy(scores, monkeypatch):
    copied = []
    real = arrays._copied

    def spy(*args):
        result = real(*args)
        copied.append(result is not None)
        return result

    monkeypatch.setattr(arrays, "_copied", spy)
    got = arrays.numeric_rows(scores, FIELDS)
    assert copied == [True]
    assert [tuple(r) for r in got.tolist()] == list(scores.values_list(*FIELDS))


def test_a_null_falls_back_to_the_rows_way(scores):
    """A NULL cannot be laid into the array: the COPY path declines, and the rows' way
    gives NaN for a float and refuses an integer."""
    from ranking.models import RankingRun

    campaign = scores.first().judgement.criterion.campaign
    criterion = scores.first().judgement.criterion
    RankingRun.objects.create(campaign=campaign, criterion=criterion, seconds=None)
    got = arrays.numeric_rows(RankingRun.objects.all(), {"id": "i8", "seconds": "f8"})
    assert np.isnan(got["seconds"]).all()
    with pytest.raises(TypeError):
        arrays.numeric_rows(RankingRun.objects.all(), {"seconds": "i8"})
