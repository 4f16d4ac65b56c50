"""HTTP plumbing pages and APIs share: request types for views' annotations (typing only),
file downloads, and the error answered before any view (``error_response``).

``HtmxHttpRequest`` is django-htmx's documented pattern: its middleware sets
``request.htmx``, which ``HttpRequest`` does not declare. ``AuthenticatedHttpRequest`` is
django-stubs' documented pattern for views behind ``login_required``, whose
``request.user`` is a ``User``, never an ``AnonymousUser``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import render
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthenticatedHttpRequest(HttpRequest):
    user: User


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


def _disposition(filename: str, *, inline: bool) -> str:
    return f'{"inline" if inline else "attachment"}; filename="{filename}"'


#: Paths answered in the API's JSON error shape rather than with the site's pages.
API_PATHS = "/api/"
#: The crowd workers' pages: their error pages may be framed by the crowd platforms.
WORKER_PATHS = "/w/"


def error_response(
    request: HttpRequest, *, status: int, detail: str, code: str, **extra: Any
) -> HttpResponse:
    """An error the site answers before any view: the API's one JSON shape under /api/,
    else the site's error page ``templates/<status>.html`` (showing ``detail``). Under
    /w/ the page may be framed by the crowd platforms, as the other worker error pages."""
    from common.api import error_body  # common.api imports DRF; keep this module light

    if request.path_info.startswith(API_PATHS):
        return JsonResponse(error_body(detail=detail, code=code, **extra), status=status)
    response = render(request, f"{status}.html", {"detail": detail, **extra}, status=status)
    if request.path_info.startswith(WORKER_PATHS):
        # What annotations.views.worker.framable_by_crowd_platforms sets on worker pages.
        response.xframe_options_exempt = True  # type: ignore[attr-defined]
        frame = list(settings.WORKER_FRAME_ANCESTORS) or ["'none'"]
        response._csp_replace = {"frame-ancestors": frame}  # type: ignore[attr-defined]
    return response
