"""The base class of API views on one campaign (DRF), apart from ``access.campaigns`` so
that code which only checks roles does not load DRF."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.views import APIView

from annotations.access.campaigns import campaign_for
from annotations.models import CampaignMembership
from common.api import DomainErrorsMixin


class CampaignScoped(DomainErrorsMixin, APIView):
    """An API view on one campaign: loads ``self.campaign`` from the ``slug`` URL argument
    through :func:`campaign_for`.

    Safe methods need ``read_role`` (viewer), the others ``write_role`` (designer).
    """

    read_role: str = CampaignMembership.Role.VIEWER
    write_role: str = CampaignMembership.Role.DESIGNER

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        role = self.read_role if request.method in ("GET", "HEAD", "OPTIONS") else self.write_role
        self.campaign = campaign_for(request.user, kwargs["slug"], role)
