"""Saved answers (reports/services/datasheet.py) merge; bad keys write nothing."""

from __future__ import annotations

import pytest

from common.errors import DomainError
from reports.models import Datasheet
from reports.services.datasheet import datasheet_answers_update
from tests.reports.datasheet_data import _answers

pytestmark = pytest.mark.django_db


def test_saved_answers_merge_and_bad_keys_write_nothing(campaign):
    user = campaign.owner
    datasheet_answers_update(
        campaign=campaign, answers={"5.1": "Yes, ERC 12.", "4.1.1@quality": "goodness"}, user=user
    )
    entries = _answers(campaign)
    assert entries["5.1"].answer == "Yes, ERC 12." and entries["5.1"].source == "person"
    assert entries["4.1.1@quality"].person_answer == "goodness"
    with pytest.raises(DomainError, match=r"4\.1\.1@nope"):
        datasheet_answers_update(campaign=campaign, answers={"5.2": "No.", "4.1.1@nope": "x"})
    assert "5.2" not in Datasheet.objects.get(campaign=campaign).answers
    datasheet_answers_update(campaign=campaign, answers={"5.1": "  "})
    assert "5.1" not in Datasheet.objects.get(campaign=campaign).answers
