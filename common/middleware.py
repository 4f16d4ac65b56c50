"""Middleware of our own: private responses stay out of every cache."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import add_never_cache_headers


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
