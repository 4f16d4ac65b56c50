"""The ranking methods by name, their parameters, and the one check of a ranking request."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ._bootstrap import bootstrap
from ._bradley_terry import bradley_terry
from ._expected_wins import expected_wins
from ._pairwise import Comparisons
from ._resample import RESAMPLERS
from ._result import RankingResult
from ._trueskill import TRUESKILL_DEFAULTS
from ._wmt14 import wmt14

__all__ = [
    "METHODS",
    "ParameterError",
    "check_parameters",
    "method_parameters",
    "rank",
    "run_method",
]

#: name -> function(comparisons, *, rng, runs, confidence, progress, **parameters)
_FUNCTIONS: dict[str, Callable[..., RankingResult]] = {
    "wmt14": wmt14,
    "bootstrap": bootstrap,
    "bradley_terry": bradley_terry,
    "expected_wins": expected_wins,
}

#: name -> the method's own parameters and their defaults (None: computed from the data)
_PARAMETERS: dict[str, dict[str, Any]] = {
    "wmt14": {**TRUESKILL_DEFAULTS, "steps": None},
    "bootstrap": dict(TRUESKILL_DEFAULTS),
    "bradley_terry": {"ridge": 1e-6, "resample": "auto"},
    "expected_wins": {"draws_rule": "exclude", "resample": "auto"},
}

#: the method names, in the order the pages list them
METHODS: tuple[str, ...] = tuple(_FUNCTIONS)

#: the values each parameter can take, as (test, what the message says it must be); a
#: value outside them cannot be computed (TrueSkill needs sigma > 0, beta > 0, tau >= 0
#: and a draw probability in [0, 1); the Bradley-Terry ridge must be positive)
#: the scale TrueSkill's numbers may take: beyond it, sums and squares in the updates lose
#: all precision or overflow (a sigma0 of 1e-320 divided by zero, a mu0 of 1e308 gave
#: infinite values, a tau of 1e308 NaN ones), and no rating scale needs it
SCALE_MIN, SCALE_MAX = 1e-3, 1e6
#: at most this many steps per run, and steps x runs, when ``steps`` is given (each step
#: is one comparison's update: a billion steps kept a run busy for hours)
STEPS_MAX = 10_000_000
STEPS_BUDGET = 2_000_000_000


def _scale(v: Any) -> bool:
    return math.isfinite(v) and SCALE_MIN <= v <= SCALE_MAX


_RANGES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "mu0": (
        lambda v: math.isfinite(v) and abs(v) <= SCALE_MAX,
        f"a number from {-SCALE_MAX:,.0f} to {SCALE_MAX:,.0f}",
    ),
    "sigma0": (_scale, f"a number from {SCALE_MIN} to {SCALE_MAX:,.0f}"),
    "beta": (lambda v: v is None or _scale(v), f"a number from {SCALE_MIN} to {SCALE_MAX:,.0f}"),
    "tau": (
        lambda v: math.isfinite(v) and 0 <= v <= SCALE_MAX,
        f"a number from 0 to {SCALE_MAX:,.0f}",
    ),
    "draw_probability": (
        lambda v: math.isfinite(v) and 0 <= v < 1,
        "a number from 0 up to (not including) 1",
    ),
    "steps": (
        lambda v: v is None or (float(v).is_integer() and 1 <= v <= STEPS_MAX),
        f"a whole number from 1 to {STEPS_MAX:,} (or null: the comparisons + 1)",
    ),
    "ridge": (
        lambda v: math.isfinite(v) and 1e-12 <= v <= SCALE_MAX,
        f"a number from 1e-12 to {SCALE_MAX:,.0f}",
    ),
    "draws_rule": (lambda v: v in ("exclude", "half"), "'exclude' or 'half'"),
    "resample": (lambda v: v in RESAMPLERS, "'auto', 'patterns' or 'judgements'"),
}

#: seeds the runs accept: numpy's generators take a non-negative integer, the database a
#: signed 64-bit one
SEED_MAX = 2**63 - 1


class ParameterError(ValueError):
    """A ranking request that cannot be computed; ``field`` names the input at fault
    (``method``, ``runs``, ``confidence`` or ``parameters``) and the message says why in
    words fit to show a person."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def method_parameters(method: str) -> dict[str, Any]:
    """The method-specific parameters and their defaults (``None``: computed)."""
    try:
        return dict(_PARAMETERS[method])
    except KeyError:
        raise ParameterError(
            "method", f"Unknown method '{method}'; choose one of {', '.join(METHODS)}."
        ) from None


