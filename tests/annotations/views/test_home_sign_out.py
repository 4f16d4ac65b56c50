"""The header signs out with a POST form."""

from __future__ import annotations

from django.urls import reverse


def test_header_signs_out_with_a_post_form(owner_client, client, people):
    html = owner_client.get(reverse("annotations:home")).content.decode()
    assert f'action="{reverse("logout")}"' in html and "Sign out" in html
    assert reverse("annotations:designer-account") in html
    response = owner_client.post(reverse("logout"))
    assert response.status_code == 302
    assert "Sign out" not in owner_client.get(reverse("annotations:home")).content.decode()
