"""The monitor's load on the server: polling only the progress, queries that do not grow, no polling once closed."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotations.models import Campaign
from tests.annotations.designer_data import judged_campaign

HX = {"HTTP_HX_REQUEST": "true"}


def _queries(client, url, **extra):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **extra)
    assert response.status_code == 200
    return len(captured.captured_queries)


def test_monitor_poll_renders_only_the_progress(owner_client, people, django_assert_num_queries):
    campaign = judged_campaign(owner=people["owner"])
    url = reverse("annotations:designer-monitor", args=[campaign.slug])
    # session, user, campaign, role; criteria with task counts, three judgement counts,
    # throughput.
    with django_assert_num_queries(8):
        partial = owner_client.get(url, **HX)
    text = partial.content.decode()
    assert text.lstrip().startswith('<div id="live"') and 'hx-trigger="every 5s"' in text
    assert "12 of 12 judgements" in text and "Complete." in text
    # The heavy tables (read from every score) are neither queried nor rendered per poll.
    assert "Agreement" not in text and "PID0000" not in text


def test_monitor_page_queries_do_not_grow_with_workers(client, people):
    small = judged_campaign(owner=people["owner"], slug="small", n_workers=2)
    large = judged_campaign(owner=people["owner"], slug="large", n_workers=6)
    client.force_login(people["owner"])
    counts = [
        _queries(client, reverse("annotations:designer-monitor", args=[c.slug]))
        for c in (small, large)
    ]
    assert counts[0] == counts[1]
    page = client.get(reverse("annotations:designer-monitor", args=[large.slug]))
    assert len(page.context["workers"]) == 6
    assert page.context["agreement"][0].judgements == 6 * 4


def test_monitor_of_a_closed_campaign_stops_polling(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.CLOSED)
    html = owner_client.get(
        reverse("annotations:designer-monitor", args=[campaign.slug])
    ).content.decode()
    # No polling (the crowd-versus-experts panel still loads once).
    assert 'id="live"' in html and 'hx-trigger="every' not in html
    assert "no longer change" in html
