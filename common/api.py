"""HTTP API plumbing both apps share: the one error shape and its handler, the schema that
documents it on every operation, pagination and query validation.

Every error has one JSON shape, ``{"detail", "code", "fields"?}`` (import errors add
``file``, ``line`` and ``field``), made by :func:`exception_handler` and documented on every
operation by :class:`ApiSchema`; bad query parameters (``?page=0``) are 400s like bad bodies.
:func:`plain` turns a service's dataclass report into a response body.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.urls import Resolver404, resolve
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, NotFound, UnsupportedMediaType, ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

from common.errors import DomainError, ImportFileError, StaleRequest
from common.limits import RequestTooLarge, body_too_large, too_many

logger = logging.getLogger(__name__)


class ErrorSerializer(serializers.Serializer):
    """Every API error (4xx and 5xx), one shape.

    ``detail`` is a message fit to show a person (it names the fields at fault),
    ``code`` a stable machine-readable reason, ``fields`` the messages per input field
    (body fields, query parameters such as ``page``; ``non_field_errors`` for the whole
    input). Import errors add where the problem is: ``file``, ``line`` and ``field``.
    """

    detail = serializers.CharField()
    code = serializers.CharField(
        help_text="e.g. invalid, refused, import_error, not_authenticated, "
        "authentication_failed, permission_denied, not_found, method_not_allowed, "
        "throttled, locked_out, server_error"
    )
    # Popped into _declared_fields by DRF's metaclass, so it does not hide Serializer.fields.
    fields = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="input field (dotted for nested ones) -> messages",
    )
    file = serializers.CharField(required=False)
    line = serializers.IntegerField(required=False, allow_null=True)
    field = serializers.CharField(required=False)


ERROR_DESCRIPTIONS = {
    "400": "Invalid input: a body field or query parameter (named in `fields`), or a request "
    "a domain rule refuses",
    "401": "No credentials, or wrong ones",
    "403": "Your role in this campaign does not allow this",
    "404": "No such object among yours, no such page, or no such path",
    "409": "The request was made against a state that has changed since (sent twice, or "
    "from a second tab): nothing was written; `detail` says what changed",
    "413": "The body is over its limit (file uploads: HUMANEVAL_UPLOAD_MAX_MB; other bodies: "
    "2.5 MB); `detail` says the limit, `file` names the upload at fault",
    "429": "Too many failed logins from this client: wait for the cool-off period",
}
ERRORS = {
    int(code): OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS[code])
    for code in ("400", "403", "404")
}
CONFLICT = OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS["409"])


def error_body(
    *, detail: str, code: str, fields: dict[str, list[str]] | None = None, **extra: Any
) -> dict[str, Any]:
    """The one JSON shape of every API error (see :class:`~annotations.serializerErrorSerializer`)."""
    body: dict[str, Any] = {"detail": detail, "code": code}
    if fields:
        body["fields"] = fields
    body.update(extra)
    return body


def _field_messages(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested validation detail as ``{"field.sub[0]": [messages]}``."""
    name = prefix or api_settings.NON_FIELD_ERRORS_KEY
    if isinstance(detail, dict):
        out: dict[str, list[str]] = {}
        for key, value in detail.items():
            if str(key) == api_settings.NON_FIELD_ERRORS_KEY and prefix:
                path = prefix  # a nested object's own errors belong to the object
            else:
                path = f"{prefix}.{key}" if prefix else str(key)
            out.update(_field_messages(value, path))
        return out
    if isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            return {name: [str(item) for item in detail]} if detail else {}
        out = {}
        for index, item in enumerate(detail):
            out.update(_field_messages(item, f"{prefix}[{index}]"))
        return out
    return {name: [str(detail)]}


