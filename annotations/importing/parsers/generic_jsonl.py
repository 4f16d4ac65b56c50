"""Generic outputs JSONL: one JSON object per line with the keys
``item_id``, ``input``, ``system`` and ``output`` (other keys are ignored).

``item_id`` may be a string or an integer; the other values must be non-empty strings.
An optional ``attributes`` object holds the item's attributes (``core.slices``: names
of lower-case letters, digits and underscores; values text, numbers or booleans), an
optional ``language`` the output's language (BCP 47) and ``input_language`` the input's
(a translation's source; absent: the output's).
Blank lines are skipped.
"""

from __future__ import annotations

from pathlib import Path

from annotations.core.outputs import OutputRow
from annotations.core.slices import SliceError, attribute_name_check, attribute_value_check
from annotations.importing.parsers.common import (
    ParsedOutputs,
    outputs_check_consistent,
    read_text,
    refuse_nul,
    reserved_attribute_check,
    row_language,
)
from common.errors import ImportFileError
from common.jsontext import JsonTextError, json_loads

KEYS = ("item_id", "input", "system", "output")


def _attributes(raw: object, *, file: str, line: int) -> tuple[tuple[str, str], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise ImportFileError(
            f"expected a JSON object, found {type(raw).__name__}.",
            file=file,
            line=line,
            field="attributes",
        )
    pairs = []
    for name, value in raw.items():
        reserved_attribute_check(
            str(name), file=file, line=line, field=f"attributes.{str(name)[:40]}"
        )
        try:
            pairs.append((attribute_name_check(str(name)), attribute_value_check(name, value)))
        except SliceError as exc:
            raise ImportFileError(
                str(exc), file=file, line=line, field=f"attributes.{str(name)[:40]}"
            ) from None
    return tuple(pair for pair in pairs if pair[1])


def _language(
    raw: object, known: dict[str, str], *, file: str, line: int, field: str = "language"
) -> str:
    if raw is None:
        return ""
    if not isinstance(raw, str):
        raise ImportFileError(
            f"expected a string, found {type(raw).__name__}.",
            file=file,
            line=line,
            field=field,
        )
    return row_language(raw, known, file=file, line=line, field=field)


def parse_outputs_jsonl(path: Path) -> ParsedOutputs:
    file = str(path)
    languages: dict[str, str] = {}
    rows: list[OutputRow] = []
    where: list[tuple[str, int]] = []
    for line, text in enumerate(read_text(path).split("\n"), start=1):
        if not text.strip():
            continue
        try:
            obj = json_loads(text)
        except JsonTextError as exc:
            raise ImportFileError(f"invalid JSON ({exc}).", file=file, line=line) from exc
        if not isinstance(obj, dict):
            raise ImportFileError(
                f"expected a JSON object, found {type(obj).__name__}.", file=file, line=line
            )
        refuse_nul(obj, file=file, line=line)
        values: dict[str, str] = {}
        for key in KEYS:
            if key not in obj:
                raise ImportFileError("the key is missing.", file=file, line=line, field=key)
            value = obj[key]
            if key == "item_id" and isinstance(value, int) and not isinstance(value, bool):
                value = str(value)
            if not isinstance(value, str):
                raise ImportFileError(
                    f"expected a string, found {type(value).__name__}.",
                    file=file,
                    line=line,
                    field=key,
                )
            if not value.strip():
                raise ImportFileError("the value is empty.", file=file, line=line, field=key)
            values[key] = value.strip()
        rows.append(
            OutputRow(
                item_id=values["item_id"],
                input=values["input"],
                system=values["system"],
                text=values["output"],
                attributes=_attributes(obj.get("attributes"), file=file, line=line),
                language=_language(obj.get("language"), languages, file=file, line=line),
                input_language=_language(
                    obj.get("input_language"),
                    languages,
                    file=file,
                    line=line,
                    field="input_language",
                ),
            )
        )
        where.append((file, line))
    if not rows:
        raise ImportFileError("the file holds no outputs.", file=file)
    parsed = ParsedOutputs(rows=rows, where=where)
    outputs_check_consistent(parsed)
    return parsed
