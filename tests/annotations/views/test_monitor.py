"""The monitor page (annotations/views/monitor.py): progress, its live partial, marking workers."""

from __future__ import annotations

from django.urls import reverse

from annotations.models import Campaign, Worker
from tests.annotations.designer_data import judged_campaign

HX = {"HTTP_HX_REQUEST": "true"}


def test_monitor_page_and_live_partial(owner_client, people, django_assert_max_num_queries):
    campaign = judged_campaign(owner=people["owner"])
    url = reverse("annotations:designer-monitor", args=[campaign.slug])
    page = owner_client.get(url)
    html = page.content.decode()
    assert 'hx-trigger="every 5s"' in html
    progress = page.context["progress"][0]
    assert (progress.planned, progress.collected) == (12, 12)
    matrix = page.context["matrix"]
    alpha = matrix.labels.index("alpha")
    beta = matrix.labels.index("beta")
    # Every task shows alpha and beta in different slots: 4 tasks x 3 workers.
    assert matrix.counts[alpha][beta] == 12
    # gamma and delta share a slot on item 0 (identical outputs): not compared there.
    g, d = matrix.labels.index("gamma"), matrix.labels.index("delta")
    assert matrix.counts[g][d] == 9
    rows = {r.worker.external_id: r for r in page.context["workers"]}
    assert rows["PID0000"].tasks_done == 4
    assert 0 <= rows["PID0000"].agreement <= 1
    with django_assert_max_num_queries(25):
        partial = owner_client.get(url, **HX)
    text = partial.content.decode()
    assert text.lstrip().startswith('<div id="live"') and "<html" not in text


def test_flag_and_exclude_worker_with_and_without_htmx(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    worker = campaign.workers.first()
    assert worker is not None
    url = reverse("annotations:designer-worker-mark", args=[campaign.slug, worker.pk])
    response = owner_client.post(url, {"action": "flag"})
    assert response.status_code == 302
    # Excluding needs a reason: without one the row says so and nothing changes.
    response = owner_client.post(url, {"action": "exclude", "reason": " "}, **HX)
    assert response.status_code == 200 and "Say why" in response.content.decode()
    worker.refresh_from_db()
    assert not worker.excluded
    response = owner_client.post(url, {"action": "exclude", "reason": "Rushed: 3 s"}, **HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith(f'<tr id="worker-{worker.pk}"') and "excluded" in html
    assert "Rushed: 3 s" in html and "Include again" in html
    worker.refresh_from_db()
    assert worker.flagged and worker.excluded and worker.exclusion_reason == "Rushed: 3 s"
    # Their judgements stay stored.
    assert worker.judgements.count() == 4
    assert owner_client.post(url, {"action": "nonsense"}).status_code == 400
    owner_client.post(url, {"action": "include"})
    worker.refresh_from_db()
    assert not worker.excluded and worker.exclusion_reason == ""


def test_workers_never_see_designer_pages(client, people):
    """A crowd worker has no account: the pages send them to sign in."""
    campaign = judged_campaign(owner=people["owner"])
    assert Worker.objects.filter(campaign=campaign).exists()
    response = client.get(reverse("annotations:designer-monitor", args=[campaign.slug]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_monitor_of_a_closed_campaign_gives_no_finish_estimate(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    Campaign.objects.filter(pk=campaign.pk).update(
        status=Campaign.Status.CLOSED, judgements_per_task=6
    )
    html = owner_client.get(
        reverse("annotations:designer-monitor", args=[campaign.slug])
    ).content.decode()
    assert "12 not collected · no finish estimate: the campaign is closed" in html
    assert "estimated finish" not in html and "to go" not in html