def _summary(fields: dict[str, list[str]]) -> str:
    parts = [
        " ".join(messages)
        if name == api_settings.NON_FIELD_ERRORS_KEY
        else f"{name}: {' '.join(messages)}"
        for name, messages in fields.items()
    ]
    return "; ".join(parts) or "Invalid input."


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Every API error as :func:`error_body`: DomainError -> 400 (ImportFileError: + where;
    StaleRequest: 409), a body over its limit -> 413 (``file``: the upload at fault), DRF's and Django's errors with their status, anything else a logged JSON 500 (the
    debug page when DEBUG is on)."""
    if isinstance(exc, ImportFileError):
        return Response(
            error_body(
                detail=str(exc), code="import_error", file=exc.file, line=exc.line, field=exc.field
            ),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, StaleRequest):
        return Response(
            error_body(
                detail=str(exc),
                code="conflict",
                fields={exc.field: [str(exc)]} if exc.field else None,
            ),
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, DomainError):
        fields = {name: [message] for name, message in exc.field_messages.items()} or None
        return Response(
            error_body(detail=str(exc), code="refused", fields=fields),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, RequestDataTooBig):
        # Over the one upload limit while streaming (common.uploads), or a form field over
        # Django's: a 413 that says the limit.
        too_large = exc if isinstance(exc, RequestTooLarge) else body_too_large()
        extra: dict[str, Any] = {"file": too_large.file} if too_large.file else {}
        return Response(
            error_body(detail=str(too_large), code="too_large", **extra),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        return Response(
            error_body(detail=too_many(exc), code="invalid"), status=status.HTTP_400_BAD_REQUEST
        )
    if isinstance(exc, UnsupportedMediaType):
        # A body whose type the endpoint does not read (or a multipart body so broken its
        # type cannot be read) is invalid input like any other: a documented 400.
        return Response(
            error_body(detail=str(exc.detail), code="unsupported_media_type"),
            status=status.HTTP_400_BAD_REQUEST,
        )
    response = drf_exception_handler(exc, context)
    if response is None:
        if settings.DEBUG:
            return None
        request = context.get("request")
        logger.exception(
            "Unhandled error in %s %s",
            getattr(request, "method", "?"),
            getattr(request, "path", "?"),
            exc_info=exc,
        )
        return Response(
            error_body(detail="Server error: the maintainers have been told.", code="server_error"),
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    if isinstance(exc, LoginLockedOut):
        response["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    if isinstance(exc, ValidationError):
        fields = _field_messages(exc.detail)
        response.data = error_body(detail=_summary(fields), code="invalid", fields=fields)
        return response
    detail = response.data.get("detail", "") if isinstance(response.data, dict) else ""
    response.data = error_body(detail=str(detail), code=getattr(detail, "code", "error"))
    return response


@csrf_exempt  # it changes nothing, and a POST to a wrong path must be a 404, not a CSRF 403
def api_not_found(request: HttpRequest) -> HttpResponse:
    """Unmatched paths under /api/: a JSON 404 in the API's error shape.

    A path that only lacks its final slash is redirected to it, as CommonMiddleware's
    APPEND_SLASH does elsewhere (this catch-all would otherwise hide it).
    """
    if not request.path_info.endswith("/"):
        try:
            match = resolve(request.path_info + "/")
        except Resolver404:
            match = None
        if (
            match is not None
            and match.func is not api_not_found
            and request.method
            in (
                "GET",
                "HEAD",
            )
        ):
            query = request.META.get("QUERY_STRING", "")
            return HttpResponsePermanentRedirect(
                request.path + "/" + (f"?{query}" if query else "")
            )
    return JsonResponse(
        error_body(detail="No such API path; see /api/docs/.", code="not_found"), status=404
    )


class DomainErrorsMixin:
    """Use :func:`exception_handler` whatever the project's DRF settings say."""

    def get_exception_handler(self) -> Callable[[Exception, dict[str, Any]], Response | None]:
        return exception_handler


class LoginLockedOut(APIException):
    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "locked_out"


class ApiSchema(AutoSchema):
    """drf-spectacular's schema, plus the error responses every operation can give, all in
    the one error shape (the ``Error`` component): 400 and 404 everywhere (bad input or
    query parameter, unknown object, page or path), 401 and 403 where a login is needed."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        codes = ["400", "404"]
        if any(not isinstance(p, AllowAny) for p in self.view.get_permissions()):
            codes += ["401", "403"]
        if self.method in ("POST", "PUT", "PATCH"):
            codes.append("413")  # a body over its limit (common.limits)
        error = self.resolve_serializer(ErrorSerializer, "response").ref
        for code in codes:
            responses.setdefault(
                code,
                {
                    "description": ERROR_DESCRIPTIONS[code],
                    "content": {"application/json": {"schema": error}},
                },
            )
        return dict(sorted(responses.items()))


class Pagination(PageNumberPagination):
    """Pages of 50 by default; ``?page_size=`` from 1 to 1000. A page or page size that is
    not a whole number in range is a 400; a page past the last one a 404."""

    page_size_query_param = "page_size"
    max_page_size = 1000

    def _whole(self, request: Request, name: str, low: int, high: int | None) -> int | None:
        raw = request.query_params.get(name)
        if raw is None or raw == "":
            return None
        try:
            value = int(raw)
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            bounds = f"from {low} to {high}" if high is not None else f"{low} or more"
            raise ValidationError({name: [f"Must be a whole number {bounds}."]})
        return value

    def get_page_size(self, request: Request) -> int | None:
        size = self._whole(request, self.page_size_query_param, 1, self.max_page_size)
        return size if size is not None else self.page_size

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None) -> Any:
        self._whole(request, self.page_query_param, 1, None)
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound as exc:
            size = self.get_page_size(request) or self.max_page_size
            pages = self.django_paginator_class(queryset, size).num_pages
            raise NotFound(
                f"page: there is no page {request.query_params.get(self.page_query_param)}; "
                f"the last is {pages}."
            ) from exc

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"]["minimum"] = 1
            elif parameter["name"] == self.page_size_query_param:
                parameter["schema"].update(
                    {"minimum": 1, "maximum": self.max_page_size, "default": self.page_size}
                )
        return parameters


def validated_query(serializer_class: type[Serializer], request: Request) -> dict[str, Any]:
    """Validated query parameters (a bad value is a 400 naming the parameter)."""
    data = serializer_class(data=request.query_params.dict())
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


def plain(value: Any) -> Any:
    """A service's report (dataclasses, dicts, lists and tuples of them) as JSON-friendly
    data: dataclasses and dicts become objects with string keys, tuples lists, numbers,
    strings, booleans and None stay, anything else becomes its string."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {k: plain(v) for k, v in dataclasses.asdict(value).items()}
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    return str(value)
