"""The scale a column-mapped import gives a new criterion (annotations/importing/mapped_criteria.py):
Likert levels are inferred by one rule (the criteria service's ``likert_levels_inferred``),
whether the scale is inferred or the mapping says Likert without levels, and a magnitude
criterion gets the criteria service's settings, the ones its presets get."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


#: a 1-7 fluency file (scores 7 and 3), and its mapping with a criterion of one's own
SEVEN = [["judge", "seg", "team1", "team2", "flu1", "flu2"], ["w1", "1", "A", "B", "7", "3"]]


def _seven_mapping(criterion: dict) -> Any:
    return mapping_parse(
        {
            "format": "csv",
            "worker": "judge",
            "item": "seg",
            "system": "team{i}",
            "criteria": [criterion],
        }
    )


@pytest.mark.parametrize(
    ("criterion", "source"),
    [
        ({"name": "fluency", "score": "flu{i}"}, "the criterion preset 'fluency'"),
        ({"name": "answer", "score": "flu{i}", "levels": [1, 2, 3]}, "the mapping"),
    ],
)
def test_the_preview_names_scores_off_the_levels_it_states(tmp_path, criterion, source) -> None:
    """Review: a 1-7 fluency file previewed as "Likert, levels 1 to 5 from the criterion
    preset" with its 7 and 6 listed and no word, then the import refused them."""
    from annotations.importing.parsers.mapped import preview_mapped

    mapping = _seven_mapping(criterion)
    parsed = preview_mapped(write_csv(tmp_path / "seven.csv", SEVEN), mapping, rows=5)
    (note,) = mapped_criteria.mapped_preview_scales(campaign=None, mapping=mapping, parsed=parsed)
    assert f"The rows shown hold 7, not among the levels of {source}" in note
    if "preset" in source:  # the levels it states, as the mapping's are
        assert note.startswith("fluency: new, likert (levels 1, 2, 3, 4, 5) from the criterion")
    assert "the import would refuse them" in note


@pytest.mark.django_db
def test_a_score_off_a_presets_levels_is_refused_naming_the_preset(tmp_path) -> None:
    """Review: a 1-7 fluency file was refused with "'7' is not a level of criterion
    'fluency' (Likert levels: 1, 2, 3, 4, 5)", not saying the levels were the criterion
    preset's nor how to give others."""
    from annotations.models import Judgement
    from common.errors import ImportFileError

    campaign = CampaignFactory()
    mapping = _seven_mapping({"name": "fluency", "score": "flu{i}"})
    with pytest.raises(ImportFileError) as refused:
        mapped_import(campaign=campaign, path=write_csv(tmp_path / "s.csv", SEVEN), mapping=mapping)
    said = str(refused.value)
    assert "'7' is not a level of criterion 'fluency'" in said
    assert "from the criterion preset 'fluency'" in said and "own levels" in said
    assert (refused.value.line, refused.value.field) == (2, "flu1")
    assert not Judgement.objects.exists()
