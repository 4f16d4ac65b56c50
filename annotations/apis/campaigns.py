"""REST API of campaigns: list, create, read, change, delete, clone and progress (thin:
validate, call a service or selector; the lifecycle and the build are
``annotations/apis/lifecycle.py``).

Access: a campaign outside the user's is a 404; reading needs the viewer role, changing
the designer role (403 otherwise). Every error has one JSON shape, ``{"detail", "code",
"fields"?}`` (import errors add ``file``, ``line`` and ``field``), made by
:func:`common.api.exception_handler`; bad query parameters (``?page=0``) are 400s like bad bodies.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import (
    NotAuthenticated,
)
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations.access.apis import CampaignScoped
from annotations.models import Campaign, CampaignMembership
from annotations.selectors import agreement as agreement_selectors
from annotations.selectors import campaigns as campaign_selectors
from annotations.selectors import monitor as monitor_selectors
from annotations.serializers.campaigns import (
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
