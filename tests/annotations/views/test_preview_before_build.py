"""The designer's preview of the worker's page works before tasks are built."""

from __future__ import annotations

import re

import pytest

from annotations.models import Criterion
from annotations.services.campaigns import campaign_create
from annotations.services.criteria import criterion_from_preset
from tests.annotations.draft_campaign import _draft

# The preview before tasks are built --------------------------------------------------------------


@pytest.mark.parametrize("scale", ["magnitude", "slider", "likert"])
def test_preview_works_before_tasks_are_built_in_every_scale(owner_client, people, scale):
    campaign = _draft(people["owner"])
    criterion_from_preset(campaign=campaign, preset="quality")
    criterion_from_preset(campaign=campaign, preset="grammar")
    Criterion.objects.create(
        campaign=campaign, name="overall", question="How good?", scale="slider", position=2
    )
    assert not campaign.tasks.exists()
    name = {"magnitude": "quality", "slider": "overall", "likert": "grammar"}[scale]
    response = owner_client.get(f"/w/{campaign.slug}/preview/", {"criterion": name})
    assert response.status_code == 200
    html = response.content.decode()
    assert f'data-scale="{scale}"' in html
    # A sample of the uploaded outputs: outputs_per_task (5) of item i0's 6 systems.
    shown = re.findall(r"Output of (s\d) for item 0\.", html)
    assert shown == ["s1", "s2", "s3", "s4", "s5"]
    assert "build the tasks to preview each of them" in html  # only the first item, said
    assert not campaign.tasks.exists()  # nothing was stored


def test_preview_without_outputs_says_so(owner_client, people):
    campaign = campaign_create(slug="empty", owner=people["owner"])
    criterion_from_preset(campaign=campaign, preset="quality")
    response = owner_client.get(f"/w/{campaign.slug}/preview/")
    assert response.status_code == 200
    assert "data-scale" not in response.content.decode()
