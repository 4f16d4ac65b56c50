"""The worked example of a magnitude criterion, generated from its standard. Pure.

RankME's instructions showed a worked example: a few texts next to the standard, each
with its score and the statements ticked. The generated example does the same with the
campaign's own standard, so that a worker sees the scale used on the kind of text they
will judge: the standard itself (as good: the standard's value), a copy with one clause
left out (worse, and information missing) and a copy with one clause said twice (a
little worse, nothing missing). The copies come from :mod:`annotations.core.degrade`
with a generator seeded by the caller, so the example is the same on every page.

A designer who wants another example writes their own (``Criterion.example``); this
module is used only while that is empty.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .degrade import clauses_of, degrade


@dataclass(frozen=True)
class ExampleRow:
    """One text of the example: the text, its score, why, and the statements ticked.

    ``reason`` is a key the template words in the worker's language: ``same`` (the
    standard itself), ``missing`` (a clause left out) or ``repeated`` (a clause twice).
    ``checks`` are content-check keys (only those the criterion offers).
    """

    text: str
    score: int
    reason: str
    checks: tuple[str, ...]


#: score of each row as a share of the standard (RankME's example: 100, 70 and 90)
_SHARES = {"same": 1.0, "missing": 0.7, "repeated": 0.9}


def _ticked(reason: str, offered: tuple[str, ...]) -> tuple[str, ...]:
    wanted = {"same": ("perfect",), "missing": ("missing",), "repeated": ("perfect",)}[reason]
    return tuple(key for key in wanted if key in offered)


#: the fewest words a standard needs for a copy with words left out to read as one
MIN_WORDS = 4


def worked_example(
    *,
    standard_text: str,
    standard: int,
    content_checks: tuple[str, ...] | list[str],
    rng: np.random.Generator,
) -> list[ExampleRow]:
    """The example's rows for a standard: the standard, a copy with a clause (or, in a
    one-clause standard, a run of words) left out, and, when the standard has two
    clauses or more, a copy with one said twice. Empty when the standard has fewer than
    :data:`MIN_WORDS` words (or there is none)."""
    text = standard_text.strip()
    if len(text.split()) < MIN_WORDS:
        return []
    offered = tuple(content_checks)
    rows = [ExampleRow(text, standard, "same", _ticked("same", offered))]
    reasons = [("drop", "missing")]
    if len(clauses_of(text)) >= 2:  # saying half a clause twice reads as garbled
        reasons.append(("repeat", "repeated"))
    for method, reason in reasons:
        made = degrade(text, rng=rng, method=method)
        if made.method != method:
            return []
        score = max(1, round(standard * _SHARES[reason]))
        rows.append(ExampleRow(made.text, score, reason, _ticked(reason, offered)))
    return rows
