"""REST API of the MTG-style table: ``GET /api/campaigns/<slug>/means/`` (``criterion=``,
``confidence=``): each criterion's mean rating per system and language, and pooled, with
t intervals and the latest rank ranges (``null`` where a number is undefined)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from annotations.access.apis import CampaignScoped
from annotations.selectors.criteria import criterion_get
from common.api import ERRORS, validated_query
from ranking.exports import means as means_exports
from ranking.selectors import means as means_selectors
from ranking.serializers.means import MeansQuery


class MeansApi(CampaignScoped):
    @extend_schema(parameters=[MeansQuery], responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        query = validated_query(MeansQuery, request)
        name = query.get("criterion") or ""
        if name:
            criterion_get(self.campaign, name)  # refuses a name the campaign does not have
        table = means_selectors.campaign_means(
            campaign=self.campaign, confidence=query["confidence"], criterion=name
        )
        return Response(means_exports.means_json(table))
