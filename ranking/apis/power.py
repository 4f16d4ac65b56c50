"""REST API of power analysis: ``GET /api/campaigns/<slug>/power/``.

With ``share`` (and optionally ``draws``): before launch, the judgements, tasks, hours
and cost a balanced design needs to separate two systems when the better wins that
share of their comparisons. With ``criterion``: after launch, from its judgements so
far, what each pair of neighbours (or every pair: ``pairs=all``) still needs. Numbers
that are infinite (two systems level so far: no number of judgements separates them)
are ``null`` with ``level: true``.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from annotations.access.apis import CampaignScoped
from annotations.selectors.criteria import criterion_get
from common.api import ERRORS, validated_query
from common.errors import DomainError
from ranking.selectors import power as power_selectors
from ranking.serializers.power import (
    POWER_ANSWER,
    PowerPilotSerializer,
    PowerPlanSerializer,
    PowerQuery,
)


class PowerApi(CampaignScoped):
    @extend_schema(parameters=[PowerQuery], responses={200: POWER_ANSWER, **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        query = validated_query(PowerQuery, request)
        common = {
            "confidence": query["confidence"],
            "power": query["power"],
            "pay_per_hour": query["pay_per_hour"],
            "seconds_per_task": query.get("seconds_per_task"),
        }
        if "share" in query:
            plan = power_selectors.campaign_power_plan(
                campaign=self.campaign, share=query["share"], draws=query["draws"], **common
            )
            return Response(PowerPlanSerializer(plan).data)
        criterion = criterion_get(self.campaign, query["criterion"])
        report = power_selectors.criterion_power(
            criterion=criterion, pairs=query["pairs"], **common
        )
        if report is None:
            raise DomainError(f"Criterion '{criterion.name}' has too few judgements yet.")
        return Response(PowerPilotSerializer(report).data)
