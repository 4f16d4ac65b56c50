"""Payment suggestions, the summary and what the platforms' files list
(annotations/selectors/payments.py)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from annotations.models import Campaign, Worker
from annotations.selectors.payments import (
    DEFAULT_REJECT_REASON,
    MTurkReview,
    mturk_reviews,
    payment_rows,
    payment_summary,
    prolific_approved,
    prolific_bonuses,
)
from annotations.selectors.quality import quality_verdict
from annotations.services.quality import worker_quality_update
from tests.annotations.payments_data import _checks, _worker

pytestmark = pytest.mark.django_db


def _row(campaign: Campaign, external_id: str):
    return next(r for r in payment_rows(campaign=campaign) if r.worker.external_id == external_id)


# Suggestions ----------------------------------------------------------------------------------


def test_worker_who_passed_the_checks_is_suggested_for_approval(campaign):
    _checks(_worker(campaign, "PID0000"), "attention", [True, True])
    row = _row(campaign, "PID0000")
    assert (row.suggestion, row.attention_passed, row.attention_checks) == ("approved", 2, 2)
    assert row.tasks_done == 4
    assert row.reason == "Passed 2 of 2 quality checks."


def test_attention_pass_rate_below_the_threshold_is_suggested_for_rejection(campaign):
    _checks(_worker(campaign, "PID0001"), "attention", [True, False, False])
    row = _row(campaign, "PID0001")
    assert row.suggestion == "rejected"
    assert row.reason == "Passed 1 of 3 attention checks, below the campaign's 50%."
    assert row.failed_kinds == ("attention",)


def test_the_campaign_threshold_decides(campaign):
    _checks(_worker(campaign, "PID0001"), "attention", [True, False, False])
    campaign.quality_threshold = 0.3
    campaign.save(update_fields=["quality_threshold"])
    assert _row(campaign, "PID0001").suggestion == "approved"


def test_workers_the_quality_service_flags_are_suggested_for_rejection(campaign):
    # Repeats are rated on their own by the one rule (selectors.quality.quality_verdict),
    # which flags the worker and gives the payment page its reason.
    worker = _worker(campaign, "PID0002")
    _checks(worker, "repeat", [False, False, True])
    worker_quality_update(worker=worker)
    worker.refresh_from_db()
    assert worker.flagged
    row = _row(campaign, "PID0002")
    assert row.suggestion == "rejected"
    assert row.reason == "Passed 1 of 3 repeated tasks, below the campaign's 50%."


def test_excluded_and_stopped_workers_are_suggested_for_rejection(campaign):
    Worker.objects.filter(external_id="PID0000").update(
        excluded=True, exclusion_reason="Copied the same text everywhere"
    )
    _checks(_worker(campaign, "PID0001"), "attention", [False, False])
    Worker.objects.filter(external_id="PID0001").update(stopped=True)
    assert _row(campaign, "PID0000").reason == "Excluded: Copied the same text everywhere"
    assert _row(campaign, "PID0000").suggestion == "rejected"
    assert _row(campaign, "PID0001").suggestion == "rejected"
    assert _row(campaign, "PID0001").reason.startswith("Stopped by the quality checks")


NO_CHECKS = "No quality checks: decide by hand."


def test_a_worker_with_no_quality_checks_is_not_presented_as_having_passed(campaign):
    """Review: imported workers with no checks at all read "Approve - No quality check
    failed" on payments and "No quality check yet." in the workers API. One verdict
    and one reason, from the one rule: nothing checked, nothing passed; decide."""
    row = _row(campaign, "PID0000")  # 4 tasks done, no WorkerCheck at all
    assert row.checks == 0 and row.tasks_done == 4
    assert (row.suggestion, row.reason) == ("", NO_CHECKS)
    assert quality_verdict(None, threshold=0.5).reason == NO_CHECKS
    owner = User.objects.create_user("payments-owner")
    campaign.owner = owner
    campaign.save(update_fields=["owner"])
    api = APIClient()
    api.force_authenticate(owner)
    workers = api.get(f"/api/campaigns/{campaign.slug}/workers/").json()
    workers = workers.get("results", workers) if isinstance(workers, dict) else workers
    entry = next(w for w in workers if w["worker"]["external_id"] == "PID0000")
    assert entry["quality_reason"] == row.reason and entry["below_quality_threshold"] is False
    # Checked and passed: approval, with the counts.
    _checks(_worker(campaign, "PID0000"), "attention", [True, True])
    row = _row(campaign, "PID0000")
    assert (row.suggestion, row.reason) == ("approved", "Passed 2 of 2 quality checks.")


def test_a_flagged_or_stopped_worker_with_no_checks_says_so(campaign):
    Worker.objects.filter(external_id="PID0000").update(flagged=True)
    Worker.objects.filter(external_id="PID0001").update(stopped=True)
    flagged, stopped = _row(campaign, "PID0000"), _row(campaign, "PID0001")
    assert (flagged.suggestion, flagged.reason) == (
        "rejected",
        "Flagged by hand (no quality checks).",
    )
    assert stopped.reason == "Stopped by hand (no quality checks)."
    _checks(_worker(campaign, "PID0000"), "repeat", [True, False, True])
    assert _row(campaign, "PID0000").reason == "Flagged (1 of 3 quality checks failed)."


def test_worker_without_a_finished_task_gets_no_suggestion(campaign):
    Worker.objects.create(campaign=campaign, platform="prolific", external_id="IDLE")
    row = _row(campaign, "IDLE")
    assert (row.suggestion, row.tasks_done) == ("", 0)


def test_summary_counts_decisions_and_bonuses(campaign):
    Worker.objects.filter(external_id="PID0000").update(review="approved", bonus=Decimal("1.25"))
    Worker.objects.filter(external_id="PID0001").update(review="rejected", bonus=Decimal("0.50"))
    _checks(_worker(campaign, "PID0001"), "attention", [True, True])
    summary = payment_summary(rows=payment_rows(campaign=campaign))
    assert (summary.workers, summary.approved, summary.rejected, summary.undecided) == (3, 1, 1, 1)
    assert summary.bonus_total == Decimal("1.75")
    # PID0001 passed every check yet was rejected: against the suggestion.
    assert summary.disagreeing == 1


# What the bulk files list ---------------------------------------------------------------------


def test_the_bulk_files_list_the_decided_workers_in_order(decided):
    assert prolific_approved(campaign=decided) == [
        "5f0c1a2b3c4d5e6f7a8b9c0d",
        '=HYPERLINK("http://x")',
    ]
    assert prolific_bonuses(campaign=decided) == [
        ("5f0c1a2b3c4d5e6f7a8b9c0d", Decimal("1.50")),
        ("6100aaaaaaaaaaaaaaaaaaaa", Decimal("2.00")),
        ('=HYPERLINK("http://x")', Decimal("0.25")),
    ]
    reviews = mturk_reviews(
        campaign=decided, reasons={decided.workers.get(external_id="A9Z8").pk: "x"}
    )
    assert reviews == [
        MTurkReview("3HIT", "3AS3", "-W3", approved=False, reason=DEFAULT_REJECT_REASON),
        MTurkReview("3HIT", "3AS1", "A1B2C3", approved=True, reason=""),
        # the exclusion reason wins over a suggestion's
        MTurkReview(
            "3HIT",
            "3AS2",
            "A9Z8",
            approved=False,
            reason='Answered "100" everywhere,\nwithout reading',
        ),
    ]
