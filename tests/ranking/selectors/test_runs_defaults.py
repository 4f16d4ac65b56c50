"""The defaults of a ranking run, a confidence level and a power are written once
(ranking/selectors/runs.py ``RUN_DEFAULTS``, ``DEFAULT_CONFIDENCE``;
ranking/selectors/power.py ``DEFAULT_POWER``): every form, serializer, command, service
and selector that takes one has that value, so none can drift from the others."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import load_command_class
from django.db.models import Field

from ranking.forms.means import MeansForm
from ranking.forms.power import PowerForm
from ranking.forms.runs import RankingRunForm
from ranking.models import RankingRun
from ranking.selectors import means as means_selectors
from ranking.selectors import power as power_selectors
from ranking.selectors.content_checks import content_check_summary
from ranking.selectors.power import DEFAULT_POWER
from ranking.selectors.runs import DEFAULT_CONFIDENCE, RUN_DEFAULTS
from ranking.serializers.means import MeansQuery
from ranking.serializers.power import PowerQuery
from ranking.serializers.runs import RankingRunSerializer
from ranking.services.runs import ranking_run_start
from ranking.services.slices import ranking_slices_start

RUN_FIELDS = ("method", "runs", "seed", "confidence")


def _command_default(name: str, option: str) -> Any:
    parser = load_command_class("ranking", name).create_parser("manage.py", name)
    return parser.get_default(option)


def _parameter_default(function: Callable[..., Any], name: str) -> Any:
    return inspect.signature(function).parameters[name].default


def test_the_run_defaults_are_the_usual_ones() -> None:
    # The values themselves (the E2E NLG Challenge's WMT14 procedure, 200 runs, 95%).
    assert (RUN_DEFAULTS.method, RUN_DEFAULTS.runs, RUN_DEFAULTS.seed) == ("wmt14", 200, 1)
    assert RUN_DEFAULTS.confidence == DEFAULT_CONFIDENCE == 0.95
    assert DEFAULT_POWER == 0.8


@pytest.mark.parametrize("name", RUN_FIELDS)
def test_every_run_starter_defaults_to_the_run_defaults(name: str) -> None:
    expected = getattr(RUN_DEFAULTS, name)
    column = RankingRun._meta.get_field(name)
    assert isinstance(column, Field) and column.default == expected
    assert RankingRunForm.base_fields[name].initial == expected
    assert _command_default("rank", name) == expected
    assert _parameter_default(ranking_run_start, name) == expected
    assert _parameter_default(ranking_slices_start, name) == expected
    if name in ("runs", "confidence"):  # the API takes only these two with a default
        assert RankingRunSerializer().fields[name].default == expected


def test_every_confidence_taker_defaults_to_the_default_confidence() -> None:
    assert MeansQuery().fields["confidence"].default == DEFAULT_CONFIDENCE
    assert PowerQuery().fields["confidence"].default == DEFAULT_CONFIDENCE
    assert PowerForm.base_fields["confidence"].initial == DEFAULT_CONFIDENCE
    assert _command_default("means", "confidence") == DEFAULT_CONFIDENCE
    assert _command_default("power", "confidence") == DEFAULT_CONFIDENCE
    for function in (
        means_selectors.criterion_means,
        means_selectors.campaign_means,
        power_selectors.campaign_power_plan,
        power_selectors.criterion_power,
        power_selectors.campaign_power_reports,
        content_check_summary,
    ):
        assert _parameter_default(function, "confidence") == DEFAULT_CONFIDENCE, function
    # The means form leaves the level out (the page falls back on the default).
    assert MeansForm.base_fields["confidence"].required is False


def test_every_power_taker_defaults_to_the_default_power() -> None:
    assert PowerQuery().fields["power"].default == DEFAULT_POWER
    assert PowerForm.base_fields["power"].initial == DEFAULT_POWER
    assert _command_default("power", "power") == DEFAULT_POWER
    for function in (
        power_selectors.campaign_power_plan,
        power_selectors.criterion_power,
        power_selectors.campaign_power_reports,
    ):
        assert _parameter_default(function, "power") == DEFAULT_POWER, function
