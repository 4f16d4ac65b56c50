"""REST API of a campaign's lifecycle: build the tasks, launch, pause, close, archive,
unarchive (the pages are ``annotations/views/lifecycle.py``; thin: validate, call the
service the pages call)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations.access.apis import CampaignScoped, job_accepted
from annotations.importing import jobs as import_jobs
from annotations.models import ImportJob
from annotations.serializers.campaigns import CampaignSerializer
from annotations.serializers.lifecycle import BuildSerializer
from annotations.services import campaigns as campaign_services
from common.api import CONFLICT, ERRORS, plain


class CampaignActionApi(CampaignScoped, APIView):
    """Launch, pause, close, archive or unarchive a campaign (the pages' services)."""

    action = ""

    @extend_schema(request=None, responses={200: CampaignSerializer, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        service = {
            "launch": campaign_services.campaign_launch,
            "pause": campaign_services.campaign_pause,
            "close": campaign_services.campaign_close,
            "archive": campaign_services.campaign_archive,
            "unarchive": campaign_services.campaign_unarchive,
        }[self.action]
        return Response(CampaignSerializer(service(campaign=self.campaign)).data)


class CampaignBuildApi(CampaignScoped, APIView):
    """Build the task design (drafts only); returns the design report."""

    @extend_schema(
        request=BuildSerializer,
        responses={
            200: OpenApiTypes.OBJECT,
            202: OpenApiResponse(
                description="A large campaign (more than BUILD_INLINE_MAX_TASKS tasks), "
                "built as a background job: its id, status and progress page."
            ),
            **ERRORS,
            409: CONFLICT,
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        data = BuildSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        report = import_jobs.campaign_tasks_build_or_queue(
            campaign=self.campaign,
            user=request.user,
            seed=data.validated_data.get("seed"),
            design=data.validated_data.get("design"),
        )
        if isinstance(report, ImportJob):
            return job_accepted(report, slug)
        return Response(plain(report))
