"""REST API of the datasheet: GET the filled datasheet (JSON), PATCH the designer's answers."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from annotations.access.apis import CampaignScoped
from common.api import ERRORS
from reports.selectors.datasheet import datasheet_for
from reports.serializers.datasheet import DatasheetAnswersSerializer
from reports.services.datasheet import datasheet_answers_update


class CampaignDatasheetApi(CampaignScoped):
    """The campaign's evaluation datasheet (HEDS): every question with its answer and
    where the answer comes from; PATCH sets the designer's answers (blank removes one)."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        return Response(datasheet_for(campaign=self.campaign).to_dict())

    @extend_schema(
        request=DatasheetAnswersSerializer, responses={200: OpenApiTypes.OBJECT, **ERRORS}
    )
    def patch(self, request: Request, slug: str, *args: Any) -> Response:
        data = DatasheetAnswersSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        datasheet_answers_update(
            campaign=self.campaign, answers=data.validated_data["answers"], user=request.user
        )
        return Response(datasheet_for(campaign=self.campaign).to_dict())
