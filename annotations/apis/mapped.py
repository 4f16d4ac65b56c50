"""REST API of column-mapped rating imports: the mappings (built-in and saved presets)
and the upload (import, preview), on the same services as the designer page and the
``import_ratings`` command."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from annotations.access.apis import CampaignScoped, job_accepted
from annotations.importing.mapped import mapped_preview_upload, mapped_upload
from annotations.importing.mapped_criteria import mapped_preview_scales
from annotations.importing.mappings import (
    mapping_parse,
    mapping_resolve,
    mappings_offered,
    rating_mapping_save,
)
from annotations.importing.parsers.mapped import Mapping, ParsedMapped
from annotations.importing.uploads import UploadTooLargeError, uploads_read
from annotations.serializers.mapped import MappingSerializer, RatingsUploadSerializer
from common.api import ERRORS, ErrorSerializer, error_body
from common.errors import DomainError


def preview_body(parsed: ParsedMapped) -> dict[str, Any]:
    return {
        "file": parsed.file,
        "slots": parsed.slots,
        "judgements": [
            {
                "line": j.line,
                "criterion": j.criterion,
                "item_id": j.item_id,
                "worker_id": j.worker_id,
                "unit_id": j.unit_id,
                "outputs": [
                    {"system": s, "text": t, "score": v, "rank": r}
                    for s, t, v, r in zip(j.systems, j.texts, j.scores, j.ranks, strict=True)
                ],
            }
            for j in parsed.judgements
        ],
        "skipped": [
            {"line": r.line, "criteria": list(r.skipped)} for r in parsed.rows if r.skipped
        ],
        "left_out": dict(parsed.left_out),
        "skip_rows_absent": list(parsed.skip_rows_absent),
    }


class RatingMappingListApi(CampaignScoped):
    """The mappings usable in the campaign: the built-in presets, then the saved ones."""

    @extend_schema(responses={200: MappingSerializer(many=True), **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        rows = mappings_offered(campaign=self.campaign)
        return Response(MappingSerializer(rows, many=True).data)

    @extend_schema(request=MappingSerializer, responses={201: MappingSerializer, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        """Save a mapping under a name (replacing the campaign's mapping of that name)."""
        data = MappingSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        mapping = mapping_parse(data.validated_data["mapping"])
        saved = rating_mapping_save(
            campaign=self.campaign,
            name=data.validated_data["name"],
            mapping=mapping,
            user=request.user,
        )
        body = {"name": saved.name, "title": saved.name, "builtin": False, "mapping": saved.mapping}
        return Response(MappingSerializer(body).data, status=status.HTTP_201_CREATED)


class RatingsUploadApi(CampaignScoped):
    """Upload a rating file read through a mapping (multipart): all or nothing."""

    @extend_schema(
        request={"multipart/form-data": RatingsUploadSerializer},
        responses={
            200: OpenApiResponse(description="The preview: the first rows as parsed."),
            201: OpenApiResponse(description="Imported: what was created."),
            202: OpenApiResponse(description="A large upload, imported as a background job."),
            413: ErrorSerializer,
            **ERRORS,
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        """``preview`` (1-50) parses that many rows and writes nothing (200); without it
        the file is imported now (201) or, when large, as a background job (202, its
        page). ``preview=0`` is refused: it imported, where a preview was asked for."""
        data = RatingsUploadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        mapping: Mapping = (
            mapping_resolve(campaign=self.campaign, name=v["mapping"])
            if v.get("mapping")
            else mapping_parse(v["mapping_json"], field="mapping_json")
        )
        try:
            (upload,) = uploads_read(files=[v["file"]])
        except UploadTooLargeError as exc:
            body = error_body(detail=str(exc), code="too_large", file=exc.file)
            return Response(body, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
        if v.get("preview"):
            parsed = mapped_preview_upload(upload=upload, mapping=mapping, rows=v["preview"])
            # what the page's preview says per criterion: its scale, from what, and any
            # shown score off its levels (which the import would refuse)
            scales = mapped_preview_scales(campaign=self.campaign, mapping=mapping, parsed=parsed)
            return Response({**preview_body(parsed), "scales": scales})
        outcome = mapped_upload(
            campaign=self.campaign,
            upload=upload,
            mapping=mapping,
            user=request.user,
            experts=v["experts"],
        )
        if outcome.job is not None:
            return job_accepted(outcome.job, slug)
        if outcome.result is None:  # pragma: no cover - one of the two is always set
            raise DomainError("Nothing was imported.")
        return Response(outcome.result.summary(), status=status.HTTP_201_CREATED)
