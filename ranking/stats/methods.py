"""One entry point for every ranking method."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .bootstrap import bootstrap
from .bradley_terry import bradley_terry
from .expected_wins import expected_wins
from .pairwise import Comparisons
from .result import RankingResult
from .wmt14 import wmt14

__all__ = ["METHODS", "method_parameters", "rank"]

#: name -> function(comparisons, *, rng, runs, confidence, progress, **params)
METHODS: dict[str, Callable[..., RankingResult]] = {
    "wmt14": wmt14,
    "bootstrap": bootstrap,
    "bradley_terry": bradley_terry,
    "expected_wins": expected_wins,
}

_COMMON = {"comparisons", "rng", "runs", "confidence", "progress", "block"}


def method_parameters(method: str) -> dict[str, Any]:
    """The method-specific parameters and their defaults (``None``: computed)."""
    try:
        func = METHODS[method]
    except KeyError:
        raise ValueError(f"unknown method {method!r}; choose one of {sorted(METHODS)}") from None
    return {
        name: p.default
        for name, p in inspect.signature(func).parameters.items()
        if name not in _COMMON
    }


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
    """Rank systems with the named method.

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
    allowed = method_parameters(method)
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} for {method}; it takes {sorted(allowed)}")
    return METHODS[method](
        comparisons, rng=rng, runs=runs, confidence=confidence, progress=progress, **params
    )


def check_parameter_values(method: str, params: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` for unknown names or values of the wrong kind."""
    allowed = method_parameters(method)
    for name, value in params.items():
        if name not in allowed:
            raise ValueError(f"unknown parameter {name!r} for {method}; it takes {sorted(allowed)}")
        default = allowed[name]
        if isinstance(default, str):
            if not isinstance(value, str):
                raise ValueError(f"parameter {name!r} must be a string")
        elif (isinstance(value, bool) or not isinstance(value, int | float)) and not (
            value is None and default is None
        ):
            raise ValueError(f"parameter {name!r} must be a number")
