"""A campaign made through the new-campaign page, as a designer makes one."""

from __future__ import annotations

from django.urls import reverse

from annotations.models import Campaign


def _campaign(client, slug="pilot"):
    response = client.post(
        reverse("annotations:designer-new"), {"name": "Pilot", "slug": slug, "description": ""}
    )
    assert response.status_code == 302
    return Campaign.objects.get(slug=slug)
