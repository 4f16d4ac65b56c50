"""REST API of designers and organizers (thin: validate, call a service or selector).

Access: a campaign outside the user's is a 404; reading needs the viewer role, changing
the designer role (403 otherwise). Every error has one JSON shape, ``{"detail", "code",
"fields"?}`` (import errors add ``file``, ``line`` and ``field``), made by
:func:`exception_handler` and documented on every operation by :class:`ApiSchema`; bad
query parameters (``?page=0``, ``?status=nope``) are 400s like bad bodies.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db.models import Count, Prefetch, QuerySet
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    JsonResponse,
)
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import (
    APIException,
    AuthenticationFailed,
    NotAuthenticated,
    NotFound,
    PermissionDenied,
    ValidationError,
)
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.settings import api_settings
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from annotations import serializers as s
from annotations.errors import DomainError, ImportFileError
from annotations.models import (
    Campaign,
    CampaignMembership,
    Criterion,
    Judgement,
    JudgementScore,
    System,
    Worker,
)
from annotations.permissions import campaigns_visible_to, has_role
from annotations.selectors import monitoring
from annotations.services import designer as services

logger = logging.getLogger(__name__)
Role = CampaignMembership.Role

ERROR_DESCRIPTIONS = {
    "400": "Invalid input: a body field or query parameter (named in `fields`), or a request "
    "a domain rule refuses",
    "401": "No credentials, or wrong ones",
    "403": "Your role in this campaign does not allow this",
    "404": "No such object among yours, no such page, or no such path",
    "429": "Too many failed logins from this client: wait for the cool-off period",
}
ERRORS = {
    int(code): OpenApiResponse(s.ErrorSerializer, description=ERROR_DESCRIPTIONS[code])
    for code in ("400", "403", "404")
}


def error_body(
    *, detail: str, code: str, fields: dict[str, list[str]] | None = None, **extra: Any
) -> dict[str, Any]:
    """The one JSON shape of every API error (see :class:`~annotations.serializers.ErrorSerializer`)."""
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
    """Every API error as :func:`error_body`: DomainError -> 400 (ImportFileError: + where),
    DRF's and Django's errors with their status, anything else a logged JSON 500 (the
    debug page when DEBUG is on)."""
    if isinstance(exc, ImportFileError):
        return Response(
            error_body(
                detail=str(exc), code="import_error", file=exc.file, line=exc.line, field=exc.field
            ),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, DomainError):
        return Response(
            error_body(detail=str(exc), code="refused"), status=status.HTTP_400_BAD_REQUEST
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


def _lockout_message() -> str:
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    return f"Too many failed sign-ins from this client. Try again in {minutes} minutes."


def login_lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any = None
) -> HttpResponse:
    """django-axes' answer once a client is locked out (AXES_LOCKOUT_CALLABLE): 429, with
    Retry-After; JSON in the API's error shape under /api/, the sign-in page's look elsewhere."""
    seconds = int(settings.AXES_COOLOFF_TIME.total_seconds())
    message = _lockout_message()
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
        error = self.resolve_serializer(s.ErrorSerializer, "response").ref
        for code in codes:
            responses.setdefault(
                code,
                {
                    "description": ERROR_DESCRIPTIONS[code],
                    "content": {"application/json": {"schema": error}},
                },
            )
        return dict(sorted(responses.items()))


class TokenApi(DomainErrorsMixin, ObtainAuthToken):
    """Exchange a username and password for the API token (``Authorization: Token <key>``).

    Wrong credentials are a 401; the 30th wrong password in a row from one client (by
    default; ``HUMANEVAL_LOGIN_FAILURE_LIMIT``) is a 429 for the cool-off period
    (``HUMANEVAL_LOGIN_COOLOFF_MINUTES``), counted by django-axes with the web sign-in.
    """

    @extend_schema(
        request=AuthTokenSerializer,
        responses={
            200: s.TokenSerializer,
            400: OpenApiResponse(s.ErrorSerializer, description=ERROR_DESCRIPTIONS["400"]),
            401: OpenApiResponse(s.ErrorSerializer, description=ERROR_DESCRIPTIONS["401"]),
            429: OpenApiResponse(s.ErrorSerializer, description=ERROR_DESCRIPTIONS["429"]),
        },
        auth=[],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = AuthTokenSerializer(data=request.data, context={"request": request})
        try:
            data.is_valid(raise_exception=True)
        except ValidationError as exc:
            if getattr(request, "axes_locked_out", False):
                raise LoginLockedOut(_lockout_message()) from exc
            if "username" in data.errors or "password" in data.errors:
                raise
            raise AuthenticationFailed(
                "Unable to log in with the username and password given."
            ) from exc
        user = data.validated_data["user"]
        # A token is a sign-in: axes resets the client's failure count, last_login is set.
        user_logged_in.send(sender=user.__class__, request=request, user=user)
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


class CampaignScoped(DomainErrorsMixin, APIView):
    """Loads ``self.campaign`` from the ``slug`` URL argument and checks the role.

    Safe methods need ``read_role`` (viewer), the others ``write_role`` (designer).
    """

    read_role = Role.VIEWER
    write_role = Role.DESIGNER

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        campaign = campaigns_visible_to(request.user).filter(slug=kwargs["slug"]).first()
        if campaign is None:
            raise Http404("No such campaign among yours.")
        role = self.read_role if request.method in ("GET", "HEAD", "OPTIONS") else self.write_role
        if not has_role(request.user, campaign, role):
            raise PermissionDenied(f"This needs the {role} role in campaign '{campaign.slug}'.")
        self.campaign = campaign


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


def _query(serializer_class: type[Serializer], request: Request) -> dict[str, Any]:
    """Validated query parameters (a bad value is a 400 naming the parameter)."""
    data = serializer_class(data=request.query_params.dict())
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


# Campaigns ----------------------------------------------------------------------------------


class CampaignListApi(DomainErrorsMixin, generics.ListAPIView):
    """Campaigns you own or are a member of. Filter: ``?status=draft|live|paused|closed``."""

    pagination_class = Pagination
    serializer_class = s.CampaignSerializer

    def get_queryset(self) -> QuerySet[Campaign]:
        query = _query(s.CampaignQuerySerializer, self.request)
        qs = campaigns_visible_to(self.request.user).select_related("owner").order_by("-created_at")
        if query.get("status"):
            qs = qs.filter(status=query["status"])
        return qs

    @extend_schema(parameters=[s.CampaignQuerySerializer])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        request=s.CampaignCreateSerializer, responses={201: s.CampaignSerializer, **ERRORS}
    )
    def post(self, request: Request) -> Response:
        data = s.CampaignCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request.user
        if not user.is_authenticated:  # refused before by IsAuthenticated, the default
            raise NotAuthenticated()
        campaign = services.campaign_start(user=user, **data.validated_data)
        return Response(s.CampaignSerializer(campaign).data, status=status.HTTP_201_CREATED)


class CampaignDetailApi(CampaignScoped, APIView):
    @extend_schema(responses={200: s.CampaignSerializer, **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        return Response(s.CampaignSerializer(self.campaign).data)

    @extend_schema(
        request=s.CampaignUpdateSerializer, responses={200: s.CampaignSerializer, **ERRORS}
    )
    def patch(self, request: Request, slug: str) -> Response:
        data = s.CampaignUpdateSerializer(self.campaign, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        campaign = services.campaign_settings_update(
            campaign=Campaign.objects.get(pk=self.campaign.pk), **data.validated_data
        )
        return Response(s.CampaignSerializer(campaign).data)


class CampaignActionApi(CampaignScoped, APIView):
    """Launch, pause or close a campaign."""

    action = ""

    @extend_schema(request=None, responses={200: s.CampaignSerializer, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        service = {
            "launch": services.campaign_launch,
            "pause": services.campaign_pause,
            "close": services.campaign_close,
        }[self.action]
        return Response(s.CampaignSerializer(service(campaign=self.campaign)).data)


class CampaignBuildApi(CampaignScoped, APIView):
    """Build the task design (drafts only); returns the design report."""

    @extend_schema(request=s.BuildSerializer, responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        data = s.BuildSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        report = services.campaign_tasks_build(
            campaign=self.campaign, seed=data.validated_data.get("seed")
        )
        return Response(_plain(report))


def _plain(value: Any) -> Any:
    """A dataclass report as JSON-friendly data."""
    import dataclasses

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {k: _plain(v) for k, v in dataclasses.asdict(value).items()}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    return str(value)


class CampaignProgressApi(CampaignScoped, APIView):
    """Judgements collected against planned per criterion, agreement and comparison counts."""

    @extend_schema(responses={200: s.ProgressSerializer, **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        comparisons = {}
        for criterion in self.campaign.criteria.all():
            matrix = monitoring.comparison_matrix(criterion=criterion)
            comparisons[criterion.name] = {
                a: {b: n for b, n in zip(matrix.labels, row, strict=True) if n}
                for a, row in matrix.rows
            }
        data = {
            "status": self.campaign.status,
            "criteria": monitoring.campaign_progress(campaign=self.campaign),
            "agreement": monitoring.campaign_agreement(campaign=self.campaign),
            "comparisons": comparisons,
        }
        return Response(s.ProgressSerializer(data).data)


# Criteria, systems, outputs ------------------------------------------------------------------


class CriterionListApi(CampaignScoped, generics.ListAPIView):
    serializer_class = s.CriterionSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[Criterion]:
        return self.campaign.criteria.all()

    @extend_schema(
        request=s.CriterionCreateSerializer, responses={201: s.CriterionSerializer, **ERRORS}
    )
    def post(self, request: Request, slug: str) -> Response:
        data = s.CriterionCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        preset = fields.pop("preset", "") or ""
        criterion = services.criterion_create(campaign=self.campaign, preset=preset, **fields)
        return Response(s.CriterionSerializer(criterion).data, status=status.HTTP_201_CREATED)


class CriterionDetailApi(CampaignScoped, APIView):
    def _criterion(self, pk: int) -> Criterion:
        criterion = self.campaign.criteria.filter(pk=pk).first()
        if criterion is None:
            raise Http404("No such criterion in this campaign.")
        return criterion

    @extend_schema(responses={200: s.CriterionSerializer, **ERRORS})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        return Response(s.CriterionSerializer(self._criterion(pk)).data)

    @extend_schema(request=s.CriterionSerializer, responses={200: s.CriterionSerializer, **ERRORS})
    def patch(self, request: Request, slug: str, pk: int) -> Response:
        criterion = self._criterion(pk)
        data = s.CriterionSerializer(criterion, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        criterion = services.criterion_update(criterion=criterion, **data.validated_data)
        return Response(s.CriterionSerializer(criterion).data)

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Request, slug: str, pk: int) -> Response:
        services.criterion_delete(criterion=self._criterion(pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class SystemListApi(CampaignScoped, generics.ListAPIView):
    """The campaign's systems with their number of outputs."""

    pagination_class = Pagination
    serializer_class = s.SystemSerializer

    def get_queryset(self) -> QuerySet[System]:
        return self.campaign.systems.annotate(n_outputs=Count("outputs")).order_by("label")


