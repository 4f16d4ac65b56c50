"""The judgements export (CSV, JSONL)."""

from __future__ import annotations

from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.http.response import HttpResponseBase

from annotations.access.pages import campaign_view
from annotations.core.slices import SliceError, parse_where
from annotations.exports import judgements as exports
from annotations.models import (
    Campaign,
    CampaignMembership,
)
from annotations.selectors.criteria import criterion_get
from common.errors import DomainError
from common.http import (
    streamed_file_response,
)

Role = CampaignMembership.Role


# Exports -------------------------------------------------------------------------------------


@campaign_view(Role.VIEWER)
def campaign_export(request: HttpRequest, campaign: Campaign) -> HttpResponseBase:
    fmt = request.GET.get("format", "csv")
    include_excluded = request.GET.get("include_excluded", "1") not in ("0", "false", "")
    try:
        criterion = criterion_get(campaign, request.GET.get("criterion", ""))
        where = parse_where(request.GET.getlist("where"))
        lines = exports.export_lines(
            criterion=criterion, fmt=fmt, include_excluded=include_excluded, where=where
        )
    except (DomainError, SliceError) as exc:  # an unknown criterion, format or slice
        return HttpResponse(str(exc), status=400, content_type="text/plain")
    return streamed_file_response(
        lines,
        content_type=exports.FORMATS[fmt][0],
        filename=exports.export_filename(criterion=criterion, fmt=fmt),
    )
