"""``annotations/selectors/workers.py``: a campaign's worker by id, and the workers API's list."""

from __future__ import annotations

import pytest

from annotations.models import Worker
from annotations.selectors.workers import worker_by_id, workers_listed
from tests.factories import CampaignFactory, WorkerFactory

pytestmark = pytest.mark.django_db


def test_a_worker_by_id_is_only_the_campaigns():
    campaign = CampaignFactory()
    own, foreign = WorkerFactory(campaign=campaign), WorkerFactory()
    assert worker_by_id(campaign, own.pk) == own
    assert worker_by_id(campaign, foreign.pk) is None


def test_the_list_filters_by_flag_exclusion_and_platform_newest_first():
    campaign = CampaignFactory()
    plain = WorkerFactory(campaign=campaign)
    flagged = WorkerFactory(campaign=campaign, flagged=True)
    excluded = WorkerFactory(campaign=campaign, excluded=True, platform=Worker.Platform.MTURK)
    WorkerFactory()
    assert set(workers_listed(campaign=campaign)) == {plain, flagged, excluded}
    assert list(workers_listed(campaign=campaign, flagged=True)) == [flagged]
    assert set(workers_listed(campaign=campaign, flagged=False)) == {plain, excluded}
    assert list(workers_listed(campaign=campaign, excluded=True)) == [excluded]
    assert list(workers_listed(campaign=campaign, platform=Worker.Platform.MTURK)) == [excluded]
    newest_first = sorted(
        (plain, flagged, excluded), key=lambda w: (-w.created_at.timestamp(), w.pk)
    )
    assert list(workers_listed(campaign=campaign)) == newest_first
