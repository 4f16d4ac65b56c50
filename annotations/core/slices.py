"""Slices: the items that share an attribute value (GEM's challenge sets and the like).

An item's attributes come from import (``attr:<name>`` columns of an outputs CSV, an
``attributes`` object in JSONL): name -> text. A slice is a set of conditions
``name=value`` that an item must all meet; results computed "by" an attribute are
computed once per value. ``language`` is a pseudo-attribute every task has: the
language of its outputs (``Task.language``), so results per language are slices too. Pure: the names and conditions are checked here; selectors
turn them into queries.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from annotations.core.languages import LanguageError, language_check

#: the pseudo-attribute every task has: the language of its outputs (BCP 47)
LANGUAGE = "language"

#: lower-case letters, digits and underscores, starting with a letter, at most 40
ATTRIBUTE_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
MAX_VALUE = 200
#: conditions in one slice: a request is refused above it, before any query is built
MAX_CONDITIONS = 20


class SliceError(ValueError):
    """A slice or an attribute that cannot be: the message says why."""


def too_many_conditions() -> SliceError:
    return SliceError(
        f"a slice has at most {MAX_CONDITIONS} conditions (attribute=value); rank a "
        "coarser slice, or split it."
    )


def attribute_name_check(name: str) -> str:
    """The name as stored; a ``SliceError`` saying what is allowed otherwise."""
    if not ATTRIBUTE_NAME.fullmatch(name):
        raise SliceError(
            f"'{name[:60]}' is not an attribute name: use lower-case letters, digits and "
            "underscores, starting with a letter (at most 40)."
        )
    if "__" in name:
        raise SliceError(f"'{name}' is not an attribute name: no double underscores.")
    return name


def attribute_value_check(name: str, value: object) -> str:
    """A value as stored (text): numbers and booleans become text, other types refused."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, int | float | str):
        text = str(value).strip()
    else:
        raise SliceError(
            f"attribute '{name}': expected text or a number, found {type(value).__name__}."
        )
    if len(text) > MAX_VALUE:
        raise SliceError(f"attribute '{name}': the value is longer than {MAX_VALUE} characters.")
    return text


def parse_where(conditions: Iterable[str]) -> dict[str, str]:
    """``["challenge_set=scramble", "domain=news"]`` -> {name: value}; each name once, at
    most ``MAX_CONDITIONS`` conditions (refused as soon as one more is read), values of at
    most ``MAX_VALUE`` characters."""
    where: dict[str, str] = {}
    for count, condition in enumerate(conditions, start=1):
        if count > MAX_CONDITIONS:
            raise too_many_conditions()
        name, sep, value = condition.partition("=")
        name = name.strip()
        if not sep or not name:
            raise SliceError(f"'{condition}' is not a condition: write attribute=value.")
        attribute_name_check(name)
        if name in where:
            raise SliceError(f"attribute '{name}' is given twice.")
        value = value.strip()
        if len(value) > MAX_VALUE:
            raise SliceError(
                f"attribute '{name}': the value is longer than {MAX_VALUE} characters."
            )
        if name == LANGUAGE:
            try:
                value = language_check(value)
            except LanguageError as error:
                raise SliceError(f"language: {error}") from None
        where[name] = value
    return where


def describe(where: Mapping[str, str]) -> str:
    """``challenge_set=scramble, domain=news`` (or ``all items``)."""
    return ", ".join(f"{k}={v}" for k, v in sorted(where.items())) or "all items"
