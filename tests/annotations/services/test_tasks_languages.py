"""Tasks never mix languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing.outputs import outputs_import
from annotations.models import Task
from annotations.services.tasks import tasks_build
from tests.annotations.importing.conftest import write_csv
from tests.annotations.languages_data import _rows
from tests.factories import CampaignFactory, CriterionFactory

pytestmark = pytest.mark.django_db


HEADER = ["item_id", "input", "system", "output", "language"]


def test_tasks_never_mix_languages(tmp_path: Path) -> None:
    campaign = CampaignFactory(outputs_per_task=3)
    CriterionFactory(campaign=campaign)
    # Item 1 has outputs in two languages (a cross-lingual set-up): two designs.
    rows = [HEADER, *_rows({"2": "en", "3": "de"}, systems=4)]
    rows += [["1", "input 1", f"s{s}", f"t{s}", "en" if s < 2 else "de"] for s in range(4)]
    outputs_import(campaign=campaign, path=write_csv(tmp_path / "o.csv", rows))
    tasks_build(campaign=campaign, seed=5)
    tasks = Task.objects.filter(campaign=campaign).prefetch_related("task_outputs__output")
    assert tasks.exists()
    for task in tasks:
        languages = {to.output.language for to in task.task_outputs.all()}
        assert languages == {task.language}, (task.item.external_id, languages)
    assert set(tasks.values_list("language", flat=True)) == {"en", "de"}
