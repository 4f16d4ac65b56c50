"""REST API of systems and their outputs (upload)."""

from __future__ import annotations

from django.db.models import Count, QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations.access.apis import CampaignScoped, job_accepted
from annotations.importing.uploads import UploadTooLargeError, outputs_upload
from annotations.models import (
    System,
)
from annotations.serializers.uploads import (
    OutputsImportedSerializer,
    OutputsRemovedSerializer,
    SystemSerializer,
    UploadSerializer,
)
from annotations.services.outputs import outputs_remove_all
from common.api import (
    ERRORS,
    ErrorSerializer,
    Pagination,
    error_body,
    plain,
)


class SystemListApi(CampaignScoped, generics.ListAPIView):
    """The campaign's systems with their number of outputs."""

    pagination_class = Pagination
    serializer_class = SystemSerializer

    def get_queryset(self) -> QuerySet[System]:
        return self.campaign.systems.annotate(n_outputs=Count("outputs")).order_by("label")


class OutputUploadApi(CampaignScoped, APIView):
    """Upload outputs (multipart ``files``): all files or nothing. ``DELETE`` removes
    every uploaded output of a draft (its items, systems and tasks with them), as the
    campaign page's "Remove all uploaded outputs" does."""

    @extend_schema(
        request={"multipart/form-data": UploadSerializer},
        responses={
            201: OutputsImportedSerializer(many=True),
            202: OpenApiResponse(description="A large upload, imported as a background job."),
            413: ErrorSerializer,
            **ERRORS,
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        """The web page's path: the size limit (413 naming the file), then small uploads
        imported now (201) and large ones as a background job (202, its id and page)."""
        data = UploadSerializer(data={"files": request.FILES.getlist("files")})
        data.is_valid(raise_exception=True)
        try:
            outcome = outputs_upload(
                campaign=self.campaign, files=data.validated_data["files"], user=request.user
            )
        except UploadTooLargeError as exc:
            body = error_body(detail=str(exc), code="too_large", file=exc.file)
            return Response(body, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
        if outcome.job is not None:
            return job_accepted(outcome.job, slug)
        rows = [{**plain(r), "file": str(r.file).rsplit("/", 1)[-1]} for r in outcome.results]
        return Response(
            OutputsImportedSerializer(rows, many=True).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(request=None, responses={200: OutputsRemovedSerializer, **ERRORS})
    def delete(self, request: Request, slug: str) -> Response:
        """Remove every uploaded output of a draft (400 once launched, handed out or
        judged)."""
        removed = outputs_remove_all(campaign=self.campaign)
        return Response(OutputsRemovedSerializer(removed).data)
