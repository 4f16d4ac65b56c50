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


def _consent_page_identity(client, campaign, query: str = "") -> str:
    page = client.get(
        reverse("annotations:worker-entry", args=[campaign.slug]) + query
    ).content.decode()
    found = IDENTITY.search(page)
    assert found is not None
    return found.group(1).replace("&amp;", "&")


def test_a_plain_link_opened_in_two_tabs_stays_one_worker(client, campaign):
    """Each consent page signs a fresh plain-link id: the second tab's consent made a
    second worker, to whom the link then led, and the first tab's work was out of reach."""
    first, second = (
        _consent_page_identity(client, campaign),
        _consent_page_identity(client, campaign),
    )
    assert first != second
    a = client.post(f"/w/{campaign.slug}/start/", {"agree": "on", "identity": first})
    b = client.post(f"/w/{campaign.slug}/start/", {"agree": "on", "identity": second})
    assert a.status_code == b.status_code == 303
    assert b["Location"] == a["Location"]  # the same session
    assert Worker.objects.filter(campaign=campaign).count() == 1
    again = client.get(reverse("annotations:worker-entry", args=[campaign.slug]))
    assert again["Location"] == a["Location"]


def test_a_returning_workers_consent_is_not_counted_nor_refused(client, campaign, settings):
    """A Prolific worker's second tab posted its consent after the address's limit and
    got the 'busy' page, though it created no worker: only new workers count."""
    settings.WORKER_SIGNUPS_PER_CLIENT = 1
    query = "?PROLIFIC_PID=r1&STUDY_ID=s&SESSION_ID=x1"
    tab_a, tab_b = (
        _consent_page_identity(client, campaign, query),
        _consent_page_identity(client, campaign, query),
    )
    assert (
        client.post(f"/w/{campaign.slug}/start/", {"agree": "on", "identity": tab_a}).status_code
        == 303
    )
    assert (
        client.post(f"/w/{campaign.slug}/start/", {"agree": "on", "identity": tab_b}).status_code
        == 303
    )
    assert Worker.objects.filter(campaign=campaign).count() == 1
    # The next new worker from this address is over the limit of 1.
    other = _consent_page_identity(
        client.__class__(), campaign, "?PROLIFIC_PID=r2&STUDY_ID=s&SESSION_ID=x2"
    )
    refused = client.__class__().post(
        f"/w/{campaign.slug}/start/", {"agree": "on", "identity": other}
    )
    assert refused.status_code == 429
