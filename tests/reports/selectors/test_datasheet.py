"""The evaluation datasheet (reports/selectors/datasheet.py): what the platform fills in,
what is left open for a person, the E2E datasheet."""

from __future__ import annotations

import pytest

from reports.core import heds
from reports.exports.datasheet import datasheet_markdown
from reports.selectors.datasheet import datasheet_for
from tests.reports.datasheet_data import _answers

pytestmark = pytest.mark.django_db


def test_platform_fills_what_the_campaign_knows(campaign):
    a = {k: e.platform_answer for k, e in _answers(campaign).items()}
    assert "meaning representations" in a["2.1"] and "1 inputs" in a["2.1"]
    assert a["2.4"] == "Stored language of the inputs: en (1)"
    assert a["3.1.1"].startswith("3 of the 3 outputs (3 systems on 1 items)")
    assert "outs.tsv (outputs)" in a["3.1.2"] and "seed 42" in a["3.1.2"]
    assert a["3.2.1"].startswith("2 evaluators submitted judgements (3 registered); 1 excluded")
    assert a["3.2.2"].startswith("1 marked as experts")
    assert "Prolific (2)" in a["3.2.3"] and "Amazon Mechanical Turk (1)" in a["3.2.3"]
    assert "1.50 in total to 1 workers; payment decisions: 1 approved, 0 rejected." in a["3.2.3"]
    assert "(5 words)" in a["3.2.4"]
    assert "10% of tasks (1 passed, 0 failed)" in a["3.3.3"]
    assert "Minimum time per task: 20 s" in a["3.3.3"] and "1 judgements too fast" in a["3.3.3"]
    assert "shown for quality and hidden for fluency" in a["3.3.4"]
    assert "25 minutes" in a["3.3.5"] and "at most 7 tasks" in a["3.3.5"]
    assert a["4.3.7@quality"] == "How good is it?" and a["4.3.7@fluency"] == "How fluent?"
    assert a["4.1.3@quality"].startswith("Relative to the input")
    assert a["4.1.3@fluency"].startswith("In its own right")
    assert "standard scored 100" in a["4.2.2@quality"]
    assert a["4.3.3@fluency"] == "2 levels."
    assert a["4.3.4@fluency"] == "1 = bad (unreadable); 2 = good (fine)"
    assert "checklist: added, missing" in a["4.3.5@fluency"]
    assert "value 100" in a["4.3.5@quality"]
    assert "bootstrap" in a["4.3.9@quality"].lower() and "300 runs, seed 7" in a["4.3.9@quality"]
    assert a["4.3.10@quality"].startswith("Rank ranges keep 270 of the 300 runs (90.0%; 90% asked)")
    # what that share is under the method (a bootstrap here; WMT14's is no interval)
    assert "(a share of the bootstrap replicates kept" in a["4.3.10@quality"]
    assert "judgements of this criterion" in a["4.3.9@quality"]
    assert a["4.3.11@quality"].startswith("Yes, on 2 judgements by 2 evaluators")
    assert a["4.3.9@fluency"] == "" and a["4.3.11@fluency"] == ""  # no run, no judgements


def test_person_questions_are_open_and_marked(campaign):
    entries = _answers(campaign)
    person = [k for k, e in entries.items() if not e.question.platform]
    assert person and all(entries[k].open for k in person)
    md = datasheet_markdown(datasheet_for(campaign=campaign))
    row = next(line for line in md.splitlines() if line.startswith("| 5.1 "))
    assert f"_{heds.TO_BE_ANSWERED}_" in row


@pytest.mark.e2e_data
def test_e2e_datasheet_complete_except_person_fields(e2e_dir):
    from annotations.importing.ratings import e2e_import
    from annotations.models import Campaign

    e2e_import(campaign_slug="e2e", folder=e2e_dir)
    sheet = datasheet_for(campaign=Campaign.objects.get(slug="e2e"))
    open_platform = [e for e in sheet.entries if e.open and e.question.platform]
    # Imported judgements: how they were collected (checks, interface, timing, training,
    # conditions, the instrument) is known only to a person: those questions stay open,
    # each with what the stored data do show, or empty, and what a person must add.
    assert open_platform
    for e in open_platform:
        assert e.ask or not e.platform_answer, e.key
    assert {e.key for e in open_platform} >= {"3.3.3", "3.3.4", "3.3.5", "3.3.7", "3.3.8"}
    md = datasheet_markdown(sheet)
    assert md.count(f"_{heds.TO_BE_ANSWERED}_") == len(sheet.open_keys)
    a = {e.key: e.platform_answer for e in sheet.entries}
    assert "meaning representations" in a["2.1"]
    assert a["4.3.11@quality"].startswith("Yes, on ")
