"""The API's request parsers (``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``).

A module of its own: DRF reads the setting when ``rest_framework.views`` is imported,
which ``common.api`` does.
"""

from __future__ import annotations

import re
from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.parsers import JSONParser as DrfJSONParser
from rest_framework.settings import api_settings

from common.nul import nul_message, nul_path


class JSONParser(DrfJSONParser):
    """DRF's JSON parser, refusing a body with a NUL character in any string or key
    (``common.nul``: PostgreSQL cannot store one): a 400 ``invalid`` whose ``fields``
    names the top-level field, its message the whole path, as a serializer would."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        path = nul_path(data)
        if path is not None:
            field = re.split(r"[.\[]", path, maxsplit=1)[0] or api_settings.NON_FIELD_ERRORS_KEY
            message = "Null characters are not allowed. " + nul_message(f"'{path or 'body'}'")
            raise ValidationError({field: [message]})
        return data
