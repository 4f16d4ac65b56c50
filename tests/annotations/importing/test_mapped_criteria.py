"""The scale a column-mapped import gives a new criterion (annotations/importing/mapped_criteria.py):
Likert levels are inferred by one rule (the criteria service's ``likert_levels_inferred``),
whether the scale is inferred or the mapping says Likert without levels, and a magnitude
criterion gets the criteria service's settings, the ones its presets get."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing import mapped_criteria
from annotations.importing.mapped import mapped_import
from annotations.importing.mappings import mapping_parse
from annotations.models import Criterion
from annotations.services.criteria import magnitude_settings
from tests.annotations.importing.conftest import write_csv
from tests.factories import CampaignFactory

HEADER = ["worker", "item", "input", "system", "output", "said", "guessed", "sized"]

MAPPING = {
    "format": "csv",
    "worker": "worker",
    "item": "item",
    "input": "input",
    "slots": 1,
    "system": "system",
    "output": "output",
    "criteria": [
        {"name": "said", "score": "said", "scale": "likert"},
        {"name": "guessed", "score": "guessed"},
        {"name": "sized", "score": "sized", "scale": "magnitude"},
    ],
}


def _file(tmp_path: Path) -> Path:
    rows = [HEADER]
    for i in range(3):
        for s, system in enumerate(("alpha", "beta")):
            score = str(1 + (i + s) % 5)
            rows.append(
                ["w1", str(i), f"MR {i}", system, f"{system} {i}", score, score, str(90 + s)]
            )
    return write_csv(tmp_path / "ratings.csv", rows)


@pytest.mark.django_db
def test_both_likert_paths_infer_levels_by_the_one_rule(tmp_path, monkeypatch) -> None:
    seven = list(range(1, 8))
    monkeypatch.setattr(mapped_criteria, "likert_levels_inferred", lambda scores: seven)
    campaign = CampaignFactory()
    mapped_import(campaign=campaign, path=_file(tmp_path), mapping=mapping_parse(MAPPING))
    for name in ("said", "guessed"):
        criterion = campaign.criteria.get(name=name)
        assert criterion.scale == Criterion.Scale.LIKERT
        assert [level["value"] for level in criterion.likert_levels] == seven


@pytest.mark.django_db
def test_an_imported_magnitude_criterion_gets_the_services_settings(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(Criterion, "MAGNITUDE_STANDARD", 50)
    monkeypatch.setattr(Criterion, "MAGNITUDE_MAX_DIGITS", 4)
    campaign = CampaignFactory()
    mapped_import(campaign=campaign, path=_file(tmp_path), mapping=mapping_parse(MAPPING))
    imported = campaign.criteria.get(name="sized")
    assert imported.scale_settings == magnitude_settings() == {"standard": 50, "max_digits": 4}
