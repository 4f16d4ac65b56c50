"""One client address signs up at most WORKER_SIGNUPS_PER_CLIENT new workers in the
window: 45 made-up participants from one connection held every task place of a live
campaign for the assignment timeout, and the real Prolific worker after them was turned
away ("All tasks are taken")."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from annotations.models import Worker

pytestmark = pytest.mark.django_db

IDENTITY = re.compile(r'name="identity" value="([^"]+)"')


def _sign_up(client, campaign, pid: str, address: str = "203.0.113.7"):
    page = client.get(
        reverse("annotations:worker-entry", args=[campaign.slug])
        + f"?PROLIFIC_PID={pid}&SESSION_ID=s-{pid}",
        REMOTE_ADDR=address,
    ).content.decode()
    found = IDENTITY.search(page)
    assert found is not None, "no identity on the consent page"
    identity = found.group(1).replace("&amp;", "&")
    return client.post(
        f"/w/{campaign.slug}/start/",
        {"agree": "on", "identity": identity},
        REMOTE_ADDR=address,
    )


def test_sign_ups_beyond_the_limit_get_a_429_page_and_create_no_worker(client, campaign, settings):
    settings.WORKER_SIGNUPS_PER_CLIENT = 3
    settings.WORKER_SIGNUPS_WINDOW = 600
    for n in range(3):
        assert _sign_up(client.__class__(), campaign, f"p{n}").status_code in (302, 303)
    refused = _sign_up(client.__class__(), campaign, "p3")
    assert refused.status_code == 429
    assert refused["Retry-After"] == "600"
    assert "Many people have just joined from this connection" in refused.content.decode()
    assert not Worker.objects.filter(external_id="p3").exists()
    # Another address is not held back.
    other = _sign_up(client.__class__(), campaign, "p4", address="198.51.100.9")
    assert other.status_code in (302, 303)
    assert Worker.objects.filter(campaign=campaign).count() == 4


def test_zero_means_no_limit(client, campaign, settings):
    settings.WORKER_SIGNUPS_PER_CLIENT = 0
    for n in range(5):
        assert _sign_up(client.__class__(), campaign, f"q{n}").status_code in (302, 303)
