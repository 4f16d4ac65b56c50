"""REST API of metric-human correlation: ``GET /api/campaigns/<slug>/metrics/?criterion=``
reports the correlations of every stored metric; ``POST`` (multipart ``file``) imports a
CSV or JSONL metric score file (re-importing a metric replaces it)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from annotations.access.apis import CampaignScoped
from annotations.selectors.criteria import criterion_get
from common.api import ERRORS, validated_query
from common.parsers import MultiPartParser
from reports.core.correlation_report import report_json
from reports.selectors.metrics import metric_correlations
from reports.serializers.metrics import (
    CorrelationQuery,
    MetricImportSerializer,
    MetricUploadSerializer,
)
from reports.services.metrics import metric_scores_import


class MetricCorrelationsApi(CampaignScoped):
    parser_classes = [MultiPartParser]

    @extend_schema(parameters=[CorrelationQuery], responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        query = validated_query(CorrelationQuery, request)
        criterion = criterion_get(self.campaign, query["criterion"])
        report = metric_correlations(
            campaign=self.campaign,
            criterion=criterion,
            seed=query["seed"],
            resamples=query["resamples"],
            confidence=query["confidence"],
            human=query["human"],
        )
        return Response(report_json(report))

    @extend_schema(
        request=MetricUploadSerializer, responses={201: MetricImportSerializer, **ERRORS}
    )
    def post(self, request: Request, slug: str) -> Response:
        serializer = MetricUploadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        upload: Any = serializer.validated_data["file"]
        done = metric_scores_import(
            campaign=self.campaign, data=upload.read(), file=upload.name or "upload"
        )
        return Response(MetricImportSerializer(done).data, status=status.HTTP_201_CREATED)
