"""REST API of the judgements export (the page is ``annotations/views/exports.py``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
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


class ExportFormatNegotiation(DefaultContentNegotiation):
    """DRF's negotiation, except that ``?format=`` never picks a renderer here: it names
    the file's format (csv, jsonl, wmt), as on the page, and any other value is refused
    by the view naming the parameter (DRF answered a bare 404 "Not found." for
    ``xml``, and a CSV for ``json`` or ``api``, since the file is streamed whatever the
    renderer)."""

    def filter_renderers(
        self, renderers: Iterable[BaseRenderer], format: str
    ) -> list[BaseRenderer]:
        return list(renderers)


class ExportApi(CampaignScoped, APIView):
    """Raw judgements of one criterion, streamed: ``fmt=csv`` (E2E-like), ``jsonl`` or
    ``wmt`` (WMT ranking CSV); the formats are ``annotations.exports.judgements.FORMATS``.

    The API's parameter is ``fmt=``: DRF reserves ``format`` as its URL format override
    (``URL_FORMAT_OVERRIDE``, the response's renderer). The page's ``format=csv`` (or
    ``jsonl``, ``wmt``) is taken here too, as ``fmt`` (:class:`ExportFormatNegotiation`):
    it was a bare 404 "Not found." before this view ran."""

    content_negotiation_class = ExportFormatNegotiation

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
        given = request.query_params.get("format")
        if "fmt" in request.query_params or given is None:
            fmt = query["fmt"]
        elif given in exports.FORMATS:
            fmt = given
        else:
            raise DomainError(
                f"The export has no format {given[:40]!r}: use one of "
                f"{', '.join(sorted(exports.FORMATS))}.",
                field="format",
            )
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
