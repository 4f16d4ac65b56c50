"""REST API of a campaign's members (owners manage them)."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import (
    Http404,
)
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations.access.apis import CampaignScoped
from annotations.models import (
    CampaignMembership,
)
from annotations.selectors import memberships as member_selectors
from annotations.serializers.memberships import MemberSerializer, MemberSetSerializer
from annotations.services import memberships as membership_services
from common.api import (
    ERRORS,
)

Role = CampaignMembership.Role


class MemberListApi(CampaignScoped, generics.ListAPIView):
    """The campaign's members (viewers may read); POST gives a user a role (owners only)."""

    serializer_class = MemberSerializer
    pagination_class = None
    write_role = Role.OWNER

    def get_queryset(self) -> QuerySet[CampaignMembership]:
        return member_selectors.campaign_members(campaign=self.campaign)

    @extend_schema(request=MemberSetSerializer, responses={200: MemberSerializer, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        data = MemberSetSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        membership = membership_services.membership_set(
            campaign=self.campaign, **data.validated_data
        )
        return Response(MemberSerializer(membership).data)


class MemberDetailApi(CampaignScoped, APIView):
    """Take a member off the campaign (owners only; the owner stays)."""

    write_role = Role.OWNER

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Request, slug: str, pk: int) -> Response:
        membership = member_selectors.membership_by_id(self.campaign, pk)
        if membership is None:
            raise Http404("No such member of this campaign.")
        membership_services.membership_remove(membership=membership)
        return Response(status=status.HTTP_204_NO_CONTENT)
