"""A campaign whose items carry attributes and languages, for the slice tests."""

from __future__ import annotations

from annotations.models import Item, Task
from tests.ranking.planted import planted_campaign


def _sliced(n: int = 80):
    """Planted strengths; items alternate challenge_set a / b; tasks of b are German."""
    campaign, criterion = planted_campaign(strengths=[40.0, 20.0, 0.0], n_judgements=n, k=3)
    for number, item in enumerate(Item.objects.filter(campaign=campaign).order_by("pk")):
        item.attributes = {"challenge_set": "ab"[number % 2]}
        item.save(update_fields=["attributes"])
        if number % 2:
            Task.objects.filter(item=item).update(language="de")
    campaign.languages = ["en", "de"]
    campaign.save(update_fields=["languages"])
    return campaign, criterion
