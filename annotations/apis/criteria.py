"""REST API of a campaign's criteria."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations.access.apis import CampaignScoped
from annotations.access.campaigns import criterion_or_404
from annotations.models import (
    Criterion,
)
from annotations.serializers.criteria import CriterionCreateSerializer, CriterionSerializer
from annotations.services import criteria as criteria_services
from common.api import (
    ERRORS,
)


class CriterionListApi(CampaignScoped, generics.ListAPIView):
    serializer_class = CriterionSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[Criterion]:
        return self.campaign.criteria.all()

    @extend_schema(
        request=CriterionCreateSerializer, responses={201: CriterionSerializer, **ERRORS}
    )
    def post(self, request: Request, slug: str) -> Response:
        data = CriterionCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields, rankme = CriterionSerializer.split(data.validated_data)
        fields["preset"] = fields.pop("preset", "") or ""
        criterion = criteria_services.criterion_define(
            campaign=self.campaign, fields=fields, **rankme
        )
        return Response(CriterionSerializer(criterion).data, status=status.HTTP_201_CREATED)


class CriterionDetailApi(CampaignScoped, APIView):
    def _criterion(self, pk: int) -> Criterion:
        return criterion_or_404(self.campaign, pk)

    @extend_schema(responses={200: CriterionSerializer, **ERRORS})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        return Response(CriterionSerializer(self._criterion(pk)).data)

    @extend_schema(request=CriterionSerializer, responses={200: CriterionSerializer, **ERRORS})
    def patch(self, request: Request, slug: str, pk: int) -> Response:
        criterion = self._criterion(pk)
        data = CriterionSerializer(criterion, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        fields, rankme = CriterionSerializer.split(data.validated_data)
        criterion = criteria_services.criterion_define(
            campaign=self.campaign, criterion=criterion, fields=fields, **rankme
        )
        return Response(CriterionSerializer(criterion).data)

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Request, slug: str, pk: int) -> Response:
        criteria_services.criterion_delete(criterion=self._criterion(pk))
        return Response(status=status.HTTP_204_NO_CONTENT)
