"""Excluding a worker (annotations/services/workers.py), with a reason, and undoing it."""

from __future__ import annotations

import pytest

from annotations.services import workers as worker_services
from common.errors import DomainError
from tests.annotations.designer_data import judged_campaign

pytestmark = pytest.mark.django_db


def test_exclude_a_worker_with_a_reason_and_undo():
    campaign = judged_campaign()
    worker = campaign.workers.order_by("id").first()
    assert worker is not None
    with pytest.raises(DomainError, match="Say why"):
        worker_services.worker_exclude(worker=worker, reason="   ")
    worker.refresh_from_db()
    assert not worker.excluded
    worker_services.worker_exclude(worker=worker, reason="Same score for every output")
    worker.refresh_from_db()
    assert worker.excluded and worker.exclusion_reason == "Same score for every output"
    assert worker.judgements.count() == 4  # judgements stay stored
    worker_services.worker_include(worker=worker)
    worker.refresh_from_db()
    assert not worker.excluded and worker.exclusion_reason == ""


def test_worker_mark_refuses_an_exclusion_without_a_reason():
    """Every door calls worker_mark; the rule is there, not only in worker_exclude."""
    campaign = judged_campaign()
    worker = campaign.workers.order_by("id").first()
    assert worker is not None
    for reason in (None, "", "  "):
        with pytest.raises(DomainError, match="Say why") as excinfo:
            worker_services.worker_mark(worker=worker, excluded=True, reason=reason)
        assert excinfo.value.field == "reason"
    worker.refresh_from_db()
    assert not worker.excluded
    worker_services.worker_mark(worker=worker, flagged=True)  # other marks need no reason
    worker.refresh_from_db()
    assert worker.flagged and not worker.excluded
