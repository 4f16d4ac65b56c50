"""The experts API gives both rankings and the reasons."""

from __future__ import annotations

import pytest

from annotations.models import CampaignMembership, Judgement, Worker
from tests.annotations.designer_data import users
from tests.annotations.experts_data import experts_campaign

pytestmark = pytest.mark.django_db


def test_the_api_gives_both_rankings_and_the_reasons(api_as):
    people = users()
    campaign, _criterion = experts_campaign()
    CampaignMembership.objects.create(
        campaign=campaign, user=people["viewer"], role=CampaignMembership.Role.VIEWER
    )
    api = api_as(people["viewer"])
    url = f"/api/campaigns/{campaign.slug}/experts/"
    report = api.get(url, {"criterion": "quality"}).json()
    assert report["excluded"] == 0 and report["spearman_with_excluded"] is None
    Worker.objects.filter(external_id="careful").update(excluded=True)
    careless = Judgement.objects.filter(worker__external_id="careless").order_by("pk")
    Judgement.objects.filter(pk__in=list(careless.values_list("pk", flat=True)[1:])).delete()
    report = api.get(url, {"criterion": "quality"}).json()
    assert report["excluded"] == 1
    assert report["spearman_with_excluded"]["value"] == pytest.approx(1.0)
    alpha = next(w["alpha"] for w in report["workers"] if w["worker"] == "careless")
    assert alpha["value"] is not None and alpha["low"] is None
    assert "one item" in alpha["interval_reason"]
