"""One check of a run's parameters (ranking.stats.check_parameters, in ranking/stats/_methods.py)."""

from __future__ import annotations

import pytest

from ranking import stats
from tests.ranking.bad_parameters import BAD


@pytest.mark.parametrize("body,field,named", BAD)
def test_check_parameters_refuses_what_cannot_be_computed(body, field, named):
    with pytest.raises(stats.ParameterError) as error:
        stats.check_parameters(
            body.get("method", "wmt14"), body.get("parameters"), seed=body.get("seed")
        )
    assert error.value.field == field and named in str(error.value)


def test_check_parameters_accepts_the_defaults_and_edge_values():
    stats.check_parameters("wmt14", {"draw_probability": 0.0, "tau": 0.0, "beta": None}, seed=0)
    stats.check_parameters("bradley_terry", {"ridge": 1e-12}, seed=2**63 - 1)
    stats.check_parameters("wmt14", {"mu0": -1e6, "sigma0": 1e6, "beta": 1e-3, "tau": 1e6})
    stats.check_parameters("wmt14", {"steps": 10_000_000}, runs=200)
    with pytest.raises(stats.ParameterError):
        stats.check_parameters("wmt14", seed=2**63)


def test_steps_times_runs_is_bounded():
    """Explicit steps cost steps x runs updates: over the budget the request is refused
    (the runs only known to the caller: the form, the API, the service)."""
    with pytest.raises(stats.ParameterError, match=r"'steps' x runs must be at most"):
        stats.check_parameters("wmt14", {"steps": 10_000_000}, runs=201)
    stats.check_parameters("wmt14", {"steps": None}, runs=100_000)
