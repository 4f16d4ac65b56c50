"""The designer's preview shows a task of the criterion asked for."""

from __future__ import annotations

from django.urls import reverse

from annotations.models import Output, Task, TaskOutput
from annotations.services.criteria import criterion_from_preset
from tests.annotations.designer_data import judged_campaign


def test_preview_shows_a_task_of_the_criterion_asked_for(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    naturalness = criterion_from_preset(campaign=campaign, preset="naturalness")
    item = campaign.items.order_by("position").first()
    assert item is not None
    task = Task.objects.create(campaign=campaign, criterion=naturalness, item=item, number=0)
    for slot, output in enumerate(Output.objects.filter(item=item).order_by("system__label")):
        TaskOutput.objects.create(task=task, output=output, slot=slot)
    url = reverse("annotations:worker-preview", args=[campaign.slug])
    first = owner_client.get(url)
    assert first.context["criterion"].name == "quality"
    html = first.content.decode()
    assert '?criterion=naturalness"' in html and "Back to the campaign" in html
    chosen = owner_client.get(url, {"criterion": "naturalness"})
    assert chosen.status_code == 200 and chosen.context["criterion"] == naturalness


def test_the_preview_pages_through_every_task_of_the_criterion(owner_client, people):
    """A designer could preview only the first item's task, so never saw before launch
    how a long, right-to-left or HTML-looking item looks to workers. The preview now
    links the next task of the criterion, round to the first again."""
    campaign = judged_campaign(owner=people["owner"])
    url = reverse("annotations:worker-preview", args=[campaign.slug])
    tasks = list(
        Task.objects.filter(campaign=campaign, kind=Task.Kind.REGULAR).order_by("number", "id")
    )
    assert len(tasks) >= 2
    seen = []
    page = owner_client.get(url)
    for _ in range(len(tasks)):
        assert "data-preview-next" in page.content.decode()
        following = page.context["preview_next"]
        seen.append(following.pk)
        page = owner_client.get(url, {"task": following.pk})
        assert page.status_code == 200
    assert sorted(seen) == sorted(t.pk for t in tasks)  # every task, once round
