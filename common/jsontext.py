"""JSON text read from a person's file or request, with every way it can fail named.

``json.loads`` fails in three ways that the importers and the API must all turn into a
clear 400 naming the file and line: a syntax error (``JSONDecodeError``), nesting deeper
than the interpreter's recursion limit (``RecursionError``), and an integer of more than
4,300 digits (a plain ``ValueError``, Python's guard against quadratic conversion). A
parser that catches the first two only answers the third with a 500. Pure: no Django.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["JsonTextError", "json_loads"]


class JsonTextError(ValueError):
    """Why a text is not JSON, in words for a person (no interpreter internals)."""


def json_loads(text: str | bytes, **kwargs: Any) -> Any:
    """``json.loads(text)``, raising :class:`JsonTextError` whatever went wrong."""
    try:
        return json.loads(text, **kwargs)
    except json.JSONDecodeError as exc:
        raise JsonTextError(f"{exc.msg} at character {exc.colno}") from exc
    except RecursionError as exc:
        raise JsonTextError("nested too deeply") from exc
    except UnicodeDecodeError as exc:
        raise JsonTextError(f"not UTF-8 text (byte {exc.start + 1})") from exc
    except ValueError as exc:
        if "digits" in str(exc):
            raise JsonTextError("a number has too many digits (at most 4,300)") from exc
        raise JsonTextError("not valid JSON") from exc
