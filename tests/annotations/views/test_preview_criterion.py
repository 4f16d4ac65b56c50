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
