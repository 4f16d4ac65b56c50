"""REST API of the judgements export (the page is ``annotations/views/exports.py``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.views import APIView

from annotations.access.apis import CampaignScoped
from annotations.core.slices import SliceError, parse_where
from annotations.exports import judgements as exports
from annotations.selectors.criteria import criterion_get
from annotations.serializers.exports import ExportQuerySerializer
from common.api import validated_query
from common.errors import DomainError
from common.http import streamed_file_response


class ExportApi(CampaignScoped, APIView):
    """Raw judgements of one criterion, streamed: ``fmt=csv`` (E2E-like), ``jsonl`` or
    ``wmt`` (WMT ranking CSV); the formats are ``annotations.exports.judgements.FORMATS``.

    The page (``annotations/views/exports.py``) takes ``format=``; the API takes ``fmt=``
    because DRF reserves ``format`` as its URL format override (``URL_FORMAT_OVERRIDE``):
    it picks the response's renderer, so ``?format=csv`` is a 404 (no renderer of that
    name) before this view runs."""

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
            raise DomainError(f"The slice cannot be read: {exc}", field="where") from None
        lines = exports.export_lines(
            criterion=criterion, fmt=fmt, include_excluded=query["include_excluded"], where=where
        )
        return streamed_file_response(
            lines,
            content_type=exports.FORMATS[fmt][0],
            filename=exports.export_filename(criterion=criterion, fmt=fmt),
        )
