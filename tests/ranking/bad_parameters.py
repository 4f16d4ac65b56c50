"""Parameters no run can be computed with: the body, the field refused and the word it names."""

from __future__ import annotations

BAD = [
    ({"seed": -1}, "seed", "seed"),
    ({"parameters": {"sigma0": -1}}, "parameters", "sigma0"),
    ({"parameters": {"draw_probability": 1.5}}, "parameters", "draw_probability"),
    ({"method": "bradley_terry", "parameters": {"ridge": 0}}, "parameters", "ridge"),
    ({"parameters": {"tau": -0.1}}, "parameters", "tau"),
    ({"parameters": {"steps": 0}}, "parameters", "steps"),
    ({"method": "expected_wins", "parameters": {"draws_rule": "both"}}, "parameters", "draws_rule"),
    # Passed before, then failed or misled (an outside review): a run busy for hours, a
    # ZeroDivisionError, NaN values refused by the database, infinite values the result's
    # JSON could not carry.
    ({"parameters": {"steps": 1_000_000_000}}, "parameters", "steps"),
    ({"parameters": {"sigma0": 1e-320}}, "parameters", "sigma0"),
    ({"parameters": {"tau": 1e308}}, "parameters", "tau"),
    ({"parameters": {"mu0": 1e308}}, "parameters", "mu0"),
    ({"parameters": {"beta": 1e-9}}, "parameters", "beta"),
    ({"method": "bradley_terry", "parameters": {"ridge": 1e300}}, "parameters", "ridge"),
]
