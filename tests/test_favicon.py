"""The site's icon, at the root where browsers ask for it."""

from __future__ import annotations

import pytest


@pytest.mark.django_db
def test_the_favicon_is_served_at_the_root(client) -> None:
    """Browsers ask every page's origin for /favicon.ico (the admin's pages, the export
    tables, which link none): it was a 404, a console error on every page. WhiteNoise
    serves it from public/ (WHITENOISE_ROOT), and the pages link it."""
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] in ("image/x-icon", "image/vnd.microsoft.icon")
    body = b"".join(response.streaming_content)
    assert body[:4] == b"\x00\x00\x01\x00"  # an ICO file
    page = client.get("/accounts/login/").content.decode()
    assert '<link rel="icon" href="/favicon.ico">' in page
