"""REST API of a campaign's payments (each worker's pay, bonus and decision)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations.access.apis import CampaignScoped
from annotations.selectors import payments as payment_selectors
from annotations.serializers.payments import PaymentRowSerializer
from common.api import (
    ERRORS,
)


class PaymentListApi(CampaignScoped, APIView):
    """Per worker: the quality checks' suggestion, the decision and bonus (read only: the
    decisions are made on the payments page; the platforms' bulk files are its exports)."""

    @extend_schema(responses={200: PaymentRowSerializer(many=True), **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        rows = payment_selectors.payment_rows(campaign=self.campaign)
        return Response(PaymentRowSerializer(rows, many=True).data)
