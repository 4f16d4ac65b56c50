"""``criterion_by_name``: the one lookup of a campaign's criterion by its name, and
``criterion_get``, the one refusal of a name the campaign lacks."""

from __future__ import annotations

import pytest

from annotations.selectors.criteria import (
    criteria_in_order,
    criteria_listed,
    criterion_by_name,
    criterion_chosen,
    criterion_get,
    criterion_missing,
)
from common.errors import DomainError
from tests.factories import CampaignFactory, CriterionFactory, OutputFactory, TaskFactory
from tests.source_text import modules_containing

pytestmark = pytest.mark.django_db


def test_finds_the_campaigns_criterion_and_no_other_campaigns(django_assert_num_queries):
    campaign, other = CampaignFactory(), CampaignFactory()
    fluency = CriterionFactory(campaign=campaign, name="fluency")
    CriterionFactory(campaign=other, name="adequacy")
    with django_assert_num_queries(1):
        assert criterion_by_name(campaign, "fluency") == fluency
    assert criterion_by_name(campaign, "adequacy") is None
    assert criterion_by_name(campaign, "") is None


def test_criterion_get_refuses_a_name_the_campaign_lacks_in_one_wording(
    django_assert_num_queries,
):
    campaign = CampaignFactory(slug="toy")
    fluency = CriterionFactory(campaign=campaign, name="fluency")
    CriterionFactory(campaign=CampaignFactory(), name="adequacy")
    with django_assert_num_queries(1):
        assert criterion_get(campaign, "fluency") == fluency
    with pytest.raises(DomainError) as refused:
        criterion_get(campaign, "adequacy")
    assert str(refused.value) == "Campaign 'toy' has no criterion 'adequacy'."
    named = criterion_missing(campaign, "x", others=["fluency", "quality"])
    assert str(named) == "Campaign 'toy' has no criterion 'x' (it has: fluency, quality)."


def test_criterion_chosen_reads_nothing_and_says_what_an_unknown_name_means(
    django_assert_num_queries,
):
    campaign = CampaignFactory(slug="toy")
    first, second = CriterionFactory(campaign=campaign), CriterionFactory(campaign=campaign)
    criteria = criteria_in_order(campaign=campaign)
    with django_assert_num_queries(0):
        assert (
            criterion_chosen(campaign=campaign, criteria=criteria, name=second.name, strict=True)
            == second
        )
        assert criterion_chosen(campaign=campaign, criteria=criteria, name="", strict=True) == first
        # The monitor shows the first for a name the campaign lacks; the experts page
        # refuses it.
        assert (
            criterion_chosen(campaign=campaign, criteria=criteria, name="nope", strict=False)
            == first
        )
        with pytest.raises(DomainError, match="Campaign 'toy' has no criterion 'nope'"):
            criterion_chosen(campaign=campaign, criteria=criteria, name="nope", strict=True)
        assert criterion_chosen(campaign=campaign, criteria=[], name=None, strict=True) is None


def test_criteria_listed_says_which_criteria_have_tasks():
    campaign = CampaignFactory()
    built, bare = CriterionFactory(campaign=campaign), CriterionFactory(campaign=campaign)
    TaskFactory(campaign=campaign, criterion=built)
    # ``has_tasks`` is an annotation, not a field the type checker knows.
    assert {c.name: vars(c)["has_tasks"] for c in criteria_listed(campaign=campaign)} == {
        built.name: True,
        bare.name: False,
    }


def test_the_refusal_of_an_unknown_criterion_is_worded_in_one_place():
    """Pages, APIs, commands and selectors of every app refuse through criterion_missing."""
    wording = "has no criterion '"
    writers = modules_containing(wording)
    assert writers == ["annotations/selectors/criteria.py"]


def test_the_current_standard_is_always_among_the_candidates():
    from annotations.selectors.criteria import standard_candidates

    criterion = CriterionFactory()
    outputs = [OutputFactory(item__campaign=criterion.campaign) for _ in range(3)]
    assert [o.pk for o in standard_candidates(campaign=criterion.campaign, limit=2)] == [
        o.pk for o in outputs[:2]
    ]
    listed = standard_candidates(campaign=criterion.campaign, limit=2, include=outputs[2].pk)
    assert [o.pk for o in listed] == [outputs[2].pk, outputs[0].pk, outputs[1].pk]
