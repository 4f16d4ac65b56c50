"""``criterion_by_name``: the one lookup of a campaign's criterion by its name."""

from __future__ import annotations

import pytest

from annotations.selectors.criteria import criterion_by_name
from tests.factories import CampaignFactory, CriterionFactory

pytestmark = pytest.mark.django_db


def test_finds_the_campaigns_criterion_and_no_other_campaigns(django_assert_num_queries):
    campaign, other = CampaignFactory(), CampaignFactory()
    fluency = CriterionFactory(campaign=campaign, name="fluency")
    CriterionFactory(campaign=other, name="adequacy")
    with django_assert_num_queries(1):
        assert criterion_by_name(campaign, "fluency") == fluency
    assert criterion_by_name(campaign, "adequacy") is None
    assert criterion_by_name(campaign, "") is None
