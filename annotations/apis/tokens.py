"""REST API: the API token (sign in with a username and password)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.utils.cache import add_never_cache_headers
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import (
    AuthenticationFailed,
    ValidationError,
)
from rest_framework.request import Request
from rest_framework.response import Response

from annotations.serializers.tokens import TokenSerializer
from annotations.services.tokens import token_get_or_create
from common.api import (
    ERROR_DESCRIPTIONS,
    DomainErrorsMixin,
    ErrorSerializer,
    LoginLockedOut,
)
from common.auth import lockout_message


class _Sessionless:
    """A request as the sign-in signal's receivers see it, minus its session."""

    def __init__(self, request: Request) -> None:
        self._request = request

    def __getattr__(self, name: str) -> Any:
        if name == "session":
            raise AttributeError(name)
        return getattr(self._request, name)


class TokenApi(DomainErrorsMixin, ObtainAuthToken):
    """Exchange a username and password for the API token (``Authorization: Token <key>``).

    Wrong credentials are a 401; the 30th wrong password in a row from one client (by
    default; ``HUMANEVAL_LOGIN_FAILURE_LIMIT``) is a 429 for the cool-off period
    (``HUMANEVAL_LOGIN_COOLOFF_MINUTES``), counted by django-axes with the web sign-in.
    """

    @extend_schema(
        request=AuthTokenSerializer,
        responses={
            200: TokenSerializer,
            400: OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS["400"]),
            401: OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS["401"]),
            429: OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS["429"]),
        },
        auth=[],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = AuthTokenSerializer(data=request.data, context={"request": request})
        try:
            data.is_valid(raise_exception=True)
        except ValidationError as exc:
            if getattr(request, "axes_locked_out", False):
                raise LoginLockedOut(lockout_message()) from exc
            if "username" in data.errors or "password" in data.errors:
                raise
            raise AuthenticationFailed(
                "Unable to log in with the username and password given."
            ) from exc
        user = data.validated_data["user"]
        # A token is a sign-in: axes resets the client's failure count, last_login is set.
        # The receivers get the request without its session: a token is no browser
        # sign-in, and axes would otherwise create a session (and this response would set
        # a session cookie that signs the client in to the whole site).
        user_logged_in.send(sender=user.__class__, request=_Sessionless(request), user=user)
        token = token_get_or_create(user=user)
        response = Response({"token": token.key})
        # The token is a credential: no cache keeps it (the request carried no session or
        # Authorization header for PrivateNoStoreMiddleware to see).
        add_never_cache_headers(response)
        return response
