"""Set-up 1 shows one input per page: a criterion that hides it cannot share the page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.models import Campaign
from annotations.services.campaigns import campaign_launch
from annotations.services.criteria import criterion_from_preset, criterion_rankme_set
from common.errors import DomainError
from tests.annotations.designer_data import judged_campaign, users

pytestmark = pytest.mark.django_db


def test_set_up_1_with_naturalness_hiding_the_input_is_warned_and_refused(client):
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=0)
    natural = criterion_from_preset(campaign=campaign, preset="naturalness")
    criterion_rankme_set(criterion=natural, standard_input="x", standard_text="The Eagle.")
    Campaign.objects.filter(pk=campaign.pk).update(status="draft", setup="together")
    campaign.refresh_from_db()
    client.force_login(people["owner"])
    for name in ("designer-criteria", "designer-settings"):
        html = client.get(reverse(f"annotations:{name}", args=[campaign.slug])).text
        assert "data-input-conflict" in html and "naturalness hides the input" in html
    plan = client.get(reverse("annotations:designer-plan", args=[campaign.slug])).text
    assert "naturalness hides the input" in plan
    with pytest.raises(DomainError, match="naturalness hides the input"):
        campaign_launch(campaign=campaign)
    # Set-up 2: no conflict.
    Campaign.objects.filter(pk=campaign.pk).update(setup="separate")
    html = client.get(reverse("annotations:designer-criteria", args=[campaign.slug])).text
    assert "data-input-conflict" not in html
