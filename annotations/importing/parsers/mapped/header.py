"""A mapping against a file's header: how many outputs a row holds (k), the columns the
mapping reads, and those the header lacks, named at once. Pure: no Django."""

from __future__ import annotations

from collections.abc import Sequence

from annotations.importing.parsers.mapped.mapping import (
    MAX_SLOTS,
    MIN_SLOTS,
    PER_ROW_FIELDS,
    Mapping,
)
from annotations.importing.parsers.mapped.source import Source
from common.tables import near_miss


def slots_of(mapping: Mapping, source: Source) -> int:
    """k: the mapping's, or as many slots as the header has (JSONL: per row, up to 10).

    A header without the first system column gives 1: the header check then names it
    with every other column the file lacks."""
    if mapping.slots:
        return mapping.slots
    if mapping.system_value or "{i}" not in mapping.system:
        return 1
    if source.fmt == "jsonl" and "." in mapping.system:
        return MAX_SLOTS  # nested lists: each row says how many it holds
    k = 0
    while k < MAX_SLOTS and source.has(mapping.column(mapping.system, mapping.first + k)):
        k += 1
    return max(k, MIN_SLOTS)


def required_columns(mapping: Mapping, k: int) -> list[str]:
    """Every column the mapping reads for k slots, in the order the file is checked."""
    columns = [mapping.item]
    for key in PER_ROW_FIELDS:
        if getattr(mapping, key):
            columns.append(getattr(mapping, key))
    columns += list(mapping.metadata)
    for i in range(mapping.first, mapping.first + k):
        if mapping.system:
            columns.append(mapping.column(mapping.system, i))
        if mapping.output:
            columns.append(mapping.column(mapping.output, i))
        for c in mapping.criteria:
            patterns = (c.score, c.checks, c.coverage, c.rank)
            columns += [mapping.column(p, i) for p in patterns if p]
    return list(dict.fromkeys(columns))


def header_check(mapping: Mapping, source: Source, k: int) -> None:
    """Every column the mapping reads that the header lacks, named at once (the first
    is the error's field)."""
    if source.fmt == "jsonl":
        return  # keys may differ per object (and nested slots): checked row by row
    missing = list(
        dict.fromkeys(
            c
            for c in required_columns(mapping, k)
            if not source.has(c) and c not in mapping.optional
        )
    )
    if missing:
        raise source.refuse_missing(missing, why=", which the mapping reads")


def skip_rows_absent(mapping: Mapping, source: Source) -> list[str]:
    """The columns ``skip_rows`` reads that the file lacks (the import notes them: they
    left nothing out). One the header has under other capitals or spacing is refused,
    with the near miss named: a typo of the column would otherwise import the very rows
    it was meant to leave out (MTurk's rejected work)."""
    if source.fmt == "jsonl":
        return []  # keys may differ per object
    absent = [column for column, _ in mapping.skip_rows if not source.has(column)]
    near = [column for column in absent if near_miss(source.columns, column)]
    if near:
        raise source.refuse_missing(near, why=", which the mapping's skip_rows reads")
    return absent


def header_problems(mapping: Mapping, columns: Sequence[str]) -> list[str]:
    """The columns the mapping reads that ``columns`` lacks (k from the mapping, or the
    largest run of system columns)."""
    have = set(columns)
    k = mapping.slots or (1 if mapping.system_value or "{i}" not in mapping.system else 0)
    if not k:
        k = 0
        while k < MAX_SLOTS and mapping.column(mapping.system, mapping.first + k) in have:
            k += 1
        k = max(k, MIN_SLOTS)
    return [c for c in required_columns(mapping, k) if c not in have]
