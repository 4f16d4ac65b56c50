"""Runs on a slice (ranking/services/runs.py): its judgements only, reproducible; impossible slices refused."""

from __future__ import annotations

import pytest

from ranking.exports import runs as exports
from ranking.models import RankingRun
from ranking.selectors import runs as selectors
from ranking.services import compute
from ranking.services import runs as services
from tests.ranking.sliced_campaign import _sliced

pytestmark = pytest.mark.django_db


def test_a_run_on_a_slice_ranks_its_judgements_only_and_reproduces() -> None:
    campaign, criterion = _sliced()
    full = services.ranking_run_create(campaign=campaign, criterion=criterion, queue=False)
    part = services.ranking_run_create(
        campaign=campaign, criterion=criterion, queue=False, where={"challenge_set": "a"}
    )
    again = services.ranking_run_create(
        campaign=campaign, criterion=criterion, queue=False, where={"challenge_set": "a"}
    )
    for run in (full, part, again):
        compute.ranking_run_compute(run=run, fan_out=False)
        run.refresh_from_db()
        assert run.status == RankingRun.Status.DONE, run.error
    assert (full.n_judgements, part.n_judgements) == (80, 40)
    assert part.where == {"challenge_set": "a"} and part.inputs["where"] == {"challenge_set": "a"}
    assert selectors.ranking_run_rows(run=part) == selectors.ranking_run_rows(run=again)
    assert selectors.ranking_run_rows(run=part) != selectors.ranking_run_rows(run=full)
    assert part.fingerprint == again.fingerprint != full.fingerprint
    text = exports.run_export(run=part, fmt="provenance")
    assert "slice (items ranked),challenge_set=a" in text
    assert "slice challenge_set=a" in exports.run_title(part)


def test_a_language_is_a_slice_too() -> None:
    campaign, criterion = _sliced()
    run = services.ranking_run_create(
        campaign=campaign, criterion=criterion, queue=False, where={"language": "DE"}
    )
    assert run.where == {"language": "de"}
    compute.ranking_run_compute(run=run, fan_out=False)
    run.refresh_from_db()
    assert run.n_judgements == 40


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ({"challenge_set": "zzz"}, "No judgements"),
        ({"Bad Name": "a"}, "not an attribute name"),
        ({"language": "xx"}, "language"),
    ],
)
def test_an_impossible_slice_is_refused_and_nothing_is_written(where, message) -> None:
    campaign, criterion = _sliced(10)
    with pytest.raises(services.DomainError, match=message):
        services.ranking_run_create(campaign=campaign, criterion=criterion, where=where)
    assert not RankingRun.objects.exists()
