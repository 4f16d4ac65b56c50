"""Middleware of our own: every request's bounds (checked before any view, and before the
CSRF check reads a form), private responses kept out of every cache, and the embedded
beat started with the web stack.

Bounds:

- A body larger than its limit is a 413 before a byte of it is read: file uploads
  (multipart) up to the one upload limit (``HUMANEVAL_UPLOAD_MAX_MB``) plus the form
  fields beside them, every other body (JSON, forms) up to ``DATA_UPLOAD_MAX_MEMORY_SIZE``.
  Within that, ``common.uploads.LimitedUploadHandler`` stops a multipart upload as its
  files pass the limit, so a lying Content-Length or many files change nothing.
- A NUL (``%00``) or a lone surrogate in the path, a query parameter or a form field is a
  400 naming the parameter: PostgreSQL refuses NUL in text, so such a value would
  otherwise fail deep in a query (a 500, or a download cut off mid-stream).

Web pages' forms are read here (as the CSRF check would read them), so that a refused
upload or field is the site's error page; the API's bodies are read by its parsers
(``common.parsers``), whose errors come out in the API's one JSON shape (``common.api``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import (
    MiddlewareNotUsed,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers

from common import jobs
from common.api import error_body
from common.http import API_PATHS, WORKER_PATHS
from common.limits import (
    RequestTooLarge,
    body_max_bytes,
    body_too_large,
    first_refused,
    multipart_max_bytes,
    refused_character,
    too_many,
    upload_too_large,
)
from common.unicode import BIDI_CONTROLS

FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")


def error_response(
    request: HttpRequest, *, status: int, detail: str, code: str, **extra: Any
) -> HttpResponse:
    """An error the site answers before any view: the API's one JSON shape under /api/,
    else the site's error page ``templates/<status>.html`` (showing ``detail``). Under
    /w/ the page may be framed by the crowd platforms, as the other worker error pages."""
    if request.path_info.startswith(API_PATHS):
        return JsonResponse(error_body(detail=detail, code=code, **extra), status=status)
    response = render(request, f"{status}.html", {"detail": detail, **extra}, status=status)
    if request.path_info.startswith(WORKER_PATHS):
        # What annotations.access.workers.framable_by_crowd_platforms sets on worker pages.
        response.xframe_options_exempt = True  # type: ignore[attr-defined]
        frame = list(settings.WORKER_FRAME_ANCESTORS) or ["'none'"]
        response._csp_replace = {"frame-ancestors": frame}  # type: ignore[attr-defined]
    return response


class RequestBoundsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        refusal = self._refusal(request)
        if refusal is not None:
            return refusal
        return self.get_response(request)

    def _refusal(self, request: HttpRequest) -> HttpResponse | None:
        problem = refused_character(request.path_info)
        if problem is not None:
            return _invalid(request, "path", f"The address {problem}")
        try:
            query = list(request.GET.lists())
        except TooManyFieldsSent as exc:
            return _invalid(request, "query", too_many(exc))
        bad = first_refused((name, value) for name, values in query for value in values)
        if bad is not None:
            return _invalid(request, bad[0], f"The query parameter '{bad[0]}' {bad[1]}")
        too_large = _body_too_large(request)
        if too_large is not None:
            return _too_large(request, too_large)
        if (
            request.method == "POST"
            and request.content_type in FORM_TYPES
            and not request.path_info.startswith(API_PATHS)
        ):
            return self._form_refusal(request)
        return None

    def _form_refusal(self, request: HttpRequest) -> HttpResponse | None:
        """Read a web page's form (the upload handler bounds its files) and check it."""
        try:
            fields = list(request.POST.lists())
            files = [
                (name, f.name or "") for name, uploaded in request.FILES.lists() for f in uploaded
            ]
        except RequestTooLarge as exc:
            _unreadable(request)
            return _too_large(request, exc)
        except RequestDataTooBig:
            _unreadable(request)
            return _too_large(request, body_too_large())
        except (TooManyFieldsSent, TooManyFilesSent) as exc:
            _unreadable(request)
            return _invalid(request, "body", too_many(exc))
        except MultiPartParserError as exc:
            _unreadable(request)
            return _invalid(request, "body", f"The form could not be read: {exc}")
        bad = first_refused([(n, v) for n, values in fields for v in values] + files)
        if bad is not None:
            return _invalid(request, bad[0], f"The form field '{bad[0]}' {bad[1]}")
        return None


def _body_too_large(request: HttpRequest) -> RequestTooLarge | None:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None  # Django reads no body then
    if request.content_type == "multipart/form-data":
        if length > multipart_max_bytes():
            return upload_too_large()
        return None
    if length > body_max_bytes():
        return body_too_large()
    return None


def _unreadable(request: HttpRequest) -> None:
    # As Django does after a form it could not parse: later reads see empty data, not
    # the half-read stream.
    request._mark_post_parse_error()  # type: ignore[attr-defined]


def _invalid(request: HttpRequest, field: str, message: str) -> HttpResponse:
    return error_response(
        request, status=400, detail=message, code="invalid", fields={field: [message]}
    )


def _too_large(request: HttpRequest, exc: RequestTooLarge) -> HttpResponse:
    extra: dict[str, Any] = {"file": exc.file} if exc.file else {}
    return error_response(request, status=413, detail=str(exc), code="too_large", **extra)


class RefusedCookiesMiddleware:
    """Drop the cookies that hold a NUL (a quoted cookie's ``\\000`` escape is one): read
    as if the browser had not sent them, so the session of such a cookie is a new one
    rather than a failed query. Before the session middleware, which reads the cookie."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        cookies = request.COOKIES
        for name in [n for n, v in cookies.items() if first_refused([(n, v)]) is not None]:
            del cookies[name]
        return self.get_response(request)


class PrivateNoStoreMiddleware:
    """Every response to an authenticated request is ``Cache-Control: private, no-store``.

    Designer and organizer pages, judgement and payment exports and API JSON hold private
    data; without this a browser (or a shared proxy) keeps a copy after sign-out. Put in
    ``MIDDLEWARE`` after ``AuthenticationMiddleware`` and inside WhiteNoise, so public
    static files, which WhiteNoise answers before this runs, keep their long caching.

    Authenticated means: a signed-in session user, a user an API authenticated by token
    (DRF sets it on the request as it authenticates), or any request that carries an
    ``Authorization`` header. A response that already forbids storing (worker pages) is
    left as it is, without reading the session for it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        control = response.get("Cache-Control", "")
        if "no-store" in control and "private" in control:
            return response
        if "HTTP_AUTHORIZATION" in request.META or _signed_in(request):
            add_never_cache_headers(response)
        return response


def _signed_in(request: HttpRequest) -> bool:
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated)


#: Unicode's bidirectional embeddings, overrides and isolates (U+202A-U+202E,
#: U+2066-U+2069): a name holding one reorders the text after it on the page ("Trojan
#: Source", CVE-2021-42574). The site's own markup has none; the exports read as text
#: drop them too (``annotations.core.export_safety``; CSV and JSONL data keep them).
_BIDI_CONTROLS = dict.fromkeys(BIDI_CONTROLS)
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


class EmbeddedBeatMiddleware:
    """Starts this web process's embedded beat (``common.jobs.beat_start``: without a
    broker, the sweeps and the adaptive step celery beat would run) as the web stack
    loads, then removes itself from the chain: it costs no request anything. Here rather
    than in an ``AppConfig.ready``, so that management commands and tests start none."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        jobs.beat_start()
        raise MiddlewareNotUsed
