"""REST API of power analysis: ``GET /api/campaigns/<slug>/power/``.

With ``share`` (and optionally ``draws``): before launch, the judgements, tasks, hours
and cost a balanced design needs to separate two systems when the better wins that
share of their comparisons. With ``criterion``: after launch, from its judgements so
far, what each pair of neighbours (or every pair: ``pairs=all``) still needs. Numbers
that are infinite (two systems level so far: no number of judgements separates them)
are ``null`` with ``level: true``.
"""

from __future__ import annotations

import math

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from annotations.access.apis import CampaignScoped
from annotations.selectors.criteria import criterion_by_name
from common.api import ERRORS, validated_query
from common.errors import DomainError
from ranking.selectors import power as power_selectors
from ranking.serializers.power import PowerQuery


def _finite(value: float) -> float | None:
    return None if math.isinf(value) else round(value, 4)


class PowerApi(CampaignScoped):
    @extend_schema(parameters=[PowerQuery], responses={200: OpenApiTypes.OBJECT, **ERRORS})
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
            return Response(
                {
                    "kind": "plan",
                    "share": plan.share,
                    "draws": plan.draws,
                    "confidence": plan.confidence,
                    "power": plan.power,
                    "systems": plan.systems,
                    "outputs_per_task": plan.outputs_per_task,
                    "judgements_per_task": plan.judgements_per_task,
                    "level": math.isinf(plan.judgements),
                    "comparisons_per_pair": _finite(plan.comparisons_per_pair),
                    "judgements": _finite(plan.judgements),
                    "tasks": _finite(plan.tasks),
                    "hours": _finite(plan.hours),
                    "cost": _finite(plan.cost),
                    "seconds_per_task": plan.seconds_per_task,
                    "pay_per_hour": plan.pay_per_hour,
                    # how far off the figure was on one simulated E2E-like campaign
                    # (systems, lowest, highest ratio): quoted, not applied
                    "simulated_ratios": [
                        {"systems": n, "low": lo, "high": hi} for n, lo, hi in plan.measured
                    ],
                }
            )
        criterion = criterion_by_name(self.campaign, query["criterion"])
        if criterion is None:
            raise DomainError(
                f"Campaign '{self.campaign.slug}' has no criterion '{query['criterion']}'."
            )
        report = power_selectors.criterion_power(
            criterion=criterion, pairs=query["pairs"], **common
        )
        if report is None:
            raise DomainError(f"Criterion '{criterion.name}' has too few judgements yet.")
        return Response(
            {
                "kind": "pilot",
                "criterion": report.criterion,
                "confidence": report.confidence,
                "power": report.power,
                "systems": report.systems,
                "outputs_per_task": report.outputs_per_task,
                "judgements": report.judgements,
                "seconds_per_task": report.seconds_per_task,
                "pay_per_hour": report.pay_per_hour,
                "pairs": [
                    {
                        "better": p.better,
                        "worse": p.worse,
                        "share": round(p.share, 4),
                        "draws": round(p.draws, 4),
                        "comparisons": p.have,
                        "resolved": p.resolved,
                        "level": p.level,
                        "comparisons_more": _finite(p.comparisons_more),
                        "judgements_more": _finite(p.judgements_more),
                        "hours": _finite(p.hours),
                        "cost": _finite(p.cost),
                    }
                    for p in report.pairs
                ],
            }
        )
