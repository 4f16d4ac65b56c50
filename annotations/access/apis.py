"""Access for the REST API (DRF), apart from ``access.campaigns`` so that code which only
checks roles does not load DRF: the base class of API views on one campaign, and the
per-request checks for views that reach a campaign through another object (a run)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations.access.campaigns import (
    CampaignAccess,
    campaign_access,
    campaign_require,
    campaigns_visible_to,
    request_campaign,
)
from annotations.models import CampaignMembership, ImportJob
from common.api import DomainErrorsMixin

__all__ = [
    "CampaignAccess",
    "CampaignScoped",
    "campaign_access",
    "campaign_require",
    "campaigns_visible_to",
]


class CampaignScoped(DomainErrorsMixin, APIView):
    """An API view on one campaign: loads ``self.campaign`` from the ``slug`` URL argument
    among the user's campaigns (404 otherwise).

    Safe methods need ``read_role`` (viewer), the others ``write_role`` (designer); a
    method that needs more calls :meth:`require`.
    """

    read_role: str = CampaignMembership.Role.VIEWER
    write_role: str = CampaignMembership.Role.DESIGNER

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        role = self.read_role if request.method in ("GET", "HEAD", "OPTIONS") else self.write_role
        self.campaign = request_campaign(request, kwargs["slug"], role)

    def require(self, role: str, *, denied: str = "") -> CampaignAccess:
        """A 403 (``denied``) unless the user holds ``role`` or a stronger one."""
        return campaign_require(self.request, self.campaign, role, denied=denied)


def job_accepted(job: ImportJob, slug: str) -> Response:
    """The 202 of work handed to a background job (a large upload, a large build): its
    id and status, its page (``url``) and its API (``api``, readable with a token)."""
    return Response(
        {
            "job": job.pk,
            "status": job.status,
            "url": reverse("annotations:designer-import-job", kwargs={"slug": slug, "pk": job.pk}),
            "api": reverse("api-job", kwargs={"slug": slug, "pk": job.pk}),
        },
        status=status.HTTP_202_ACCEPTED,
    )
