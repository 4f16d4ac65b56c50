"""REST API: crowd workers against experts."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations.access.apis import CampaignScoped
from annotations.selectors.criteria import criterion_get
from annotations.selectors.experts import expert_report
from annotations.serializers.experts import ExpertExcludeSerializer, ExpertReportSerializer
from annotations.serializers.workers import WorkerSerializer
from annotations.services import workers as worker_services
from common.api import (
    ERRORS,
)


class CampaignExpertsApi(CampaignScoped, APIView):
    """Crowd versus experts on one criterion (``?criterion=``): each crowd worker's
    Krippendorff's alpha with the experts' consensus (their mean score per output; the
    worker and the consensus are the two coders) and the crowd-versus-experts ranking
    correlations, with 95% bootstrap intervals. POST excludes the crowd workers whose
    alpha is below ``threshold`` (among those sharing ``min_units`` outputs)."""

    @extend_schema(
        parameters=[OpenApiParameter("criterion", str, required=True)],
        responses={200: ExpertReportSerializer, **ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        criterion = criterion_get(self.campaign, request.query_params.get("criterion", ""))
        return Response(ExpertReportSerializer(expert_report(criterion=criterion)).data)

    @extend_schema(
        request=ExpertExcludeSerializer, responses={200: WorkerSerializer(many=True), **ERRORS}
    )
    def post(self, request: Request, slug: str) -> Response:
        data = ExpertExcludeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        newly = worker_services.workers_exclude_by_expert_agreement(
            criterion=criterion_get(self.campaign, data.validated_data["criterion"]),
            threshold=data.validated_data["threshold"],
            min_units=data.validated_data["min_units"],
        )
        return Response(WorkerSerializer(newly, many=True).data)
