"""Multilingual campaigns for the language tests."""

from __future__ import annotations

from pathlib import Path

from annotations.importing.outputs import outputs_import
from annotations.models import Campaign
from annotations.services.tasks import tasks_build
from tests.annotations.importing.conftest import write_csv
from tests.factories import CampaignFactory, CriterionFactory

HEADER = ["item_id", "input", "system", "output", "language"]


def _rows(languages: dict[str, str], systems: int = 3) -> list[list[str]]:
    """Per item id its language: one output per system in that language."""
    return [
        [item, f"input {item}", f"s{s}", f"{language} output {s} of {item}", language]
        for item, language in languages.items()
        for s in range(systems)
    ]


def _live_two_languages(tmp_path: Path) -> Campaign:
    campaign = CampaignFactory(outputs_per_task=3, tasks_per_worker=20)
    CriterionFactory(campaign=campaign)
    rows = [HEADER, *_rows({str(n): "en" if n % 2 else "de" for n in range(8)})]
    outputs_import(campaign=campaign, path=write_csv(tmp_path / "o.csv", rows))
    tasks_build(campaign=campaign, seed=1)
    campaign.status = Campaign.Status.LIVE
    campaign.save(update_fields=["status"])
    return Campaign.objects.get(pk=campaign.pk)
