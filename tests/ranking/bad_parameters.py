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
]
