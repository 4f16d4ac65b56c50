"""REST API of judgements (list) and their export."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations.access.apis import CampaignScoped
from annotations.core.slices import SliceError, parse_where
from annotations.exports import judgements as exports
from annotations.models import (
    Judgement,
    JudgementScore,
)
from annotations.selectors.criteria import criterion_by_name
from annotations.serializers.judgements import (
    ExportQuerySerializer,
    JudgementQuerySerializer,
    JudgementSerializer,
)
from common.api import (
    Pagination,
    validated_query,
)
from common.errors import DomainError
from common.http import streamed_file_response


class JudgementListApi(CampaignScoped, generics.ListAPIView):
    """Raw judgements, oldest first. Filters: ``criterion`` (name), ``worker`` (external id),
    ``submitted_after`` (ISO time)."""

    pagination_class = Pagination
    serializer_class = JudgementSerializer

    def get_queryset(self) -> QuerySet[Judgement]:
        query = validated_query(JudgementQuerySerializer, self.request)
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

    @extend_schema(parameters=[JudgementQuerySerializer])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class ExportApi(CampaignScoped, APIView):
    """Raw judgements of one criterion, streamed: ``fmt=csv`` (E2E-like), ``jsonl`` or
    ``wmt`` (WMT ranking CSV)."""

    @extend_schema(
        parameters=[
            ExportQuerySerializer,
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
        query = validated_query(ExportQuerySerializer, request)
        name = query["criterion"]
        criterion = criterion_by_name(self.campaign, name)
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
