"""REST API of designers and organizers (thin: validate, call a service or selector).

Access: a campaign outside the user's is a 404; reading needs the viewer role, changing
the designer role (403 otherwise). Every error has one JSON shape, ``{"detail", "code",
"fields"?}`` (import errors add ``file``, ``line`` and ``field``), made by
:func:`exception_handler` and documented on every operation by :class:`ApiSchema`; bad
query parameters (``?page=0``, ``?status=nope``) are 400s like bad bodies.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db.models import Count, Prefetch, QuerySet
from django.http import (
    Http404,
)
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import (
    AuthenticationFailed,
    NotAuthenticated,
    ValidationError,
)
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations import exports
from annotations import serializers as s
from annotations.access import campaign_check, campaigns_visible_to
from annotations.access_api import CampaignScoped
from annotations.core.slices import SliceError, parse_where
from annotations.importing import jobs as import_jobs
from annotations.importing.uploads import UploadTooLargeError, outputs_upload
from annotations.models import (
    Campaign,
    CampaignMembership,
    Criterion,
    Judgement,
    JudgementScore,
    System,
    Worker,
)
from annotations.selectors import memberships as member_selectors
from annotations.selectors import monitoring
from annotations.selectors import payments as payment_selectors
from annotations.selectors.experts import expert_report
from annotations.services import campaigns as campaign_services
from annotations.services import criteria as criteria_services
from annotations.services import memberships as membership_services
from annotations.services import tasks as task_services
from annotations.services import workers as worker_services
from common.api import (
    ERROR_DESCRIPTIONS,
    ERRORS,
    DomainErrorsMixin,
    ErrorSerializer,
    LoginLockedOut,
    Pagination,
    error_body,
    validated_query,
)
from common.auth import lockout_message
from common.errors import DomainError
from common.http import streamed_file_response

logger = logging.getLogger(__name__)
Role = CampaignMembership.Role


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
            200: s.TokenSerializer,
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
        token, _ = Token.objects.get_or_create(user=user)
        response = Response({"token": token.key})
        # The token is a credential: no cache keeps it (the request carried no session or
        # Authorization header for PrivateNoStoreMiddleware to see).
        add_never_cache_headers(response)
        return response


# Campaigns ----------------------------------------------------------------------------------


class CampaignListApi(DomainErrorsMixin, generics.ListAPIView):
    """Campaigns you own or are a member of. Filter: ``?status=draft|live|paused|closed``."""

    pagination_class = Pagination
    serializer_class = s.CampaignSerializer

    def get_queryset(self) -> QuerySet[Campaign]:
        query = validated_query(s.CampaignQuerySerializer, self.request)
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
        campaign = campaign_services.campaign_start(user=user, **data.validated_data)
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
        campaign = campaign_services.campaign_settings_update(
            campaign=Campaign.objects.get(pk=self.campaign.pk), **data.validated_data
        )
        return Response(s.CampaignSerializer(campaign).data)

    @extend_schema(
        responses={204: None, **ERRORS},
        description="Owners only. Deletes a draft, closed or archived campaign with "
        "everything it holds (judgements, workers, tasks, outputs, ranking runs); a live or "
        "paused one is refused (close it first). Archive it instead to keep it read-only.",
    )
    def delete(self, request: Request, slug: str) -> Response:
        campaign_check(request.user, self.campaign, Role.OWNER, denied="Only owners delete.")
        campaign_services.campaign_delete(campaign=self.campaign)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CampaignCloneApi(CampaignScoped, APIView):
    """A second round: a new draft with this campaign's settings, criteria and outputs
    (no workers, tasks or judgements); the caller owns it."""

    @extend_schema(request=s.CloneSerializer, responses={201: s.CampaignSerializer, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        data = s.CloneSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request.user
        if not user.is_authenticated:  # refused before by campaign_for
            raise NotAuthenticated()
        clone = campaign_services.campaign_clone(
            campaign=self.campaign, user=user, **data.validated_data
        )
        return Response(s.CampaignSerializer(clone).data, status=status.HTTP_201_CREATED)


class MemberListApi(CampaignScoped, generics.ListAPIView):
    """The campaign's members (viewers may read); POST gives a user a role (owners only)."""

    serializer_class = s.MemberSerializer
    pagination_class = None
    write_role = Role.OWNER

    def get_queryset(self) -> QuerySet[CampaignMembership]:
        return member_selectors.campaign_members(campaign=self.campaign)

    @extend_schema(request=s.MemberSetSerializer, responses={200: s.MemberSerializer, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        data = s.MemberSetSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        membership = membership_services.membership_set(
            campaign=self.campaign, **data.validated_data
        )
        return Response(s.MemberSerializer(membership).data)


class MemberDetailApi(CampaignScoped, APIView):
    """Take a member off the campaign (owners only; the owner stays)."""

    write_role = Role.OWNER

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Request, slug: str, pk: int) -> Response:
        membership = self.campaign.memberships.filter(pk=pk).first()
        if membership is None:
            raise Http404("No such member of this campaign.")
        membership_services.membership_remove(membership=membership)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PaymentListApi(CampaignScoped, APIView):
    """Per worker: the quality checks' suggestion, the decision and bonus (read only: the
    decisions are made on the payments page; the platforms' bulk files are its exports)."""

    @extend_schema(responses={200: s.PaymentRowSerializer(many=True), **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        rows = payment_selectors.payment_rows(campaign=self.campaign)
        return Response(s.PaymentRowSerializer(rows, many=True).data)


class CampaignActionApi(CampaignScoped, APIView):
    """Launch, pause, close, archive or unarchive a campaign (the pages' services)."""

    action = ""

    @extend_schema(request=None, responses={200: s.CampaignSerializer, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        service = {
            "launch": campaign_services.campaign_launch,
            "pause": campaign_services.campaign_pause,
            "close": campaign_services.campaign_close,
            "archive": campaign_services.campaign_archive,
            "unarchive": campaign_services.campaign_unarchive,
        }[self.action]
        return Response(s.CampaignSerializer(service(campaign=self.campaign)).data)


class CampaignBuildApi(CampaignScoped, APIView):
    """Build the task design (drafts only); returns the design report."""

    @extend_schema(
        request=s.BuildSerializer,
        responses={
            200: OpenApiTypes.OBJECT,
            202: OpenApiResponse(
                description="A large campaign (more than BUILD_INLINE_MAX_TASKS tasks), "
                "built as a background job: its id, status and progress page."
            ),
            **ERRORS,
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        data = s.BuildSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seed = data.validated_data.get("seed")
        if task_services.campaign_tasks_estimate(campaign=self.campaign) > (
            settings.BUILD_INLINE_MAX_TASKS
        ):
            task_services.campaign_tasks_build_check(campaign=self.campaign)
            job = import_jobs.job_active(
                campaign=self.campaign, kind="build"
            ) or import_jobs.job_create(
                campaign=self.campaign,
                kind="build",
                title="the tasks",
                options={"seed": seed},
                user=request.user,
            )
            page = reverse("annotations:designer-import-job", kwargs={"slug": slug, "pk": job.pk})
            return Response(
                {"job": job.pk, "status": job.status, "url": page},
                status=status.HTTP_202_ACCEPTED,
            )
        report = task_services.campaign_tasks_build(campaign=self.campaign, seed=seed)
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


class CampaignExpertsApi(CampaignScoped, APIView):
    """Crowd versus experts on one criterion (``?criterion=``): each crowd worker's
    Krippendorff's alpha with the experts' consensus (their mean score per output; the
    worker and the consensus are the two coders) and the crowd-versus-experts ranking
    correlations, with 95% bootstrap intervals. POST excludes the crowd workers whose
    alpha is below ``threshold`` (among those sharing ``min_units`` outputs)."""

    def _criterion(self, name: str) -> Criterion:
        criterion = self.campaign.criteria.filter(name=name).first()
        if criterion is None:
            raise Http404("No such criterion in this campaign.")
        return criterion

    @extend_schema(
        parameters=[OpenApiParameter("criterion", str, required=True)],
        responses={200: s.ExpertReportSerializer, **ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        criterion = self._criterion(request.query_params.get("criterion", ""))
        return Response(s.ExpertReportSerializer(expert_report(criterion=criterion)).data)

    @extend_schema(
        request=s.ExpertExcludeSerializer, responses={200: s.WorkerSerializer(many=True), **ERRORS}
    )
    def post(self, request: Request, slug: str) -> Response:
        data = s.ExpertExcludeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        newly = worker_services.workers_exclude_by_expert_agreement(
            criterion=self._criterion(data.validated_data["criterion"]),
            threshold=data.validated_data["threshold"],
            min_units=data.validated_data["min_units"],
        )
        return Response(s.WorkerSerializer(newly, many=True).data)


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
        fields, rankme = s.CriterionSerializer.split(data.validated_data)
        fields["preset"] = fields.pop("preset", "") or ""
        criterion = criteria_services.criterion_define(
            campaign=self.campaign, fields=fields, **rankme
        )
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
        fields, rankme = s.CriterionSerializer.split(data.validated_data)
        criterion = criteria_services.criterion_define(
            campaign=self.campaign, criterion=criterion, fields=fields, **rankme
        )
        return Response(s.CriterionSerializer(criterion).data)

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Request, slug: str, pk: int) -> Response:
        criteria_services.criterion_delete(criterion=self._criterion(pk))
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
        responses={
            201: s.OutputsImportedSerializer(many=True),
            202: OpenApiResponse(description="A large upload, imported as a background job."),
            413: ErrorSerializer,
            **ERRORS,
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        """The web page's path: the size limit (413 naming the file), then small uploads
        imported now (201) and large ones as a background job (202, its id and page)."""
        data = s.UploadSerializer(data={"files": request.FILES.getlist("files")})
        data.is_valid(raise_exception=True)
        try:
            outcome = outputs_upload(
                campaign=self.campaign, files=data.validated_data["files"], user=request.user
            )
        except UploadTooLargeError as exc:
            body = error_body(detail=str(exc), code="too_large", file=exc.file)
            return Response(body, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
        if outcome.job is not None:
            page = reverse(
                "annotations:designer-import-job", kwargs={"slug": slug, "pk": outcome.job.pk}
            )
            return Response(
                {"job": outcome.job.pk, "status": outcome.job.status, "url": page},
                status=status.HTTP_202_ACCEPTED,
            )
        rows = [{**_plain(r), "file": str(r.file).rsplit("/", 1)[-1]} for r in outcome.results]
        return Response(
            s.OutputsImportedSerializer(rows, many=True).data, status=status.HTTP_201_CREATED
        )


# Workers and judgements ----------------------------------------------------------------------


class WorkerListApi(CampaignScoped, generics.ListAPIView):
    """Workers with their quality figures. Filters: ``flagged``, ``excluded``, ``platform``."""

    pagination_class = Pagination
    serializer_class = s.WorkerQualitySerializer

    def get_queryset(self) -> QuerySet[Worker]:
        query = validated_query(s.WorkerQuerySerializer, self.request)
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
    """Flag, exclude or mark as expert a worker (``PATCH {"flagged": true}`` /
    ``{"excluded": true}`` / ``{"expert": true}``)."""

    @extend_schema(responses={200: s.WorkerSerializer, **ERRORS})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        return Response(s.WorkerSerializer(self._worker(pk)).data)

    @extend_schema(request=s.WorkerSerializer, responses={200: s.WorkerSerializer, **ERRORS})
    def patch(self, request: Request, slug: str, pk: int) -> Response:
        worker = self._worker(pk)
        data = s.WorkerSerializer(worker, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        worker = worker_services.worker_mark(
            worker=worker,
            flagged=data.validated_data.get("flagged"),
            excluded=data.validated_data.get("excluded"),
            expert=data.validated_data.get("expert"),
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
        query = validated_query(s.JudgementQuerySerializer, self.request)
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
        parameters=[
            s.ExportQuerySerializer,
            OpenApiParameter(
                "where",
                str,
                many=True,
                description="Only items whose attribute has this value: ATTR=VALUE (repeatable).",
            ),
        ],
        responses={
            (200, "text/csv"): OpenApiTypes.STR,
            (200, "application/x-ndjson"): OpenApiTypes.STR,
        },
    )
    def get(self, request: Request, slug: str) -> Any:
        query = validated_query(s.ExportQuerySerializer, request)
        name = query["criterion"]
        criterion = self.campaign.criteria.filter(name=name).first()
        if criterion is None:
            raise DomainError(
                f"criterion: campaign '{self.campaign.slug}' has no criterion '{name}'."
            )
        fmt = query["fmt"]
        try:
            where = parse_where(request.query_params.getlist("where"))
        except SliceError as exc:
            raise DomainError(f"where: {exc}") from None
        lines = exports.export_lines(
            criterion=criterion, fmt=fmt, include_excluded=query["include_excluded"], where=where
        )
        return streamed_file_response(
            lines,
            content_type=exports.FORMATS[fmt][0],
            filename=exports.export_filename(criterion=criterion, fmt=fmt),
        )
