"""Shared judgements give the same monitor tables."""

from __future__ import annotations

import pytest

from annotations.selectors import agreement as agreement_selectors
from annotations.selectors import monitor as monitor_selectors
from tests.annotations.designer_data import judged_campaign


def test_shared_judgements_give_the_same_tables(people):
    campaign = judged_campaign(owner=people["owner"])
    judgements = monitor_selectors.campaign_judgements(campaign=campaign)
    assert len(judgements) == 12 and all("signs" in j for j in judgements.values())
    alone = monitor_selectors.worker_table(campaign=campaign)
    shared = monitor_selectors.worker_table(campaign=campaign, judgements=judgements)
    assert [(r.worker.pk, r.tasks_done, r.agreement) for r in alone] == [
        (r.worker.pk, r.tasks_done, r.agreement) for r in shared
    ]
    a = agreement_selectors.campaign_agreement(campaign=campaign)[0]
    b = agreement_selectors.campaign_agreement(campaign=campaign, judgements=judgements)[0]
    assert (a.judgements, a.workers) == (b.judgements, b.workers) == (12, 3)
    assert a.preference_alpha == pytest.approx(b.preference_alpha)
    assert a.score_alpha == pytest.approx(b.score_alpha)
