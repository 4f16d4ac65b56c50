"""Request checks every page and API shares, before any view runs."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    JsonResponse,
    QueryDict,
)

from common.api import error_body
from common.nul import NUL, nul_in_pairs, nul_message


def _pairs(data: QueryDict) -> Iterator[tuple[str, str]]:
    """Every (name, value) of a query string or form body, repeated names included."""
    for name, values in data.lists():
        for value in values:
            yield name, str(value)


class RefuseNulMiddleware:
    """A NUL character in the path, the query string or a form body (``common.nul``) is
    a 400 saying where, in the API's error shape under /api/, as plain text elsewhere.

    Multipart bodies are left to the forms and importers (reading them here would fix
    the upload handlers before a view may change them); Django's form fields already
    refuse NUL, and the importers refuse it in files.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        where = None
        if NUL in request.path:
            where = "The address"
        elif (name := nul_in_pairs(_pairs(request.GET))) is not None:
            where = f"The query parameter '{name}'"
        elif request.content_type == "application/x-www-form-urlencoded" and (
            (name := nul_in_pairs(_pairs(request.POST))) is not None
        ):
            where = f"The form field '{name}'"
        if where is None:
            return self.get_response(request)
        message = nul_message(where)
        if request.path.startswith("/api/"):
            return JsonResponse(error_body(detail=message, code="invalid"), status=400)
        return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


#: Unicode's bidirectional embeddings, overrides and isolates (U+202A-U+202E,
#: U+2066-U+2069): a name holding one reorders the text after it on the page ("Trojan
#: Source", CVE-2021-42574). The site's own markup has none; the exports drop them too
#: (``annotations.core.export_safety``).
_BIDI_CONTROLS = {cp: None for cp in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}
_BIDI_BYTES = tuple(chr(cp).encode() for cp in _BIDI_CONTROLS)


class DropBidiControlsMiddleware:
    """HTML pages carry no bidirectional-control characters: whatever a supplied string
    holds, it cannot reorder the page's text around it. (Streamed responses are exports,
    which drop them themselves or keep the data as it is, e.g. CSV.)"""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            not getattr(response, "streaming", False)
            and response.get("Content-Type", "").startswith("text/html")
            and any(mark in response.content for mark in _BIDI_BYTES)
        ):
            charset = response.charset or "utf-8"
            text = response.content.decode(charset).translate(_BIDI_CONTROLS)
            response.content = text.encode(charset)
            if response.has_header("Content-Length"):
                response["Content-Length"] = str(len(response.content))
        return response
