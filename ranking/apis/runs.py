"""REST API of ranking runs: create, follow the status and progress, cancel, retry, delete,
read the result, export it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations.access.apis import CampaignScoped, campaign_require, campaigns_visible_to
from annotations.core.slices import MAX_CONDITIONS, too_many_conditions
from annotations.models import CampaignMembership
from annotations.selectors.judgements import item_attributes
from common.api import ERRORS, DomainErrorsMixin, Pagination, validated_query
from common.errors import DomainError
from ranking import stats
from ranking.exports import runs as exports
from ranking.models import RankingRun
from ranking.selectors import runs as selectors
from ranking.services.runs import (
    ranking_run_cancel,
    ranking_run_create,
    ranking_run_delete,
    ranking_run_retry,
)

_EXCLUDED_HELP = (
    "Leave out the judgements of workers marked excluded (on the monitor, or by the quality "
    "checks). Flagged workers are NOT left out: flagging only marks a worker for review. "
    "Default true."
)


def _as_bool(value: Any) -> bool | None:
    """A boolean as DRF reads one, or None when it is not one (the field says so)."""
    try:
        return serializers.BooleanField().to_internal_value(value)
    except serializers.ValidationError:
        return None


@extend_schema_field(
    {
        "type": "boolean",
        "deprecated": True,
        "description": "Deprecated alias of exclude_excluded_workers, kept for old clients: "
        "despite its name it leaves out EXCLUDED workers, not flagged ones. Give one of the "
        "two; giving both with different values is a 400.",
    }
)
class _DeprecatedExcludeFlagged(serializers.BooleanField):
    pass


class RankingRunSerializer(serializers.ModelSerializer):
    campaign = serializers.CharField(source="campaign.slug", read_only=True)
    # The model's column is ``exclude_flagged``; what it does is leave out excluded workers.
    exclude_excluded_workers = serializers.BooleanField(
        source="exclude_flagged", required=False, help_text=_EXCLUDED_HELP
    )
    exclude_flagged = _DeprecatedExcludeFlagged(required=False)
    criterion = serializers.CharField(source="criterion.name")
    runs = serializers.IntegerField(
        min_value=1,
        max_value=settings.RANKING_MAX_RUNS,
        default=200,
        help_text=f"Runs or bootstrap replicates, 1 to {settings.RANKING_MAX_RUNS:,}.",
    )
    where = serializers.DictField(
        child=serializers.CharField(max_length=200, allow_blank=False),
        required=False,
        help_text="Rank a slice: item attribute (or 'language') -> value, e.g. "
        '{"challenge_set": "scramble"}; every condition must hold (at most '
        f"{MAX_CONDITIONS}). Empty: every item.",
    )
    result_url = serializers.SerializerMethodField()

    class Meta:
        model = RankingRun
        fields = [
            "id",
            "campaign",
            "criterion",
            "method",
            "runs",
            "seed",
            "confidence",
            "exclude_excluded_workers",
            "exclude_flagged",
            "parameters",
            "where",
            "status",
            "progress",
            "runs_done",
            "heartbeat_at",
            "attempts",
            "error",
            "stability",
            "n_judgements",
            "n_comparisons",
            "fingerprint",
            "inputs",
            "created_at",
            "started_at",
            "finished_at",
            "seconds",
            "result_url",
        ]
        read_only_fields = [
            f
            for f in fields
            if f
            not in (
                "criterion",
                "method",
                "runs",
                "seed",
                "confidence",
                "exclude_excluded_workers",
                "exclude_flagged",
                "parameters",
                "where",
            )
        ]

    def to_internal_value(self, data: Any) -> Any:
        # ``exclude_flagged`` is the deprecated name of ``exclude_excluded_workers``: both
        # write one column, so only one of them is validated.
        if isinstance(data, Mapping) and "exclude_flagged" in data:
            data = dict(data.items())
            alias = data.pop("exclude_flagged")
            if "exclude_excluded_workers" not in data:
                data["exclude_excluded_workers"] = alias
            elif _as_bool(alias) != _as_bool(data["exclude_excluded_workers"]):
                raise serializers.ValidationError(
                    {
                        "exclude_flagged": [
                            "exclude_flagged is a deprecated alias of exclude_excluded_workers "
                            "and says the opposite here: give only exclude_excluded_workers."
                        ]
                    }
                )
        # Count the conditions before DictField validates each (a 400 naming the limit).
        where = data.get("where") if isinstance(data, Mapping) else None
        if isinstance(where, Mapping) and len(where) > MAX_CONDITIONS:
            raise serializers.ValidationError({"where": [str(too_many_conditions())]})
        return super().to_internal_value(data)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # The one check of a ranking request (ranking.stats.check_parameters), for the
        # fields given; the service checks the whole request again.
        method = attrs.get("method", RankingRun.Method.WMT14)
        try:
            stats.check_parameters(
                method,
                attrs.get("parameters") or {},
                runs=attrs.get("runs"),
                confidence=attrs.get("confidence"),
                seed=attrs.get("seed"),
            )
        except stats.ParameterError as exc:
            raise serializers.ValidationError({exc.field: [str(exc)]}) from exc
        return attrs

    def get_result_url(self, run: RankingRun) -> str:
        return f"/api/rankings/{run.pk}/result/"


class RankingRowSerializer(serializers.Serializer):
    system = serializers.CharField()
    value = serializers.FloatField()
    spread = serializers.FloatField()
    rank_lo = serializers.IntegerField()
    rank_hi = serializers.IntegerField()
    cluster = serializers.IntegerField(
        allow_null=True,
        help_text="Significance cluster (1 = best); null when the minimum-data rule is not "
        "met (see data_rule).",
    )
    comparisons = serializers.IntegerField()


class DataRuleSerializer(serializers.Serializer):
    min_comparisons = serializers.IntegerField()
    met = serializers.BooleanField(help_text="Whether clusters and stability can be trusted.")
    problems = serializers.ListField(child=serializers.CharField())
    no_clusters = serializers.CharField(
        help_text="Which part of the rule failed (too few comparisons, or the split-half "
        "check) and what to do; empty when it is met."
    )


class CoverageSerializer(serializers.Serializer):
    runs_kept = serializers.IntegerField()
    runs = serializers.IntegerField()
    coverage = serializers.FloatField()
    confidence_asked = serializers.FloatField()
    text = serializers.CharField()


class ProvisionalSerializer(serializers.Serializer):
    system = serializers.CharField()
    comparisons = serializers.IntegerField()


class RankingResultSerializer(serializers.Serializer):
    run = RankingRunSerializer()
    rows = RankingRowSerializer(many=True)
    unranked = serializers.ListField(
        child=serializers.CharField(), help_text="Systems without any comparison."
    )
    provisional = ProvisionalSerializer(
        many=True,
        help_text="Systems with fewer than data_rule.min_comparisons comparisons: left out "
        "of the ranking (the rows are computed without them), listed with their count.",
    )
    data_rule = DataRuleSerializer()
    coverage = CoverageSerializer(
        help_text="The share of the runs the rank ranges actually keep (the trim at each "
        "end rounds up, so 100 runs at 0.95 keep 94%), beside the level asked."
    )


class CampaignRankingRunsApi(CampaignScoped, generics.ListAPIView):
    """A campaign's ranking runs (newest first); POST starts one (a Celery job)."""

    serializer_class = RankingRunSerializer
    pagination_class = Pagination

    def get_queryset(self) -> QuerySet[RankingRun]:
        qs = RankingRun.objects.filter(campaign=self.campaign).select_related(
            "campaign", "criterion"
        )
        params = self.request.query_params
        if params.get("criterion"):
            qs = qs.filter(criterion__name=params["criterion"])
        if params.get("status"):
            qs = qs.filter(status=params["status"])
        return qs.order_by("-created_at", "-id")

    @extend_schema(
        parameters=[
            OpenApiParameter("criterion", str),
            OpenApiParameter("status", str, enum=RankingRun.Status.values),
        ]
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(request=RankingRunSerializer, responses={201: RankingRunSerializer, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        data = RankingRunSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        name = fields.pop("criterion")["name"]
        criterion = self.campaign.criteria.filter(name=name).first()
        if criterion is None:
            raise DomainError(
                f"criterion: campaign '{self.campaign.slug}' has no criterion '{name}'."
            )

        run = ranking_run_create(
            campaign=self.campaign, criterion=criterion, user=request.user, **fields
        )
        run.refresh_from_db()
        return Response(RankingRunSerializer(run).data, status=status.HTTP_201_CREATED)


class RankingRunScoped(DomainErrorsMixin):
    def _run(self, request: Request, pk: int) -> RankingRun:
        run = (
            RankingRun.objects.select_related("campaign", "criterion")
            .filter(pk=pk, campaign__in=campaigns_visible_to(request.user))
            .first()
        )
        if run is None:
            raise Http404("No such ranking run among your campaigns.")
        campaign_require(
            request,
            run.campaign,
            CampaignMembership.Role.VIEWER,
            denied="You cannot see this run.",
        )
        return run

    def _designer_run(self, request: Request, pk: int) -> RankingRun:
        run = self._run(request, pk)
        campaign_require(
            request,
            run.campaign,
            CampaignMembership.Role.DESIGNER,
            denied="Changing a ranking run needs the designer role.",
        )
        return run


class RankingRunApi(RankingRunScoped, APIView):
    """A run's status and progress (``runs_done`` of ``runs``; ``progress`` 0..1); DELETE
    removes a run that has ended (done, failed or cancelled)."""

    @extend_schema(responses={200: RankingRunSerializer, **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        return Response(RankingRunSerializer(self._run(request, pk)).data)

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Request, pk: int) -> Response:
        ranking_run_delete(run=self._designer_run(request, pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class RankingRunCancelApi(RankingRunScoped, APIView):
    """Cancel a queued or running run; the computation stops at its next progress report."""

    @extend_schema(request=None, responses={200: RankingRunSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        run = ranking_run_cancel(run=self._designer_run(request, pk))
        return Response(RankingRunSerializer(run).data)


class RankingRunRetryApi(RankingRunScoped, APIView):
    """Queue a failed or cancelled run again with the same settings and seed."""

    @extend_schema(request=None, responses={200: RankingRunSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        run = ranking_run_retry(run=self._designer_run(request, pk), user=request.user)
        run.refresh_from_db()
        return Response(RankingRunSerializer(run).data)


class RankingResultApi(RankingRunScoped, APIView):
    """A finished run's rows in ranking order; 400 while it is not done."""

    @extend_schema(responses={200: RankingResultSerializer, **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        run = self._run(request, pk)
        if run.status != RankingRun.Status.DONE:
            raise DomainError(f"Ranking run {run.pk} is {run.status}; its result is not ready.")
        meta = selectors.ranking_run_meta(run=run)
        rows = selectors.ranking_run_rows_claimed(run=run, met=meta["data_rule"]["met"])
        return Response(
            RankingResultSerializer(
                {
                    "run": run,
                    "rows": rows,
                    "unranked": meta["unranked"],
                    "provisional": meta["provisional"],
                    "data_rule": meta["data_rule"],
                    "coverage": meta["coverage"],
                }
            ).data
        )


class RankingExportApi(RankingRunScoped, APIView):
    """A finished run's cluster ranking as ``table``, ``json``, ``csv``, ``latex`` or
    ``markdown`` text."""

    @extend_schema(
        parameters=[
            OpenApiParameter("fmt", str, OpenApiParameter.PATH, enum=list(exports.FORMATS))
        ],
        responses={
            **{
                (200, content_type.split(";")[0]): (
                    OpenApiTypes.ANY if content_type == "application/json" else OpenApiTypes.STR
                )
                for content_type, _ in exports.EXPORT_TYPES.values()
            },
            **ERRORS,
        },
    )
    def get(self, request: Request, pk: int, fmt: str) -> HttpResponse:
        run = self._run(request, pk)
        text = exports.run_export(run=run, fmt=fmt)
        return HttpResponse(text, content_type=exports.EXPORT_TYPES[fmt][0])


class SlicesQuery(serializers.Serializer):
    criterion = serializers.CharField()
    by = serializers.CharField(max_length=40)


class CampaignRankingSlicesApi(CampaignScoped, APIView):
    """``GET /api/campaigns/<slug>/rankings/slices/?criterion=&by=``: the latest finished
    run on all items and on each value of ``by`` (an item attribute or ``language``),
    side by side: per system its value and rank range in each. Start the runs with
    ``POST .../rankings/`` and ``where``."""

    @extend_schema(parameters=[SlicesQuery], responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        query = validated_query(SlicesQuery, request)
        criterion = self.campaign.criteria.filter(name=query["criterion"]).first()
        if criterion is None:
            raise DomainError(
                f"criterion: campaign '{self.campaign.slug}' has no criterion "
                f"'{query['criterion']}'."
            )
        attributes = item_attributes(campaign=self.campaign)
        if query["by"] not in attributes:
            raise DomainError(
                f"by: no item of '{self.campaign.slug}' has the attribute '{query['by']}' "
                f"(its attributes: {', '.join(attributes) or 'none'})."
            )
        values = attributes[query["by"]]
        runs = selectors.ranking_runs_by_slice(
            criterion=criterion, attribute=query["by"], values=values
        )
        table = selectors.ranking_side_by_side(runs=runs)
        ranked = {tuple(sorted(run.where.items())) for run in runs}
        return Response(
            {
                "criterion": criterion.name,
                "by": query["by"],
                "slices": [
                    {
                        "where": c.run.where,
                        "slice": c.heading,
                        "ranking_run": c.run.pk,
                        "judgements": c.run.n_judgements,
                        "method": c.run.method,
                    }
                    for c in table.columns
                ],
                "not_ranked": [value for value in values if ((query["by"], value),) not in ranked],
                "systems": [
                    {
                        "system": system,
                        "by_slice": [
                            None
                            if r is None
                            else {
                                "value": r.value,
                                "rank_lo": r.rank_lo,
                                "rank_hi": r.rank_hi,
                                "cluster": r.cluster,
                            }
                            for r in rows
                        ],
                    }
                    for system, rows in table.cells()
                ],
            }
        )
