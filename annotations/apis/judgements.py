"""REST API of judgements: the list (their export is ``annotations/apis/exports.py``)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response

from annotations.access.apis import CampaignScoped
from annotations.models import Judgement
from annotations.selectors import judgements as judgement_selectors
from annotations.selectors.criteria import criterion_get
from annotations.serializers.judgements import (
    JudgementQuerySerializer,
    JudgementSerializer,
)
from common.api import (
    Pagination,
    validated_query,
)


class JudgementListApi(CampaignScoped, generics.ListAPIView):
    """Raw judgements, oldest first. Filters: ``criterion`` (name: one the campaign does
    not have is a 400 naming it, as the export's), ``worker`` (external id: an unknown one
    lists none), ``submitted_after`` (ISO time)."""

    pagination_class = Pagination
    serializer_class = JudgementSerializer

    def get_queryset(self) -> QuerySet[Judgement]:
        query = validated_query(JudgementQuerySerializer, self.request)
        if query.get("criterion"):
            criterion_get(self.campaign, query["criterion"])  # DomainError: 400
        return judgement_selectors.judgements_listed(
            campaign=self.campaign,
            criterion_name=query.get("criterion") or "",
            worker_external_id=query.get("worker") or "",
            submitted_after=query.get("submitted_after"),
        )

    @extend_schema(parameters=[JudgementQuerySerializer])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)
