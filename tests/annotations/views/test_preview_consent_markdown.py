"""The designer's preview of the consent page (annotations/views/preview.py)."""

from __future__ import annotations

from django.urls import reverse

from tests.annotations.markdown_data import _check_page


def test_designer_preview_of_the_consent_page(client, markdown_campaign):
    campaign = markdown_campaign
    client.force_login(campaign.owner)
    response = client.get(reverse("annotations:designer-preview-intro", args=[campaign.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    _check_page(html, campaign)
    assert f'href="/w/{campaign.slug}/preview/"' in html and 'name="agree"' not in html
