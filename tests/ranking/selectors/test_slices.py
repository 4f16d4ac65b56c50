"""Reads for rankings of slices (ranking/selectors/slices.py): the one check of the
attribute slices are asked by, its wording for each interface, and the page's choice."""

from __future__ import annotations

import pytest

from ranking.selectors import slices
from ranking.services import compute
from ranking.services import runs as run_services
from tests.ranking.sliced_campaign import _sliced

pytestmark = pytest.mark.django_db


def test_an_attributes_values_are_its_slices_and_an_unknown_one_is_refused() -> None:
    campaign, _criterion = _sliced(10)
    assert slices.ranking_slice_values(campaign=campaign, by="challenge_set") == ["a", "b"]
    assert slices.ranking_slice_values(campaign=campaign, by="language") == ["de", "en"]
    with pytest.raises(slices.SliceAttributeUnknown) as refused:
        slices.ranking_slice_values(campaign=campaign, by="colour")
    said = refused.value
    assert said.by == "colour"
    assert str(said) == (
        f"by: no item of '{campaign.slug}' has the attribute 'colour' (its attributes: "
        "challenge_set, language)."
    )
    assert said.sentence == (
        f"No item of '{campaign.slug}' has the attribute 'colour' (its attributes: "
        "challenge_set, language)."
    )
    assert said.on_page == "No item of this campaign has the attribute 'colour'."
    with pytest.raises(slices.SliceAttributeUnknown, match=r"\(its attributes: none\)"):
        slices.ranking_slice_values(campaign=campaign, by="colour", attributes={})


def test_the_pages_choice_says_what_is_unknown() -> None:
    campaign, criterion = _sliced(10)
    first = slices.ranking_slice_choice(campaign=campaign, criterion=None, by=None)
    assert (first.criterion, first.by, first.error) == (criterion, "challenge_set", "")
    assert first.slices == [{}, {"challenge_set": "a"}, {"challenge_set": "b"}]
    colour = slices.ranking_slice_choice(campaign=campaign, criterion=None, by="colour")
    assert colour.error == "No item of this campaign has the attribute 'colour'."
    nope = slices.ranking_slice_choice(campaign=campaign, criterion="nope", by="colour")
    assert nope.error == f"Campaign '{campaign.slug}' has no criterion 'nope' (it has: quality)."


def test_the_latest_finished_run_of_each_slice_in_the_slices_order() -> None:
    campaign, criterion = _sliced(20)
    made = {}
    for where in ({"challenge_set": "b"}, {}, {}):
        run = run_services.ranking_run_create(
            campaign=campaign, criterion=criterion, queue=False, where=where, runs=10
        )
        compute.ranking_run_compute(run=run, fan_out=False)
        made[tuple(where.items())] = run  # the later of the two on all items
    run_services.ranking_run_create(
        campaign=campaign, criterion=criterion, queue=False, where={"challenge_set": "a"}
    )  # pending: not finished
    found = slices.ranking_runs_on_slices(
        criterion=criterion,
        slices=[{"challenge_set": "a"}, {"challenge_set": "b"}, {}],
    )
    assert found == [made[(("challenge_set", "b"),)], made[()]]
    assert slices.ranking_runs_by_slice(
        criterion=criterion, attribute="challenge_set", values=["a", "b"]
    ) == [made[()], made[(("challenge_set", "b"),)]]
