"""The API's body parsers (``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``): DRF's, bounded.

- JSON: at most ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes (more is a 413), nested at most
  ``JSON_MAX_DEPTH`` deep (deeper, or deep enough to exhaust Python's recursion, is a
  400), and no string (key or value) holding a NUL or a lone surrogate (a 400 naming
  where): PostgreSQL refuses NUL in text and jsonb, and no driver encodes a surrogate.
- Forms and multipart: too many fields or files, or a form field over Django's limit, are
  4xx answers instead of unhandled errors; files are held to the one upload limit while
  they stream (``common.uploads``); fields and file names are checked like JSON strings.
"""

from __future__ import annotations

import codecs
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import QueryDict
from rest_framework import parsers
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.utils import json

from common.jsontext import JsonTextError, json_loads
from common.limits import (
    JSON_MAX_DEPTH,
    RequestTooLarge,
    body_max_bytes,
    body_too_large,
    first_refused,
    refused_character,
    too_many,
)


def _depth_error() -> ParseError:
    return ParseError(f"JSON parse error - nested deeper than {JSON_MAX_DEPTH} levels.")


def json_check(data: Any) -> None:
    """Refuse JSON nested deeper than ``JSON_MAX_DEPTH`` or holding a refused character
    (a 400 naming where). Iterative and linear in the size of ``data``."""
    stack: list[tuple[Any, int, str]] = [(data, 0, "")]
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, str):
            problem = refused_character(value)
            if problem is not None:
                name = path or "non_field_errors"
                raise ValidationError({name: [f"The value {problem}"]})
        elif isinstance(value, dict | list):
            if depth >= JSON_MAX_DEPTH:
                raise _depth_error()
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, child in items:
                problem = refused_character(key) if isinstance(key, str) else None
                if problem is not None:
                    raise ValidationError({path or "non_field_errors": [f"A key {problem}"]})
                child_path = (
                    f"{path}[{key}]"
                    if isinstance(key, int)
                    else (f"{path}.{key}" if path else str(key))
                )
                stack.append((child, depth + 1, child_path))


class JSONParser(parsers.JSONParser):
    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        limit = body_max_bytes()
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise body_too_large()
        encoding = (parser_context or {}).get("encoding") or "utf-8"
        try:
            text = codecs.decode(raw, encoding)
            constant = json.strict_constant if self.strict else None
            data = json_loads(text, parse_constant=constant)
        except UnicodeDecodeError as exc:
            raise ParseError(f"JSON parse error - not {encoding} text") from exc
        except JsonTextError as exc:
            if isinstance(exc.__cause__, RecursionError):
                raise _depth_error() from exc
            raise ParseError(f"JSON parse error - {exc}") from exc
        json_check(data)
        return data


def _form_check(data: QueryDict, files: Any = None) -> None:
    pairs = [(name, value) for name, values in data.lists() for value in values]
    if files is not None:
        pairs += [(name, f.name or "") for name, fs in files.lists() for f in fs]
    bad = first_refused(pairs)
    if bad is not None:
        raise ValidationError({bad[0]: [f"The field {bad[1]}"]})


class FormParser(parsers.FormParser):
    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except TooManyFieldsSent as exc:
            raise ParseError(too_many(exc)) from exc
        _form_check(data)
        return data


class MultiPartParser(parsers.MultiPartParser):
    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            parsed = super().parse(stream, media_type, parser_context)
        except RequestTooLarge:
            raise
        except RequestDataTooBig as exc:
            raise body_too_large() from exc
        except (TooManyFieldsSent, TooManyFilesSent) as exc:
            raise ParseError(too_many(exc)) from exc
        _form_check(parsed.data, parsed.files)
        return parsed
