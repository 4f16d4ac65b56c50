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
