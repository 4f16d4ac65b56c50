"""REST API of ranking runs: create, follow the status and progress, cancel, retry, delete,
read the result, export it."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations.access.apis import CampaignScoped, campaign_require
from annotations.models import CampaignMembership
from annotations.selectors.criteria import criterion_by_name, criterion_missing
from common.api import ERRORS, DomainErrorsMixin, Pagination
from common.errors import DomainError
from ranking.exports import runs as exports
from ranking.models import RankingRun
from ranking.selectors import runs as selectors
from ranking.selectors.content_checks import content_check_summary
from ranking.selectors.data_rule import ranking_data_rules
from ranking.selectors.sweep import ranking_runs_as_swept
from ranking.serializers.runs import RankingResultSerializer, RankingRunSerializer
from ranking.services.runs import (
    ranking_run_cancel,
    ranking_run_delete,
    ranking_run_retry,
    ranking_run_start,
)


class CampaignRankingRunsApi(CampaignScoped, generics.ListAPIView):
    """A campaign's ranking runs (newest first); POST starts one (a Celery job)."""

    serializer_class = RankingRunSerializer
    pagination_class = Pagination

    def get_queryset(self) -> QuerySet[RankingRun]:
        params = self.request.query_params
        return selectors.ranking_runs_listed(
            campaign=self.campaign,
            criterion=params.get("criterion", ""),
            status=params.get("status", ""),
        )

    def paginate_queryset(self, queryset: Any) -> Any:
        # each run as the sweep will leave it (a lost run as failed), as the pages show it
        page = super().paginate_queryset(queryset)
        if page is None:
            return None
        runs = list(ranking_runs_as_swept(runs=list(page)))
        # The minimum-data rule of the page's finished runs, read at once (the serializer
        # withholds a stability verdict where the rule is not met).
        done = [run for run in runs if run.status == RankingRun.Status.DONE]
        self._data_rules = ranking_data_rules(runs=done)
        return runs

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "data_rules": getattr(self, "_data_rules", {})}

    @extend_schema(
        parameters=[
            OpenApiParameter("criterion", str),
            OpenApiParameter("status", str, enum=RankingRun.Status.values),
        ]
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        request=RankingRunSerializer,
        responses={
            201: RankingRunSerializer,
            200: OpenApiResponse(
                RankingRunSerializer,
                description="Your run of the same request, still pending or running (a "
                "retried POST): no second run was started",
            ),
            **ERRORS,
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        data = RankingRunSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        name = fields.pop("criterion")["name"]
        criterion = criterion_by_name(self.campaign, name)
        if criterion is None:
            raise criterion_missing(self.campaign, name)

        started = ranking_run_start(
            campaign=self.campaign, criterion=criterion, user=request.user, **fields
        )
        run = started.run
        run.refresh_from_db()
        return Response(
            RankingRunSerializer(run).data,
            status=status.HTTP_201_CREATED if started.created else status.HTTP_200_OK,
        )


class RankingRunScoped(DomainErrorsMixin):
    def _run(self, request: Request, pk: int) -> RankingRun:
        run = selectors.ranking_runs_visible_to(user=request.user).filter(pk=pk).first()
        if run is None:
            raise Http404("No such ranking run among your campaigns.")
        (run,) = ranking_runs_as_swept(runs=[run])  # as the pages show it
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
                    "content_checks": content_check_summary(run=run),
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
