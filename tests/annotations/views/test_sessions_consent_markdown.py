"""The worker's consent page renders the designer's Markdown sanitised."""

from __future__ import annotations

from tests.annotations.markdown_data import _check_page


def test_worker_consent_page_renders_sanitised_markdown_and_every_scale(client, markdown_campaign):
    campaign = markdown_campaign
    campaign.status = "live"
    campaign.save(update_fields=["status"])
    response = client.get(f"/w/{campaign.slug}/", {"PROLIFIC_PID": "p1", "STUDY_ID": "s"})
    if response.status_code == 302:  # a known worker's session shows the consent page
        response = client.get(response["Location"])
    assert response.status_code == 200
    _check_page(response.content.decode(), campaign)
