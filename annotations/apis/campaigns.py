"""REST API of campaigns: list, create, read, change, clone, lifecycle, build and progress (thin: validate, call a service or selector).

Access: a campaign outside the user's is a 404; reading needs the viewer role, changing
the designer role (403 otherwise). Every error has one JSON shape, ``{"detail", "code",
"fields"?}`` (import errors add ``file``, ``line`` and ``field``), made by
:func:`common.api.exception_handler`; bad query parameters (``?page=0``) are 400s like bad bodies.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import (
    NotAuthenticated,
)
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations.access.apis import CampaignScoped
from annotations.importing import jobs as import_jobs
from annotations.models import Campaign, CampaignMembership, ImportJob
from annotations.selectors import agreement as agreement_selectors
from annotations.selectors import campaigns as campaign_selectors
from annotations.selectors import monitor as monitor_selectors
from annotations.serializers.campaigns import (
    BuildSerializer,
    CampaignCreateSerializer,
    CampaignQuerySerializer,
    CampaignSerializer,
    CampaignUpdateSerializer,
    CloneSerializer,
    ProgressSerializer,
)
from annotations.services import campaigns as campaign_services
from common.api import (
    ERRORS,
    DomainErrorsMixin,
    Pagination,
    plain,
    validated_query,
)

Role = CampaignMembership.Role


# Campaigns ----------------------------------------------------------------------------------


class CampaignListApi(DomainErrorsMixin, generics.ListAPIView):
    """Campaigns you own or are a member of. Filter: ``?status=draft|live|paused|closed``."""

    pagination_class = Pagination
    serializer_class = CampaignSerializer

    def get_queryset(self) -> QuerySet[Campaign]:
        query = validated_query(CampaignQuerySerializer, self.request)
        return campaign_selectors.campaigns_listed(
            user=self.request.user, status=query.get("status") or ""
        )

    @extend_schema(parameters=[CampaignQuerySerializer])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(request=CampaignCreateSerializer, responses={201: CampaignSerializer, **ERRORS})
    def post(self, request: Request) -> Response:
        data = CampaignCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request.user
        if not user.is_authenticated:  # refused before by IsAuthenticated, the default
            raise NotAuthenticated()
        campaign = campaign_services.campaign_start(user=user, **data.validated_data)
        return Response(CampaignSerializer(campaign).data, status=status.HTTP_201_CREATED)


class CampaignDetailApi(CampaignScoped, APIView):
    @extend_schema(responses={200: CampaignSerializer, **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        return Response(CampaignSerializer(self.campaign).data)

    @extend_schema(request=CampaignUpdateSerializer, responses={200: CampaignSerializer, **ERRORS})
    def patch(self, request: Request, slug: str) -> Response:
        data = CampaignUpdateSerializer(self.campaign, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        campaign = campaign_services.campaign_settings_update(
            campaign=campaign_selectors.campaign_reread(campaign=self.campaign),
            **data.validated_data,
        )
        return Response(CampaignSerializer(campaign).data)

    @extend_schema(
        responses={204: None, **ERRORS},
        description="Owners only. Deletes a draft, closed or archived campaign with "
        "everything it holds (judgements, workers, tasks, outputs, ranking runs); a live or "
        "paused one is refused (close it first). Archive it instead to keep it read-only.",
    )
    def delete(self, request: Request, slug: str) -> Response:
        self.require(Role.OWNER, denied="Only owners delete.")
        campaign_services.campaign_delete(campaign=self.campaign)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CampaignCloneApi(CampaignScoped, APIView):
    """A second round: a new draft with this campaign's settings, criteria and outputs
    (no workers, tasks or judgements); the caller owns it."""

    @extend_schema(request=CloneSerializer, responses={201: CampaignSerializer, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        data = CloneSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request.user
        if not user.is_authenticated:  # refused before by request_campaign
            raise NotAuthenticated()
        clone = campaign_services.campaign_clone(
            campaign=self.campaign, user=user, **data.validated_data
        )
        return Response(CampaignSerializer(clone).data, status=status.HTTP_201_CREATED)


class CampaignActionApi(CampaignScoped, APIView):
    """Launch, pause, close, archive or unarchive a campaign (the pages' services)."""

    action = ""

    @extend_schema(request=None, responses={200: CampaignSerializer, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        service = {
            "launch": campaign_services.campaign_launch,
            "pause": campaign_services.campaign_pause,
            "close": campaign_services.campaign_close,
            "archive": campaign_services.campaign_archive,
            "unarchive": campaign_services.campaign_unarchive,
        }[self.action]
        return Response(CampaignSerializer(service(campaign=self.campaign)).data)


class CampaignBuildApi(CampaignScoped, APIView):
    """Build the task design (drafts only); returns the design report."""

    @extend_schema(
        request=BuildSerializer,
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
        data = BuildSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        report = import_jobs.campaign_tasks_build_or_queue(
            campaign=self.campaign, user=request.user, seed=data.validated_data.get("seed")
        )
        if isinstance(report, ImportJob):
            page = reverse(
                "annotations:designer-import-job", kwargs={"slug": slug, "pk": report.pk}
            )
            return Response(
                {"job": report.pk, "status": report.status, "url": page},
                status=status.HTTP_202_ACCEPTED,
            )
        return Response(plain(report))


class CampaignProgressApi(CampaignScoped, APIView):
    """Judgements collected against planned per criterion, agreement and comparison counts."""

    @extend_schema(responses={200: ProgressSerializer, **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        data = {
            "status": self.campaign.status,
            "criteria": monitor_selectors.campaign_progress(campaign=self.campaign),
            "agreement": agreement_selectors.campaign_agreement(campaign=self.campaign),
            "comparisons": monitor_selectors.comparison_counts(campaign=self.campaign),
        }
        return Response(ProgressSerializer(data).data)
