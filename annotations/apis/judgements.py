"""REST API of judgements (list) and their export."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations.access.apis import CampaignScoped
from annotations.core.slices import SliceError, parse_where
from annotations.exports import judgements as exports
from annotations.models import Judgement
from annotations.selectors import judgements as judgement_selectors
from annotations.selectors.criteria import criterion_get
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
        return judgement_selectors.judgements_listed(
            campaign=self.campaign,
            criterion_name=query.get("criterion") or "",
            worker_external_id=query.get("worker") or "",
            submitted_after=query.get("submitted_after"),
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
        criterion = criterion_get(self.campaign, name)
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
