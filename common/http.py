"""HTTP plumbing pages and APIs share: request types for views' annotations (typing only),
file downloads, and the paths the error answered before any view depends on
(``common.middleware.error_response``).

``HtmxHttpRequest`` is django-htmx's documented pattern: its middleware sets
``request.htmx``, which ``HttpRequest`` does not declare. ``AuthenticatedHttpRequest`` is
django-stubs' documented pattern for views behind ``login_required``, whose
``request.user`` is a ``User``, never an ``AnonymousUser``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.http import content_disposition_header
from django_htmx.middleware import HtmxDetails

from common.errors import DomainError


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthenticatedHttpRequest(HttpRequest):
    user: User


def refused_page(
    request: HttpRequest, refusal: object, *, back: str = "", back_label: str = ""
) -> HttpResponse:
    """A 400 page (``templates/400.html``) saying why a page's parameters were refused
    (an unknown criterion, format or slice), with a way back (``back``, a URL, labelled
    ``back_label``): a person who followed a link or a form gets the site's page, not a
    line of plain text."""
    from django.shortcuts import render

    return render(
        request,
        "400.html",
        {"detail": str(refusal), "back": back, "back_label": back_label},
        status=400,
    )


def file_response(
    content: str | bytes, *, content_type: str, filename: str, inline: bool = False
) -> HttpResponse:
    """A file held in memory, as a download (``inline``: shown in the browser)."""
    body = content.encode("utf-8") if isinstance(content, str) else content
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = _disposition(filename, inline=inline)
    return response


def streamed_file_response(
    lines: Iterable[str], *, content_type: str, filename: str
) -> StreamingHttpResponse:
    """A file written line by line as it is sent (large exports), as a download."""
    response = StreamingHttpResponse(lines, content_type=content_type)
    response["Content-Disposition"] = _disposition(filename, inline=False)
    return response


# Control characters would end the header (Django refuses a header with a line break: a
# 500), slashes name folders; file names carry campaign and criterion names.
_UNSAFE_IN_FILENAME = re.compile(r"[\x00-\x1f\x7f/\\]")


def _disposition(filename: str, *, inline: bool) -> str:
    """The Content-Disposition of ``filename`` (RFC 6266): quoted, or percent-encoded
    (``filename*``) when it is not plain ASCII; control characters and slashes are ``_``."""
    safe = _UNSAFE_IN_FILENAME.sub("_", filename)
    header = content_disposition_header(not inline, safe)
    assert header is not None  # a file name is always given
    return header


#: Paths answered in the API's JSON error shape rather than with the site's pages.
API_PATHS = "/api/"
#: The crowd workers' pages: their error pages may be framed by the crowd platforms.
WORKER_PATHS = "/w/"


def act(request: HttpRequest, service: Callable[[], object], *, done: str = "") -> None:
    """Run a button's service; say ``done`` after it, or the refusal (a ``DomainError``)."""
    try:
        service()
    except DomainError as exc:
        messages.error(request, str(exc))
    else:
        if done:
            messages.success(request, done)
