"""The worked example of a magnitude criterion, generated from its standard. Pure.

RankME's instructions showed a worked example: a few texts next to the standard, each
with its score and the statements ticked. The generated example does the same with the
campaign's own standard, so that a worker sees the scale used on the kind of text they
will judge: the standard itself (as good: the standard's value), a copy with one clause
(or a one-clause standard's closing phrase) left out (worse, and information missing:
only where the worker sees the input) and a copy with one clause said twice (a little
worse, nothing missing). The copies come from :mod:`annotations.core.degrade`
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

#: words that open a trailing phrase a one-clause standard can lose and still read as a
#: sentence ("Cotto is a coffee shop in the city centre." -> "Cotto is a coffee shop.")
_PHRASE_OPENERS = frozenset(
    [
        "in",
        "near",
        "at",
        "on",
        "by",
        "with",
        "for",
        "from",
        "of",
        "close",
        "next",
        "located",
        "serving",
        "offering",
    ]
)
_END = ".!?"


def _without_last_phrase(text: str) -> str:
    """A one-clause ``text`` without its last trailing phrase (from the last word of
    :data:`_PHRASE_OPENERS` that leaves at least three words), its end punctuation kept;
    ``""`` when it has no such phrase. A run of words cut from the middle read as garbled
    ("Blue Spice is a in the city centre."), which teaches a worker nothing about
    information left out."""
    body = text.rstrip()
    end = body[-1] if body and body[-1] in _END else ""
    words = (body[:-1] if end else body).split()
    for i in range(len(words) - 1, 2, -1):
        if words[i].lower() in _PHRASE_OPENERS:
            return " ".join(words[:i]).rstrip(",;:") + (end or ".")
    return ""


def worked_example(
    *,
    standard_text: str,
    standard: int,
    content_checks: tuple[str, ...] | list[str],
    rng: np.random.Generator,
    input_shown: bool = True,
) -> list[ExampleRow]:
    """The example's rows for a standard: the standard, a copy with a clause (or, in a
    one-clause standard, its last trailing phrase) left out, and, when the standard has
    two clauses or more, a copy with one said twice. The copy with information left out
    is made only where the worker sees the input (``input_shown``): a criterion that hides
    it, such as naturalness, judges how a text reads, not what it leaves out. Empty when
    the standard has fewer than :data:`MIN_WORDS` words (or there is none), or when no
    copy can be made: a standard alone shows nothing to compare."""
    text = standard_text.strip()
    if len(text.split()) < MIN_WORDS:
        return []
    offered = tuple(content_checks)
    rows = [ExampleRow(text, standard, "same", _ticked("same", offered))]
    several = len(clauses_of(text)) >= 2
    copies: list[tuple[str, str]] = []
    if input_shown and several:
        copies.append(("missing", ""))
    elif input_shown:
        shorter = _without_last_phrase(text)
        if shorter:
            copies.append(("missing", shorter))
    if several:  # saying half a clause twice reads as garbled
        copies.append(("repeated", ""))
    for reason, made_text in copies:
        if not made_text:
            method = "drop" if reason == "missing" else "repeat"
            made = degrade(text, rng=rng, method=method)
            if made.method != method:
                return []
            made_text = made.text
        score = max(1, round(standard * _SHARES[reason]))
        rows.append(ExampleRow(made_text, score, reason, _ticked(reason, offered)))
    return rows if len(rows) > 1 else []
