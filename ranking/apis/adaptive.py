"""REST API of adaptive design: ``GET /api/campaigns/<slug>/adaptive/`` (each criterion's
open places, batches and the stop rule) and ``POST`` ``{"criterion": name, "after": n}``
(designers: a batch now; 201 with the batch, 400 naming why not, 409 when ``after`` is no
longer the latest batch's number)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from annotations.access.apis import CampaignScoped
from annotations.selectors.criteria import criterion_get
from common.api import CONFLICT, ERRORS
from ranking.selectors import adaptive as selectors
from ranking.serializers.adaptive import (
    AdaptiveBatchRequest,
    AdaptiveBatchSerializer,
    AdaptiveStatusSerializer,
)
from ranking.services import adaptive


class AdaptiveApi(CampaignScoped):
    @extend_schema(responses={200: AdaptiveStatusSerializer, **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        return Response(
            AdaptiveStatusSerializer(
                {
                    "adaptive_design": self.campaign.adaptive_design,
                    "batch_tasks": self.campaign.adaptive_batch_tasks,
                    "problem": adaptive.adaptive_problem(self.campaign) or None,
                    "stable_refits": adaptive.STABLE_REFITS,
                    "stable_span": adaptive.campaign_stable_span(campaign=self.campaign),
                    "criteria": selectors.adaptive_status(campaign=self.campaign),
                }
            ).data
        )

    @extend_schema(
        request=AdaptiveBatchRequest,
        responses={201: AdaptiveBatchSerializer, **ERRORS, 409: CONFLICT},
    )
    def post(self, request: Request, slug: str) -> Response:
        data = AdaptiveBatchRequest(data=request.data)
        data.is_valid(raise_exception=True)
        criterion = criterion_get(self.campaign, data.validated_data["criterion"])
        batch = adaptive.adaptive_batch_now(
            criterion=criterion, after=data.validated_data.get("after")
        )
        return Response(AdaptiveBatchSerializer(batch).data, status=status.HTTP_201_CREATED)
