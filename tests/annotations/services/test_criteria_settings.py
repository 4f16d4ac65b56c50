"""The scale settings the criteria service writes (annotations/services/criteria.py), one
definition each for the presets and the imports: a magnitude criterion's defaults, a
Likert scale's levels, and the levels whole-number scores imply."""

from __future__ import annotations

import pytest

from annotations.models import Criterion
from annotations.services.criteria import (
    CRITERION_PRESETS,
    likert_levels_inferred,
    likert_settings,
    magnitude_settings,
)


@pytest.mark.parametrize(
    "scores,levels",
    [
        ([0.0, 0.0], [0, 1]),
        ([1.0, 3.0], [1, 2, 3]),
        ([2.0, 5.0], [1, 2, 3, 4, 5]),
        ([0.0, 10.0], list(range(11))),
        ([1.5, 2.0], None),
        ([], None),
    ],
)
def test_the_levels_whole_numbers_imply(scores, levels) -> None:
    assert likert_levels_inferred(scores) == levels


def test_the_magnitude_presets_have_the_services_settings() -> None:
    magnitude = [p for p in CRITERION_PRESETS.values() if p["scale"] == Criterion.Scale.MAGNITUDE]
    assert magnitude and all(p["scale_settings"] == magnitude_settings() for p in magnitude)


def test_magnitude_settings_are_the_models_defaults_and_fresh_each_time() -> None:
    settings = magnitude_settings()
    assert settings == {
        "standard": Criterion.MAGNITUDE_STANDARD,
        "max_digits": Criterion.MAGNITUDE_MAX_DIGITS,
    }
    settings["standard"] = 7
    assert magnitude_settings()["standard"] == Criterion.MAGNITUDE_STANDARD


def test_likert_settings_label_each_value_and_describe_in_order() -> None:
    assert likert_settings([0, 1], ["No"]) == {
        "levels": [
            {"value": 0, "label": "0", "descriptor": "No"},
            {"value": 1, "label": "1", "descriptor": ""},
        ]
    }
    grammar = CRITERION_PRESETS["grammar"]["scale_settings"]["levels"]
    assert [level["value"] for level in grammar] == [1, 2, 3, 4, 5]
