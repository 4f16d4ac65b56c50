"""The site's error pages (``handler403``/``404``/``500`` in ``humaneval.urls``).

Django's own views render ``templates/403.html``, ``404.html`` and ``500.html``; what is
added here: under ``/w/`` (the crowd workers' pages) an error page may be framed by the
crowd platforms like every other worker page, so that a mistyped or stale study link
shows the page's advice inside MTurk's iframe instead of a browser's refusal. Every other
error page refuses framing like the rest of the site.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.views import defaults

from annotations.access.workers import framable_by_crowd_platforms

WORKER_PATHS = "/w/"


def _framable_under_worker_paths(
    handler: Callable[..., HttpResponse],
) -> Callable[..., HttpResponse]:
    framable = framable_by_crowd_platforms(handler)

    @wraps(handler)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.path_info.startswith(WORKER_PATHS):
            return framable(request, *args, **kwargs)
        return handler(request, *args, **kwargs)

    return wrapped


page_not_found = _framable_under_worker_paths(defaults.page_not_found)
permission_denied = _framable_under_worker_paths(defaults.permission_denied)
server_error = _framable_under_worker_paths(defaults.server_error)
