"""Degraded copies of an output, for attention checks. Pure: no Django, explicit rng.

An attention check replaces one output of a task by a copy of another output made
clearly worse; an attentive worker rates the copy below its original. Three ways of
making it worse, each visible to a reader of the text:

* ``shuffle``: the words in a random order (the first word kept in place is avoided);
* ``drop``: one clause (a stretch between commas, ``and``/``but`` or sentence ends)
  left out, so content of the input goes missing and the sentence breaks;
* ``repeat``: one clause said twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

METHODS: tuple[str, ...] = ("shuffle", "drop", "repeat")

#: What ``degrade`` chooses from when not told: a check must look like the worker's other
#: tasks, and a scrambled sentence stands out at a glance (the walk-through's finding),
#: while a missing or repeated clause is caught only by reading. ``shuffle`` stays for a
#: text the others cannot change, and when asked for by name.
SUBTLE: tuple[str, ...] = ("drop", "repeat")

_CLAUSE_SPLIT = re.compile(r"(?<=[,.;:!?])\s+|\s+(?=\b(?:and|but|which|who|with)\b)")


@dataclass(frozen=True)
class Degraded:
    text: str
    method: str


def clauses_of(text: str) -> list[str]:
    """The text cut into clauses (at punctuation and before a few conjunctions)."""
    return [c for c in _CLAUSE_SPLIT.split(text.strip()) if c and c.strip()]


def _shuffle(text: str, rng: np.random.Generator) -> str:
    words = text.split()
    if len(words) < 2:
        return text
    for _ in range(10):
        order = rng.permutation(len(words))
        if not np.array_equal(order, np.arange(len(words))):
            return " ".join(words[i] for i in order)
    return " ".join(reversed(words))


def _drop(text: str, rng: np.random.Generator) -> str:
    parts = clauses_of(text)
    if len(parts) < 2:
        words = text.split()
        if len(words) < 4:
            return text
        # No clause boundary: drop a run of about a third of the words.
        n = max(2, len(words) // 3)
        start = int(rng.integers(0, len(words) - n + 1))
        return " ".join(words[:start] + words[start + n :])
    i = int(rng.integers(0, len(parts)))
    return _tidy(text, " ".join(parts[:i] + parts[i + 1 :]))


def _tidy(original: str, copy: str) -> str:
    """``copy`` begun and ended as ``original`` is: a clause left out of the start or
    the end leaves no lower-case opening or dangling comma for a glance to catch."""
    if copy and original[:1].isupper():
        copy = copy[:1].upper() + copy[1:]
    end = original.rstrip()[-1:]
    if end in ".!?" and copy.rstrip()[-1:] in {",", ";", ":"}:
        copy = copy.rstrip()[:-1] + end
    elif end in ".!?" and copy.rstrip()[-1:] not in {".", "!", "?"}:
        copy = copy.rstrip() + end
    return copy


def _repeat(text: str, rng: np.random.Generator) -> str:
    parts = clauses_of(text)
    if len(parts) < 2:
        words = text.split()
        n = max(1, len(words) // 2)
        return " ".join([*words[:n], *words[:n], *words[n:]])
    i = int(rng.integers(0, len(parts)))
    return " ".join([*parts[: i + 1], parts[i], *parts[i + 1 :]])


_MAKERS = {"shuffle": _shuffle, "drop": _drop, "repeat": _repeat}


def degrade(text: str, *, rng: np.random.Generator, method: str | None = None) -> Degraded:
    """A copy of ``text`` made worse by ``method`` (chosen with ``rng`` from ``SUBTLE``
    when None).

    The result always differs from the original (whitespace aside): when the chosen
    method cannot change a text (a single word), the others are tried in turn.

    Raises ``ValueError`` for an unknown method or an empty text.
    """
    if not text.split():
        raise ValueError("Cannot degrade an empty text.")
    if method is not None and method not in _MAKERS:
        raise ValueError(f"Unknown degradation method '{method}'; use one of {', '.join(METHODS)}.")
    first = method or SUBTLE[int(rng.integers(0, len(SUBTLE)))]
    order = [first, *(m for m in (*SUBTLE, *METHODS) if m != first)]
    order = list(dict.fromkeys(order))
    original = " ".join(text.split())
    for name in order:
        copy = _MAKERS[name](original, rng)
        if " ".join(copy.split()) != original:
            return Degraded(text=copy, method=name)
    # A one-word text: every method leaves it unchanged but repeating it.
    return Degraded(text=f"{original} {original}", method="repeat")


def _bare_words(text: str) -> list[str]:
    """The words of ``text`` without case or surrounding punctuation (what ``_tidy``
    may change)."""
    return [w.strip(".,;:!?").casefold() for w in text.split()]


def drops_content(original: str, copy: str) -> bool:
    """Whether ``copy`` leaves words of ``original`` out (what ``drop`` does).

    True when the copy's words are the original's in the same order with some missing:
    a copy made by ``drop``. ``shuffle`` keeps every word and ``repeat`` adds words, so
    neither counts, which lets a check tell from the texts alone that a copy misses
    information of the input.

    >>> drops_content("Cotto is a pub, near the river.", "Cotto is a pub,")
    True
    >>> drops_content("Cotto is a pub.", "pub. a is Cotto")
    False
    """
    words, kept = _bare_words(original), _bare_words(copy)
    if len(kept) >= len(words):
        return False
    remaining = iter(words)
    return all(any(word == w for w in remaining) for word in kept)
