"""common.api's helpers that are not about errors: ``plain``, the report-to-body helper
the APIs share (the build report, the upload results)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from common.api import plain


@dataclass(frozen=True)
class _Part:
    name: str
    sizes: tuple[int, ...]


@dataclass(frozen=True)
class _Report:
    parts: list[_Part]
    file: Path
    counts: dict[int, float] = field(default_factory=dict)
    note: str | None = None


def test_plain_turns_a_dataclass_report_into_json_data() -> None:
    report = _Report(parts=[_Part("a", (1, 2))], file=Path("up/x.csv"), counts={3: 0.5}, note=None)
    assert plain(report) == {
        "parts": [{"name": "a", "sizes": [1, 2]}],
        "file": "up/x.csv",
        "counts": {"3": 0.5},
        "note": None,
    }


def test_plain_leaves_scalars_and_stringifies_the_rest() -> None:
    assert plain([True, 1, 2.5, "s", None, (3,)]) == [True, 1, 2.5, "s", None, [3]]
    assert plain(_Part) == str(_Part)  # a dataclass type is not a report
