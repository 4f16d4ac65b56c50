"""REST API of a campaign's background jobs (the page is ``annotations/views/uploads.py``'s
``import_job``): what a 202 from an upload or a build points to, readable with a token."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations.access.apis import CampaignScoped
from annotations.selectors.jobs import import_job_by_id, import_job_progress
from annotations.serializers.jobs import ImportJobSerializer
from common.api import ERRORS


class ImportJobApi(CampaignScoped, APIView):
    """A background import or build of the campaign: its status, progress and summary
    (poll it after a 202; its ``page`` is the same job for a person)."""

    @extend_schema(responses={200: ImportJobSerializer, **ERRORS})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        job = import_job_by_id(self.campaign, pk)
        if job is None:
            raise Http404("No such job in this campaign.")
        done, total = import_job_progress(job=job)
        data: dict[str, Any] = {
            "id": job.pk,
            "kind": job.kind,
            "status": job.status,
            "rows_done": done,
            "rows_total": total,
            "error": job.error,
            "summary": job.summary or {},
            "created_at": job.created_at,
            "finished_at": job.finished_at,
            "page": reverse("annotations:designer-import-job", kwargs={"slug": slug, "pk": pk}),
        }
        return Response(ImportJobSerializer(data).data)
