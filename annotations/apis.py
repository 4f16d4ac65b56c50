"""REST API of designers and organizers (thin: validate, call a service or selector).

Access: a campaign outside the user's is a 404; reading needs the viewer role, changing
the designer role (403 otherwise). Domain errors become 400 ``{"detail": ...}`` (import
errors add ``file``, ``line`` and ``field``) through :func:`exception_handler`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Count, Prefetch, QuerySet
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
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

Role = CampaignMembership.Role

ERRORS = {
    400: OpenApiResponse(s.ErrorSerializer, description="Invalid input or refused by a rule"),
    403: OpenApiResponse(s.ErrorSerializer, description="Your role does not allow this"),
    404: OpenApiResponse(s.ErrorSerializer, description="No such campaign among yours"),
}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, plus DomainError -> 400 {"detail": ...} (ImportFileError: + where)."""
    if isinstance(exc, ImportFileError):
        return Response(
            {"detail": str(exc), "file": exc.file, "line": exc.line, "field": exc.field},
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, DomainError):
        return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
    return drf_exception_handler(exc, context)


class DomainErrorsMixin:
    """Use :func:`exception_handler` whatever the project's DRF settings say."""

    def get_exception_handler(self) -> Callable[[Exception, dict[str, Any]], Response | None]:
        return exception_handler


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
    """Pages of 50 by default; ``?page_size=`` up to 1000."""

    page_size_query_param = "page_size"
    max_page_size = 1000


def _flag(value: str | None) -> bool | None:
    if value is None or value == "":
        return None
    return value.lower() in ("1", "true", "yes")


# Campaigns ----------------------------------------------------------------------------------


class CampaignListApi(DomainErrorsMixin, generics.ListAPIView):
    """Campaigns you own or are a member of. Filter: ``?status=draft|live|paused|closed``."""

    pagination_class = Pagination
    serializer_class = s.CampaignSerializer

    def get_queryset(self) -> QuerySet[Campaign]:
        qs = campaigns_visible_to(self.request.user).select_related("owner").order_by("-created_at")
        if self.request.query_params.get("status"):
            qs = qs.filter(status=self.request.query_params["status"])
        return qs

    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=Campaign.Status.values)],
    )
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
        qs = self.campaign.workers.all()
        params = self.request.query_params
        for name in ("flagged", "excluded"):
            value = _flag(params.get(name))
            if value is not None:
                qs = qs.filter(**{name: value})
        if params.get("platform"):
            qs = qs.filter(platform=params["platform"])
        return qs.order_by("-created_at", "id")

    @extend_schema(
        parameters=[
            OpenApiParameter("flagged", bool),
            OpenApiParameter("excluded", bool),
            OpenApiParameter("platform", str, enum=Worker.Platform.values),
        ]
    )
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
        qs = Judgement.objects.filter(criterion__campaign=self.campaign)
        params = self.request.query_params
        if params.get("criterion"):
            qs = qs.filter(criterion__name=params["criterion"])
        if params.get("worker"):
            qs = qs.filter(worker__external_id=params["worker"])
        if params.get("submitted_after"):
            from django.utils.dateparse import parse_datetime

            moment = parse_datetime(params["submitted_after"])
            if moment is None:
                raise DomainError("submitted_after: not an ISO 8601 date and time.")
            qs = qs.filter(submitted_at__gt=moment)
        scores = JudgementScore.objects.select_related("output__system", "output__item").order_by(
            "slot", "id"
        )
        return (
            qs.select_related("criterion", "worker")
            .prefetch_related(Prefetch("scores", queryset=scores))
            .order_by("submitted_at", "id")
        )

    @extend_schema(
        parameters=[
            OpenApiParameter("criterion", str),
            OpenApiParameter("worker", str),
            OpenApiParameter("submitted_after", OpenApiTypes.DATETIME),
        ]
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class ExportApi(CampaignScoped, APIView):
    """Raw judgements of one criterion, streamed: ``fmt=csv`` (E2E-like), ``jsonl`` or
    ``wmt`` (WMT ranking CSV)."""

    @extend_schema(
        parameters=[
            OpenApiParameter("criterion", str, required=True),
            OpenApiParameter("fmt", str, enum=["csv", "jsonl", "wmt"], default="csv"),
            OpenApiParameter("include_excluded", bool, default=True),
        ],
        responses={(200, "text/csv"): OpenApiTypes.STR, **ERRORS},
    )
    def get(self, request: Request, slug: str) -> Any:
        from annotations.views.designer import export_response

        name = request.query_params.get("criterion", "")
        criterion = self.campaign.criteria.filter(name=name).first()
        if criterion is None:
            raise DomainError(
                f"criterion: campaign '{self.campaign.slug}' has no criterion '{name}'."
            )
        include = _flag(request.query_params.get("include_excluded"))
        return export_response(
            criterion, request.query_params.get("fmt", "csv"), include is not False
        )
