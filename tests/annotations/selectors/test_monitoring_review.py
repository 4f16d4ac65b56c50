"""Shared judgements give the same monitor tables."""

from __future__ import annotations

import pytest

from annotations.selectors import monitoring
from tests.annotations.designer_data import judged_campaign


def test_shared_judgements_give_the_same_tables(people):
    campaign = judged_campaign(owner=people["owner"])
    judgements = monitoring.campaign_judgements(campaign=campaign)
    assert len(judgements) == 12 and all("signs" in j for j in judgements.values())
    alone = monitoring.worker_table(campaign=campaign)
    shared = monitoring.worker_table(campaign=campaign, judgements=judgements)
    assert [(r.worker.pk, r.tasks_done, r.agreement) for r in alone] == [
        (r.worker.pk, r.tasks_done, r.agreement) for r in shared
    ]
    a = monitoring.campaign_agreement(campaign=campaign)[0]
    b = monitoring.campaign_agreement(campaign=campaign, judgements=judgements)[0]
    assert (a.judgements, a.workers) == (b.judgements, b.workers) == (12, 3)
    assert a.preference_alpha == pytest.approx(b.preference_alpha)
    assert a.score_alpha == pytest.approx(b.score_alpha)
