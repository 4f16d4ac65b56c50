"""What crowd platforms' links carry, and the links and return URLs made for them."""

from __future__ import annotations

import pytest

from annotations.models import Campaign, Worker
from annotations.selectors import platforms
from annotations.selectors.platforms import Arrival, arrival_from


def _campaign(**accepts: bool) -> Campaign:
    return Campaign(
        slug="study",
        name="Study",
        accept_prolific=accepts.get("prolific", True),
        accept_mturk=accepts.get("mturk", True),
        accept_link=accepts.get("link", True),
    )


def test_prolific_link_is_a_prolific_arrival_with_study_and_session():
    arrival = arrival_from(
        campaign=_campaign(),
        params={"PROLIFIC_PID": " p1 ", "STUDY_ID": "s", "SESSION_ID": "x"},
    )
    assert arrival == Arrival(Worker.Platform.PROLIFIC, "p1", {"study_id": "s", "session_id": "x"})


def test_mturk_preview_and_accepted_hit():
    campaign = _campaign()
    preview = {"assignmentId": platforms.MTURK_NOT_ACCEPTED, "hitId": "H", "workerId": "W"}
    assert arrival_from(campaign=campaign, params=preview) == "mturk-preview"
    accepted = {"assignmentId": "A", "hitId": "H", "workerId": "W", "turkSubmitTo": "https://x"}
    assert arrival_from(campaign=campaign, params=accepted) == Arrival(
        Worker.Platform.MTURK,
        "W",
        {"assignment_id": "A", "hit_id": "H", "turk_submit_to": "https://x"},
    )


def test_plain_link_keeps_the_browsers_id_or_draws_one():
    campaign = _campaign()
    kept = arrival_from(campaign=campaign, params={}, link_worker_id="abc")
    assert kept == Arrival(Worker.Platform.LINK, "abc", {})
    drawn = arrival_from(campaign=campaign, params={})
    assert isinstance(drawn, Arrival) and len(drawn.external_id) == 32


@pytest.mark.parametrize(
    "params, accepts, refusal",
    [
        ({"PROLIFIC_PID": "{{%PROLIFIC_PID%}}"}, {}, "placeholder"),
        ({"PROLIFIC_PID": "p1"}, {"prolific": False}, "bad-link"),
        ({"workerId": "W", "assignmentId": "A"}, {"mturk": False}, "bad-link"),
        ({}, {"link": False}, "bad-link"),
        ({"PROLIFIC_PID": "x" * 201}, {}, "bad-link"),
        # A platform's id sent empty: the study's link was set up without it. Not a
        # plain-link worker (their Prolific or MTurk work would be paid to nobody).
        ({"PROLIFIC_PID": "", "STUDY_ID": "s", "SESSION_ID": "x"}, {}, "bad-link"),
        ({"PROLIFIC_PID": "  "}, {}, "bad-link"),
        ({"PROLIFIC_PID": ""}, {"prolific": False}, "bad-link"),
        ({"workerId": "", "assignmentId": "A", "hitId": "H"}, {}, "bad-link"),
        ({"workerId": " ", "assignmentId": "A"}, {"mturk": False}, "bad-link"),
    ],
)
def test_refusals(params, accepts, refusal):
    assert arrival_from(campaign=_campaign(**accepts), params=params) == refusal


def test_entry_links_per_accepted_platform():
    links = platforms.entry_links(
        campaign=_campaign(mturk=False), entry_url="https://he.example/w/study/"
    )
    assert [link["platform"] for link in links] == ["Prolific", "Plain link"]
    assert links[0]["url"].startswith("https://he.example/w/study/?PROLIFIC_PID={{%PROLIFIC_PID%}}")
    assert platforms.entry_path(campaign=_campaign()) == "/w/study/"


def test_return_urls():
    assert platforms.prolific_completion_url("C 1") == (
        "https://app.prolific.com/submissions/complete?cc=C+1"
    )
    assert platforms.mturk_submit_url("https://workersandbox.mturk.com") == (
        "https://workersandbox.mturk.com/mturk/externalSubmit"
    )
    assert platforms.mturk_submit_url("https://evil.example") == (
        "https://www.mturk.com/mturk/externalSubmit"
    )


@pytest.mark.parametrize(
    ("platform", "stored", "sent", "cookie", "continues"),
    [
        pytest.param(
            "prolific", {"session_id": "S1"}, {"session_id": "S1"}, None, True, id="p-same"
        ),
        pytest.param(
            "prolific", {"session_id": "S1"}, {"session_id": "S2"}, None, False, id="p-other"
        ),
        pytest.param("prolific", {"session_id": "S1"}, {}, None, False, id="p-id-only"),
        # Nothing stored to compare with: an empty SESSION_ID never matches.
        pytest.param("prolific", {"session_id": ""}, {"session_id": ""}, None, False, id="p-empty"),
        pytest.param("prolific", {}, {}, 7, True, id="p-cookie"),
        pytest.param("prolific", {}, {}, 8, False, id="p-foreign-cookie"),
        pytest.param(
            "mturk", {"assignment_id": "A1"}, {"assignment_id": "A1"}, None, True, id="m-same"
        ),
        pytest.param(
            "mturk", {"assignment_id": "A1"}, {"assignment_id": "A2"}, None, False, id="m-new"
        ),
        # Another platform's secret does not count.
        pytest.param("mturk", {"session_id": "S1"}, {"session_id": "S1"}, None, False, id="m-sid"),
        pytest.param("link", {}, {}, None, True, id="link"),
    ],
)
def test_only_the_browser_or_the_platform_session_continues_a_worker(
    platform, stored, sent, cookie, continues
):
    worker = Worker(pk=7, platform=platform, external_id="w", metadata=stored)
    arrival = Arrival(platform, "w", sent)
    assert (
        platforms.arrival_continues(worker=worker, arrival=arrival, session_worker_id=cookie)
        is continues
    )
