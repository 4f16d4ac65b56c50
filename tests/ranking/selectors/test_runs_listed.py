"""The runs API's list (ranking/selectors/runs.py, ``ranking_runs_listed``): a campaign's
runs newest first, kept to a criterion and a status when asked, in one query."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from ranking.models import RankingRun
from ranking.selectors.runs import ranking_runs_listed
from tests.factories import CampaignFactory, CriterionFactory

pytestmark = pytest.mark.django_db


def test_a_campaigns_runs_newest_first_kept_to_a_criterion_and_a_status(
    django_assert_num_queries,
):
    campaign = CampaignFactory()
    quality = CriterionFactory(campaign=campaign, name="quality")
    fluency = CriterionFactory(campaign=campaign, name="fluency")
    elsewhere = CriterionFactory(name="quality")
    now = timezone.now()

    def run(criterion, status, minutes_ago):
        made = RankingRun.objects.create(
            campaign=criterion.campaign, criterion=criterion, status=status
        )
        # the same time for two runs: the newer id first
        RankingRun.objects.filter(pk=made.pk).update(
            created_at=now - timedelta(minutes=minutes_ago)
        )
        return made.pk

    old_done = run(quality, RankingRun.Status.DONE, 30)
    failed = run(fluency, RankingRun.Status.FAILED, 20)
    new_done = run(quality, RankingRun.Status.DONE, 10)
    same_time = run(fluency, RankingRun.Status.DONE, 10)
    run(elsewhere, RankingRun.Status.DONE, 5)

    def listed(**kwargs):
        return [r.pk for r in ranking_runs_listed(campaign=campaign, **kwargs)]

    assert listed() == [same_time, new_done, failed, old_done]
    assert listed(criterion="quality") == [new_done, old_done]
    assert listed(status="done") == [same_time, new_done, old_done]
    assert listed(criterion="fluency", status="failed") == [failed]
    assert listed(criterion="nope") == [] and listed(status="nope") == []
    with django_assert_num_queries(1):
        names = [
            (r.campaign.slug, r.criterion.name) for r in ranking_runs_listed(campaign=campaign)
        ]
    assert names[0] == (campaign.slug, "fluency")
