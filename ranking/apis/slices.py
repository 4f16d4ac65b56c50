"""REST API of rankings of slices: a criterion's runs on each value of an item attribute,
side by side."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations.access.apis import CampaignScoped
from annotations.selectors.criteria import criterion_by_name, criterion_missing
from common.api import ERRORS, validated_query
from ranking.selectors import slices
from ranking.serializers.slices import SlicesQuery, SlicesSerializer


class CampaignRankingSlicesApi(CampaignScoped, APIView):
    """``GET /api/campaigns/<slug>/rankings/slices/?criterion=&by=``: the latest finished
    run on all items and on each value of ``by`` (an item attribute or ``language``),
    side by side: per system its value and rank range in each. Start the runs with
    ``POST .../rankings/`` and ``where``."""

    @extend_schema(parameters=[SlicesQuery], responses={200: SlicesSerializer, **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        query = validated_query(SlicesQuery, request)
        criterion = criterion_by_name(self.campaign, query["criterion"])
        if criterion is None:
            raise criterion_missing(self.campaign, query["criterion"])
        values = slices.ranking_slice_values(campaign=self.campaign, by=query["by"])
        runs = slices.ranking_runs_by_slice(
            criterion=criterion, attribute=query["by"], values=values
        )
        table = slices.ranking_side_by_side(runs=runs)
        ranked = {tuple(sorted(run.where.items())) for run in runs}
        return Response(
            SlicesSerializer(
                {
                    "criterion": criterion.name,
                    "by": query["by"],
                    "slices": table.columns,
                    "not_ranked": [v for v in values if ((query["by"], v),) not in ranked],
                    "systems": [
                        {"system": system, "by_slice": rows} for system, rows in table.cells()
                    ],
                }
            ).data
        )
