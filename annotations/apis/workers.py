"""REST API of a campaign's workers (list, exclude, free a taken id)."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import (
    Http404,
)
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations.access.apis import CampaignScoped
from annotations.models import (
    Campaign,
    Worker,
)
from annotations.selectors import monitor as monitor_selectors
from annotations.selectors import workers as worker_selectors
from annotations.serializers.workers import (
    WorkerQualitySerializer,
    WorkerQuerySerializer,
    WorkerReleaseSerializer,
    WorkerSerializer,
)
from annotations.services import workers as worker_services
from common.api import (
    ERRORS,
    Pagination,
    validated_query,
)


class WorkerListApi(CampaignScoped, generics.ListAPIView):
    """Workers with their quality figures. Filters: ``flagged``, ``excluded``, ``platform``."""

    pagination_class = Pagination
    serializer_class = WorkerQualitySerializer

    def get_queryset(self) -> QuerySet[Worker]:
        query = validated_query(WorkerQuerySerializer, self.request)
        return worker_selectors.workers_listed(
            campaign=self.campaign,
            flagged=query.get("flagged"),
            excluded=query.get("excluded"),
            platform=query.get("platform") or "",
        )

    @extend_schema(parameters=[WorkerQuerySerializer])
    def get(self, request: Request, slug: str) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        rows = monitor_selectors.worker_rows(campaign=self.campaign, workers=page or [])
        return self.get_paginated_response(WorkerQualitySerializer(rows, many=True).data)


class WorkerDetailApi(CampaignScoped, APIView):
    """Flag, exclude or mark as expert a worker (``PATCH {"flagged": true}`` /
    ``{"excluded": true, "reason": "..."}`` / ``{"expert": true}``); an exclusion without
    a reason is refused, a 400 naming ``reason``."""

    @extend_schema(responses={200: WorkerSerializer, **ERRORS})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        return Response(WorkerSerializer(self._worker(pk)).data)

    @extend_schema(request=WorkerSerializer, responses={200: WorkerSerializer, **ERRORS})
    def patch(self, request: Request, slug: str, pk: int) -> Response:
        worker = self._worker(pk)
        data = WorkerSerializer(worker, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        worker = worker_services.worker_mark(
            worker=worker,
            flagged=data.validated_data.get("flagged"),
            excluded=data.validated_data.get("excluded"),
            reason=data.validated_data.get("reason"),
            expert=data.validated_data.get("expert"),
        )
        return Response(WorkerSerializer(worker).data)

    def _worker(self, pk: int) -> Worker:
        return _campaign_worker(self.campaign, pk)


class WorkerReleaseApi(CampaignScoped, APIView):
    """Free the platform id this worker holds for the person it belongs to (``POST
    {"reason": "..."}``): the record is excluded (the reason is required unless it is
    excluded already), stopped, its active assignments end, and its id is renamed
    ``<id>~released-<pk>``. With ``"owner_session"`` (the owner's Prolific submission id or
    MTurk assignment id) the id is kept for that platform session; without it the next
    arrival with the id takes it. A second call changes nothing."""

    @extend_schema(request=WorkerReleaseSerializer, responses={200: WorkerSerializer, **ERRORS})
    def post(self, request: Request, slug: str, pk: int) -> Response:
        data = WorkerReleaseSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        worker = worker_services.worker_release_identity(
            worker=_campaign_worker(self.campaign, pk),
            reason=data.validated_data["reason"],
            owner_session=data.validated_data["owner_session"],
        )
        return Response(WorkerSerializer(worker).data)


def _campaign_worker(campaign: Campaign, pk: int) -> Worker:
    worker = worker_selectors.worker_by_id(campaign, pk)
    if worker is None:
        raise Http404("No such worker in this campaign.")
    return worker
