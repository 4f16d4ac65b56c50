"""The judgements export (CSV, JSONL)."""

from __future__ import annotations

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.urls import reverse

from annotations.access.pages import campaign_view
from annotations.core.slices import SliceError, parse_where
from annotations.exports import judgements as exports
from annotations.models import Campaign, CampaignMembership, Criterion
from annotations.selectors.criteria import criteria_in_order, criterion_get
from common.errors import DomainError
from common.http import refused_page, streamed_file_response

Role = CampaignMembership.Role


# Exports -------------------------------------------------------------------------------------


def _criterion(campaign: Campaign, name: str) -> Criterion:
    """The criterion named, or the campaign's only one when none is named."""
    if not name:
        criteria = criteria_in_order(campaign=campaign)
        if len(criteria) == 1:
            return criteria[0]
        names = ", ".join(c.name for c in criteria) or "none yet"
        raise DomainError(f"Choose the criterion to export (this campaign's: {names}).")
    return criterion_get(campaign, name)


@campaign_view(Role.VIEWER)
def campaign_export(request: HttpRequest, campaign: Campaign) -> HttpResponseBase:
    fmt = request.GET.get("format", "csv")
    include_excluded = request.GET.get("include_excluded", "1") not in ("0", "false", "")
    try:
        criterion = _criterion(campaign, request.GET.get("criterion", ""))
        where = parse_where(request.GET.getlist("where"))
        lines = exports.export_lines(
            criterion=criterion, fmt=fmt, include_excluded=include_excluded, where=where
        )
    except (DomainError, SliceError) as exc:  # an unknown criterion, format or slice
        return refused_page(
            request,
            exc,
            back=reverse("annotations:designer-campaign", args=[campaign.slug]) + "#h-export",
            back_label="Back to the campaign's exports",
        )
    return streamed_file_response(
        lines,
        content_type=exports.FORMATS[fmt][0],
        filename=exports.export_filename(criterion=criterion, fmt=fmt),
    )