class OutputUploadApi(CampaignScoped, APIView):
    """Upload outputs (multipart ``files``): all files or nothing."""

    @extend_schema(
        request={"multipart/form-data": s.UploadSerializer},
        responses={201: s.OutputsImportedSerializer(many=True), **ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        data = s.UploadSerializer(data={"files": request.FILES.getlist("files")})
        data.is_valid(raise_exception=True)
        results = services.outputs_upload(
            campaign=self.campaign, files=data.validated_data["files"]
        )
        rows = [{**_plain(r), "file": str(r.file).rsplit("/", 1)[-1]} for r in results]
        return Response(
            s.OutputsImportedSerializer(rows, many=True).data, status=status.HTTP_201_CREATED
        )


# Workers and judgements ----------------------------------------------------------------------


class WorkerListApi(CampaignScoped, generics.ListAPIView):
    """Workers with their quality figures. Filters: ``flagged``, ``excluded``, ``platform``."""

    pagination_class = Pagination
    serializer_class = s.WorkerQualitySerializer

    def get_queryset(self) -> QuerySet[Worker]:
        query = _query(s.WorkerQuerySerializer, self.request)
        qs = self.campaign.workers.all()
        for name in ("flagged", "excluded"):
            if query.get(name) is not None:
                qs = qs.filter(**{name: query[name]})
        if query.get("platform"):
            qs = qs.filter(platform=query["platform"])
        return qs.order_by("-created_at", "id")

    @extend_schema(parameters=[s.WorkerQuerySerializer])
    def get(self, request: Request, slug: str) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        workers = Worker.objects.filter(pk__in=[w.pk for w in page or []])
        rows = monitoring.worker_table(campaign=self.campaign, workers=workers)
        return self.get_paginated_response(s.WorkerQualitySerializer(rows, many=True).data)


class WorkerDetailApi(CampaignScoped, APIView):
    """Flag or exclude a worker (``PATCH {"flagged": true}`` / ``{"excluded": true}``)."""

    @extend_schema(responses={200: s.WorkerSerializer, **ERRORS})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        return Response(s.WorkerSerializer(self._worker(pk)).data)

    @extend_schema(request=s.WorkerSerializer, responses={200: s.WorkerSerializer, **ERRORS})
    def patch(self, request: Request, slug: str, pk: int) -> Response:
        worker = self._worker(pk)
        data = s.WorkerSerializer(worker, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        worker = services.worker_mark(
            worker=worker,
            flagged=data.validated_data.get("flagged"),
            excluded=data.validated_data.get("excluded"),
        )
        return Response(s.WorkerSerializer(worker).data)

    def _worker(self, pk: int) -> Worker:
        worker = self.campaign.workers.filter(pk=pk).first()
        if worker is None:
            raise Http404("No such worker in this campaign.")
        return worker


class JudgementListApi(CampaignScoped, generics.ListAPIView):
    """Raw judgements, oldest first. Filters: ``criterion`` (name), ``worker`` (external id),
    ``submitted_after`` (ISO time)."""

    pagination_class = Pagination
    serializer_class = s.JudgementSerializer

    def get_queryset(self) -> QuerySet[Judgement]:
        query = _query(s.JudgementQuerySerializer, self.request)
        qs = Judgement.objects.filter(criterion__campaign=self.campaign)
        if query.get("criterion"):
            qs = qs.filter(criterion__name=query["criterion"])
        if query.get("worker"):
            qs = qs.filter(worker__external_id=query["worker"])
        if query.get("submitted_after"):
            qs = qs.filter(submitted_at__gt=query["submitted_after"])
        scores = JudgementScore.objects.select_related("output__system", "output__item").order_by(
            "slot", "id"
        )
        return (
            qs.select_related("criterion", "worker")
            .prefetch_related(Prefetch("scores", queryset=scores))
            .order_by("submitted_at", "id")
        )

    @extend_schema(parameters=[s.JudgementQuerySerializer])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class ExportApi(CampaignScoped, APIView):
    """Raw judgements of one criterion, streamed: ``fmt=csv`` (E2E-like), ``jsonl`` or
    ``wmt`` (WMT ranking CSV)."""

    @extend_schema(
        parameters=[s.ExportQuerySerializer],
        responses={
            (200, "text/csv"): OpenApiTypes.STR,
            (200, "application/x-ndjson"): OpenApiTypes.STR,
        },
    )
    def get(self, request: Request, slug: str) -> Any:
        from annotations.views.designer import export_response

        query = _query(s.ExportQuerySerializer, request)
        name = query["criterion"]
        criterion = self.campaign.criteria.filter(name=name).first()
        if criterion is None:
            raise DomainError(
                f"criterion: campaign '{self.campaign.slug}' has no criterion '{name}'."
            )
        return export_response(criterion, query["fmt"], query["include_excluded"])
