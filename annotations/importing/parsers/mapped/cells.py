"""The cells of a rating file's row, read and checked: times, numbers, JSON objects,
criterion definitions, content checks; errors name the file, the line and the column.
Pure: no Django."""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime
from typing import Any

from annotations.importing.parsers.mapped.mapping import CRITERION_NAME, TIME_EPOCH, TIME_ISO
from common.errors import ImportFileError
from common.jsontext import JsonTextError, json_loads

#: RankME's ``check{i}`` answers -> the platform's content checks
RANKME_CHECKS = {"ok": ("perfect",), "both": ("added", "missing")}
CHECK_KEYS = ("added", "missing", "perfect")


def parse_time(value: str, *, fmt: str, file: str, line: int, field: str) -> datetime:
    try:
        if fmt == TIME_EPOCH:
            moment = datetime.fromtimestamp(float(value), tz=UTC)
        elif fmt == TIME_ISO:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        else:
            moment = datetime.strptime(value, fmt)  # noqa: DTZ007 (made UTC below)
    except (ValueError, OverflowError, OSError) as exc:
        shown = {TIME_EPOCH: "seconds since 1970", TIME_ISO: "ISO 8601"}.get(
            fmt, fmt.replace("%", "")
        )
        raise ImportFileError(
            f"'{value}' is not a time in the form {shown}.", file=file, line=line, field=field
        ) from exc
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def parse_number(raw: str, *, file: str, line: int, field: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ImportFileError(f"'{raw}' is not a number.", file=file, line=line, field=field)
    return value


def parse_json_object(raw: str, *, file: str, line: int, field: str) -> dict[str, Any]:
    try:
        value = json_loads(raw)
    except JsonTextError as exc:
        raise ImportFileError(
            f"not a JSON object ({exc}).",
            file=file,
            line=line,
            field=field,
        ) from exc
    if not isinstance(value, dict):
        raise ImportFileError("expected a JSON object.", file=file, line=line, field=field)
    return value


def parse_definition(raw: str, *, file: str, line: int, field: str) -> dict[str, Any]:
    """A criterion's definition as humaneval's exports write it, checked."""
    value = parse_json_object(raw, file=file, line=line, field=field)
    name = value.get("name")
    if not isinstance(name, str) or not CRITERION_NAME.match(name):
        raise ImportFileError(
            f"the definition's name '{name}' is not a criterion name.",
            file=file,
            line=line,
            field=field,
        )
    if value.get("scale") not in ("likert", "magnitude", "slider"):
        raise ImportFileError(
            f"the definition's scale '{value.get('scale')}' is not likert, magnitude or slider.",
            file=file,
            line=line,
            field=field,
        )
    settings = value.get("scale_settings", {})
    checks = value.get("content_checks", [])
    if not isinstance(settings, dict) or not isinstance(checks, list):
        raise ImportFileError(
            "scale_settings is an object and content_checks a list.",
            file=file,
            line=line,
            field=field,
        )
    if value["scale"] == "likert":
        levels = settings.get("levels")
        if not isinstance(levels, list) or not levels:
            raise ImportFileError(
                "a Likert definition lists its levels (scale_settings.levels).",
                file=file,
                line=line,
                field=field,
            )
    unknown = [c for c in checks if c not in CHECK_KEYS]
    if unknown:
        raise ImportFileError(
            f"'{unknown[0]}' is not a content check ({', '.join(CHECK_KEYS)}).",
            file=file,
            line=line,
            field=field,
        )
    return value


def parse_checks(raw: str, *, file: str, line: int, field: str) -> tuple[str, ...]:
    """Content checks ticked for one output: the platform's keys (``;``, ``,`` or line
    separated, or a JSON list) or RankME's answers (``ok`` = perfect, ``both``)."""
    text = raw.strip()
    if text.startswith("["):
        try:
            listed = json_loads(text)
        except JsonTextError:
            listed = None
        if not isinstance(listed, list):
            raise ImportFileError(
                f"'{text[:40]}' is not a list of content checks.", file=file, line=line, field=field
            )
        words = [str(v).strip().lower() for v in listed]
    else:
        words = [w.strip().lower() for w in re.split(r"[;,\n]", text) if w.strip()]
    keys: set[str] = set()
    for word in words:
        found = RANKME_CHECKS.get(word, (word,))
        if not set(found) <= set(CHECK_KEYS):
            raise ImportFileError(
                f"'{word}' is not a content check ({', '.join(CHECK_KEYS)}; or RankME's "
                "ok, missing, added, both).",
                file=file,
                line=line,
                field=field,
            )
        keys.update(found)
    return tuple(key for key in CHECK_KEYS if key in keys)


class Cells:
    """One record's cells, read by column, with errors naming the file, line and column.

    ``value(column, required=True)``: the cell's text; a missing column, or an empty
    cell that is required, is an error. (A plain function, not a method: a parse calls
    it for every cell, and a plain function with defaults is the cheaper call.)
    """

    __slots__ = ("file", "get", "line", "value")

    def __init__(self, get: Any, *, file: str, line: int) -> None:
        self.get, self.file, self.line = get, file, line

        def value(column: str, *, required: bool = True) -> str:
            v = get(column)
            if v is None:
                raise ImportFileError(
                    "this column is missing (the mapping reads it).",
                    file=file,
                    line=line,
                    field=column,
                )
            if required and not v:
                raise ImportFileError("the value is empty.", file=file, line=line, field=column)
            return v

        self.value = value

    def error(self, message: str, column: str) -> ImportFileError:
        return ImportFileError(message, file=self.file, line=self.line, field=column)
