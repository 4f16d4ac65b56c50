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
