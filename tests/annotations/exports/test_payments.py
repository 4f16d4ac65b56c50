"""The platforms' bulk payment files, exact bytes (annotations/exports/payments.py)."""

from __future__ import annotations

import pytest

from annotations.exports.payments import (
    mturk_review_csv,
    payment_export,
    prolific_approve_text,
    prolific_bonus_csv,
)
from annotations.selectors.payments import DEFAULT_REJECT_REASON
from common.errors import DomainError

pytestmark = pytest.mark.django_db


def test_prolific_bulk_approve_is_approved_ids_one_a_line(decided):
    assert prolific_approve_text(campaign=decided).encode() == (
        b'5f0c1a2b3c4d5e6f7a8b9c0d\n\'=HYPERLINK("http://x")\n'
    )
    assert payment_export(campaign=decided, fmt="prolific-approve") == (
        prolific_approve_text(campaign=decided)
    )


def test_prolific_bonus_csv_is_participant_and_amount_lines(decided):
    assert prolific_bonus_csv(campaign=decided).encode() == (
        b"5f0c1a2b3c4d5e6f7a8b9c0d,1.50\n"
        b"6100aaaaaaaaaaaaaaaaaaaa,2.00\n"
        b'"\'=HYPERLINK(""http://x"")",0.25\n'
    )


def test_mturk_review_csv_has_mturk_columns_x_and_reasons(decided):
    expected = (
        b"HITId,AssignmentId,WorkerId,Approve,Reject\r\n"
        b"3HIT,3AS3,'-W3,," + DEFAULT_REJECT_REASON.encode() + b"\r\n"
        b"3HIT,3AS1,A1B2C3,x,\r\n"
        b'3HIT,3AS2,A9Z8,,"Answered ""100"" everywhere, without reading"\r\n'
    )
    assert mturk_review_csv(campaign=decided).encode() == expected


def test_mturk_file_uses_the_suggestion_reason_when_there_is_one(decided):
    worker = decided.workers.get(external_id="-W3")
    worker.flagged = True
    worker.save(update_fields=["flagged"])
    text = payment_export(campaign=decided, fmt="mturk-review")
    assert "3HIT,3AS3,'-W3,,Flagged by hand (no quality checks).\r\n" in text
    assert "0 of 0" not in text


def test_unknown_export_is_refused(decided):
    with pytest.raises(DomainError, match="Unknown payment export 'xlsx'"):
        payment_export(campaign=decided, fmt="xlsx")
