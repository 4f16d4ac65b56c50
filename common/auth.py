"""Sign-in throttling (django-axes hooks named in settings): the client address behind a
proxy, and the 429 a locked-out client gets on the web and the API."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from common.api import error_body


class LoginThrottleBackend(AxesStandaloneBackend):
    """django-axes' check before every sign-in, for sign-ins that come with a request.

    A login without a request (Django's test client ``login()``, a script) has no client
    address to count against, so it is left to the next backend instead of refused.
    """

    def authenticate(self, request: Any, *args: Any, **kwargs: Any) -> None:
        if request is None:
            return None
        return super().authenticate(request, *args, **kwargs)


def client_ip_address(request: HttpRequest) -> str | None:
    """The client's address for login throttling (AXES_CLIENT_IP_CALLABLE).

    Behind a proxy (DJANGO_BEHIND_PROXY), REMOTE_ADDR is the proxy's own address; the client's
    is the entry of X-Forwarded-For our HUMANEVAL_PROXY_COUNT proxies appended, counted from
    the right (entries further left are whatever the client sent, so never trusted).
    """
    if settings.BEHIND_PROXY:
        forwarded = [
            part.strip()
            for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if part.strip()
        ]
        if len(forwarded) >= settings.PROXY_COUNT:
            return forwarded[-settings.PROXY_COUNT]
    return request.META.get("REMOTE_ADDR")


def lockout_message() -> str:
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    return f"Too many failed sign-ins from this client. Try again in {minutes} minutes."


def login_lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any = None
) -> HttpResponse:
    """django-axes' answer once a client is locked out (AXES_LOCKOUT_CALLABLE): 429, with
    Retry-After; JSON in the API's error shape under /api/, the sign-in page's look elsewhere."""
    seconds = int(settings.AXES_COOLOFF_TIME.total_seconds())
    message = lockout_message()
    if request.path_info.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            error_body(detail=message, code="locked_out"), status=429
        )
    else:
        response = render(
            request,
            "registration/locked_out.html",
            {"message": message},
            status=429,
        )
    response["Retry-After"] = str(seconds)
    return response
