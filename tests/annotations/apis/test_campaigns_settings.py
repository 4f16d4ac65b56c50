"""The API refuses impossible settings in the page's words."""

from __future__ import annotations

from tests.annotations.draft_campaign import _draft

# The same rules through the API ------------------------------------------------------------


def test_api_refuses_impossible_settings_in_the_same_words(people, owner_api):
    campaign = _draft(people["owner"])
    client = owner_api
    url = f"/api/campaigns/{campaign.slug}/"
    response = client.patch(url, {"outputs_per_task": 7, "tasks_per_worker": 0}, format="json")
    assert response.status_code == 400
    body = response.content.decode()
    assert "Outputs per task: 7 is more than the 6 systems" in body
    assert "Tasks per worker: must be at least 1" in body
    assert "constraint" not in body.lower()
    # Each reason under its field, as the API's other refusals list theirs.
    fields = response.json()["fields"]
    assert fields["outputs_per_task"][0].startswith("7 is more than the 6 systems")
    assert fields["tasks_per_worker"] == ["Must be at least 1: a worker needs a task to do."]
    campaign.refresh_from_db()
    assert (campaign.outputs_per_task, campaign.tasks_per_worker) == (5, 10)


def test_a_name_the_settings_do_not_have_is_refused_not_dropped(people, owner_api):
    """A misspelt setting, or the campaign's status sent to the settings, answered 200
    and changed nothing; now each is a 400 naming it, and nothing else is saved."""
    campaign = _draft(people["owner"])
    url = f"/api/campaigns/{campaign.slug}/"
    response = owner_api.patch(
        url, {"tasks_per_worker": 3, "staus": "live", "status": "live"}, format="json"
    )
    assert response.status_code == 400, response.content
    fields = response.json()["fields"]
    assert set(fields) == {"staus", "status"}
    assert (
        "takes no such field" in fields["status"][0] and "tasks_per_worker" in fields["status"][0]
    )
    campaign.refresh_from_db()
    assert (campaign.status, campaign.tasks_per_worker) == ("draft", 10)


def test_an_empty_name_is_refused_where_a_missing_one_is_the_slug(owner_api):
    """An explicit empty name made a campaign named after its slug; the page requires a
    name. Leaving the name out still takes the slug."""
    empty = owner_api.post("/api/campaigns/", {"slug": "nameless", "name": " "}, format="json")
    assert empty.status_code == 400 and "name" in empty.json()["fields"]
    left_out = owner_api.post("/api/campaigns/", {"slug": "nameless"}, format="json")
    assert left_out.status_code == 201 and left_out.json()["name"] == "nameless"


def test_a_negative_count_gets_the_settings_words_not_the_columns(people, owner_api):
    """``judgements_per_task=-1`` said "greater than or equal to 0" (the column's bound),
    which suggested 0 would do; it gets the settings check's reason, as 0 does."""
    campaign = _draft(people["owner"])
    url = f"/api/campaigns/{campaign.slug}/"
    for value in (-1, 0):
        response = owner_api.patch(url, {"judgements_per_task": value}, format="json")
        assert response.status_code == 400, response.content
        message = response.json()["fields"]["judgements_per_task"][0]
        assert message.startswith("Must be at least 1") and "0" not in message


def test_counts_beyond_the_settings_bounds_are_refused_on_every_database(people, owner_api):
    """SQLite took 2**63 - 1 minutes and judges (PostgreSQL's columns refused them), and
    the first worker's session page then failed; the schema said 2**63 - 1 too."""
    campaign = _draft(people["owner"])
    url = f"/api/campaigns/{campaign.slug}/"
    huge = {
        "assignment_timeout_minutes": 9223372036854775807,
        "min_seconds_per_task": 9223372036854775807,
        "judgements_per_task": 9223372036854775807,
        "outputs_per_task": 1_000_000,
    }
    response = owner_api.patch(url, huge, format="json")
    assert response.status_code == 400, response.content
    assert set(response.json()["fields"]) == set(huge)
    campaign.refresh_from_db()
    assert campaign.assignment_timeout_minutes == 30
    schema = owner_api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    patch = schema["components"]["schemas"]["PatchedCampaignUpdate"]["properties"]
    assert patch["assignment_timeout_minutes"]["maximum"] == 43_200


def test_the_settings_check_bounds_counts_whoever_saves(people):
    from annotations.services.campaigns import campaign_settings_problems

    campaign = _draft(people["owner"])
    campaign.tasks_per_worker = 100_001
    campaign.min_seconds_per_task = 86_401
    problems = campaign_settings_problems(campaign=campaign)
    assert problems["tasks_per_worker"] == "must be at most 100,000 tasks."
    assert problems["min_seconds_per_task"] == "must be at most 86,400 seconds (a day)."


def test_text_settings_have_a_length_bound(people, owner_api):
    """2 MB of instructions were taken (200), and every page showing them grew to match."""
    from annotations.services.campaigns import campaign_settings_problems

    campaign = _draft(people["owner"])
    url = f"/api/campaigns/{campaign.slug}/"
    response = owner_api.patch(url, {"instructions": "x" * 2_000_000}, format="json")
    assert response.status_code == 400 and "instructions" in response.json()["fields"]
    campaign.refresh_from_db()
    assert len(campaign.instructions) < 50_000
    campaign.consent_text = "y" * 20_001
    assert campaign_settings_problems(campaign=campaign)["consent_text"] == (
        "must be at most 20,000 characters (20,001 given)."
    )
    made = owner_api.post(
        "/api/campaigns/", {"slug": "long-one", "description": "d" * 5_001}, format="json"
    )
    assert made.status_code == 400 and "description" in made.json()["fields"]