def check_parameters(
    method: str,
    parameters: Mapping[str, Any] | None = None,
    *,
    runs: int | None = None,
    confidence: float | None = None,
    seed: int | None = None,
) -> None:
    """Raise :class:`ParameterError` unless the request can be computed.

    The one check of a ranking request, used by the web form, the API serializer, the
    ``rank`` command, the services and :func:`~ranking.stats.compute`: a known method,
    only that method's parameters (:func:`method_parameters`), each a number (a string
    where the default is one; None where the default is None) in the range the method
    can compute with (TrueSkill's numbers within ``SCALE_MIN`` .. ``SCALE_MAX``,
    ``0 <= draw_probability < 1``, at most ``STEPS_MAX`` steps and ``STEPS_BUDGET``
    steps x runs, ...), at least one run, a confidence level strictly between 0 and 1 and a seed from
    0 to 2**63 - 1. ``runs``, ``confidence`` and ``seed`` are checked when given. A
    request that passes cannot fail later for its parameters.
    """
    allowed = method_parameters(method)
    if parameters is not None and not isinstance(parameters, Mapping):
        raise ParameterError(
            "parameters", f"Parameters of {method}: give an object of name: value pairs."
        )
    for name, value in (parameters or {}).items():
        if name not in allowed:
            raise ParameterError(
                "parameters",
                f"Parameters of {method}: unknown parameter '{name}'; it takes "
                f"{', '.join(sorted(allowed))}.",
            )
        default = allowed[name]
        if isinstance(default, str):
            if not isinstance(value, str):
                raise ParameterError(
                    "parameters", f"Parameters of {method}: '{name}' must be a string."
                )
        elif (isinstance(value, bool) or not isinstance(value, int | float)) and not (
            value is None and default is None
        ):
            raise ParameterError(
                "parameters", f"Parameters of {method}: '{name}' must be a number."
            )
        test, wanted = _RANGES.get(name, (lambda v: True, ""))
        if not test(value):
            raise ParameterError(
                "parameters", f"Parameters of {method}: '{name}' must be {wanted} (got {value!r})."
            )
    if runs is not None and runs < 1:
        raise ParameterError("runs", "A ranking needs at least one run.")
    steps = (parameters or {}).get("steps")
    if runs is not None and steps is not None and steps * runs > STEPS_BUDGET:
        raise ParameterError(
            "parameters",
            f"Parameters of {method}: 'steps' x runs must be at most {STEPS_BUDGET:,} "
            f"(got {int(steps):,} x {runs:,}); ask for fewer steps or fewer runs.",
        )
    if confidence is not None and not 0 < confidence < 1:
        raise ParameterError(
            "confidence", "The confidence level must lie between 0 and 1, e.g. 0.95."
        )
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX
    ):
        raise ParameterError(
            "seed", f"The seed must be a whole number from 0 to {SEED_MAX:,} (got {seed!r})."
        )


def run_method(
    method: str,
    comparisons: Comparisons,
    *,
    rng: np.random.Generator,
    runs: int,
    confidence: float,
    progress: Callable[[float], None] | None,
    parameters: Mapping[str, Any],
) -> RankingResult:
    """Run a method on checked input (:func:`check_parameters`)."""
    return _FUNCTIONS[method](
        comparisons, rng=rng, runs=runs, confidence=confidence, progress=progress, **parameters
    )


def rank(
    method: str,
    comparisons: Comparisons,
    *,
    rng: np.random.Generator,
    runs: int = 200,
    confidence: float = 0.95,
    progress: Callable[[float], None] | None = None,
    **params: Any,
) -> RankingResult:
    """Rank systems with the named method (after :func:`check_parameters`).

    Parameters
    ----------
    method : {"wmt14", "bootstrap", "bradley_terry", "expected_wins"}
    comparisons : Comparisons
    rng : numpy.random.Generator
    runs : int, default 200
        Runs (WMT14) or bootstrap replicates.
    confidence : float, default 0.95
        Share of runs the rank ranges cover.
    progress : callable, optional
        Receives the fraction done.
    **params
        Method parameters (see :func:`method_parameters`), e.g. ``sigma0=0.5`` or
        ``draw_probability=0.25`` for the TrueSkill methods.

    Returns
    -------
    RankingResult

    References
    ----------
    Sakaguchi, K., Post, M. and Van Durme, B. (2014). WMT 2014, 1-11.
    Chiang, W.-L. et al. (2024). Chatbot Arena. ICML 2024.
    """
    check_parameters(method, params, runs=runs, confidence=confidence)
    return run_method(
        method,
        comparisons,
        rng=rng,
        runs=runs,
        confidence=confidence,
        progress=progress,
        parameters=params,
    )
