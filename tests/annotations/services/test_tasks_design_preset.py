"""The set-up 1 design preset shows the input to every criterion."""

from __future__ import annotations

import pytest

from annotations.services.tasks import campaign_design_preset_apply
from tests.annotations.designer_data import users

pytestmark = pytest.mark.django_db


def test_the_set_up_1_preset_shows_the_input_to_every_criterion():
    people = users()
    from annotations.services.campaigns import campaign_create

    campaign = campaign_create(slug="one", name="One", owner=people["owner"])
    campaign_design_preset_apply(campaign=campaign, preset="rankme-together")
    assert all(campaign.criteria.values_list("show_input", flat=True))
