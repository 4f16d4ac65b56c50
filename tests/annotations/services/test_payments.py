"""Payment decisions and bonuses (annotations/services/payments.py): saved, refused naming
worker and field, all or nothing, suggestions accepted."""

from __future__ import annotations

from decimal import Decimal

import pytest

from annotations.models import Worker
from annotations.services.payments import (
    Decision,
    workers_review_accept_suggestions,
    workers_review_update,
)
from common.errors import DomainError
from tests.annotations.designer_data import judged_campaign
from tests.annotations.payments_data import _checks, _worker

pytestmark = pytest.mark.django_db


# Decisions ------------------------------------------------------------------------------------


def test_decision_and_bonus_are_saved(campaign):
    worker = _worker(campaign, "PID0000")
    workers_review_update(campaign=campaign, decisions={worker.pk: Decision("approved", "1.5")})
    worker.refresh_from_db()
    assert (worker.review, worker.bonus) == ("approved", Decimal("1.50"))
    workers_review_update(campaign=campaign, decisions={worker.pk: Decision("")})
    worker.refresh_from_db()
    assert (worker.review, worker.bonus) == ("", Decimal("1.50"))


@pytest.mark.parametrize(
    ("review", "bonus", "message"),
    [
        ("paid", None, "Worker PID0000, decision: choose approved, rejected or nothing"),
        ("approved", "-1", "Worker PID0000, bonus: must be 0 or more."),
        ("approved", "1.555", "Worker PID0000, bonus: at most two decimals"),
        ("approved", "lots", "Worker PID0000, bonus: 'lots' is not an amount"),
        ("approved", "1e9", "Worker PID0000, bonus: at most 999999.99."),
    ],
)
def test_bad_decisions_are_refused_naming_worker_and_field(campaign, review, bonus, message):
    worker = _worker(campaign, "PID0000")
    with pytest.raises(DomainError, match=message.replace(".", r"\.")):
        workers_review_update(campaign=campaign, decisions={worker.pk: Decision(review, bonus)})
    worker.refresh_from_db()
    assert (worker.review, worker.bonus) == ("", Decimal(0))


def test_table_update_is_all_or_nothing(campaign):
    a, b = _worker(campaign, "PID0000"), _worker(campaign, "PID0001")
    with pytest.raises(DomainError, match="PID0001, bonus"):
        workers_review_update(
            campaign=campaign,
            decisions={a.pk: Decision("approved", "2"), b.pk: Decision("approved", "-2")},
        )
    assert set(campaign.workers.values_list("review", flat=True)) == {""}
    changed = workers_review_update(
        campaign=campaign,
        decisions={a.pk: Decision("approved", "2"), b.pk: Decision("rejected", None)},
    )
    assert changed == 2
    assert _worker(campaign, "PID0000").bonus == Decimal("2.00")
    assert _worker(campaign, "PID0001").review == "rejected"


def test_table_update_refuses_a_worker_of_another_campaign(campaign):
    other = judged_campaign(slug="other", n_workers=1).workers.get()
    with pytest.raises(DomainError, match=f"No worker {other.pk} in this campaign"):
        workers_review_update(campaign=campaign, decisions={other.pk: Decision("approved")})
    other.refresh_from_db()
    assert other.review == ""


def test_accepting_suggestions_fills_undecided_workers_only(campaign):
    _checks(_worker(campaign, "PID0000"), "attention", [True, True])
    _checks(_worker(campaign, "PID0001"), "attention", [False, False])
    _checks(_worker(campaign, "PID0002"), "attention", [True, True])
    Worker.objects.filter(external_id="PID0002").update(review="rejected")
    Worker.objects.create(campaign=campaign, platform="prolific", external_id="IDLE")
    assert workers_review_accept_suggestions(campaign=campaign) == 2
    reviews = dict(campaign.workers.values_list("external_id", "review"))
    # PID0002 was suggested approval but the organizer's rejection stands; IDLE has no
    # suggestion and stays undecided.
    assert reviews == {
        "PID0000": "approved",
        "PID0001": "rejected",
        "PID0002": "rejected",
        "IDLE": "",
    }
    assert workers_review_accept_suggestions(campaign=campaign) == 0
    assert workers_review_accept_suggestions(campaign=campaign, overwrite=True) == 1
    assert _worker(campaign, "PID0002").review == "approved"
