"""The datasheet page: the filled HEDS datasheet, a form for the questions a person
answers (editors save), and downloads."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from annotations.access.pages import campaign_context, campaign_require, campaign_view
from annotations.models import Campaign, CampaignMembership
from common.errors import DomainError
from common.http import file_response
from reports.exports.datasheet import FORMATS, datasheet_render
from reports.selectors.datasheet import datasheet_for
from reports.services.datasheet import datasheet_answers_update

Role = CampaignMembership.Role


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def datasheet_page(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    error = ""
    if request.method == "POST":
        campaign_require(request, campaign, Role.DESIGNER, denied="Viewers cannot save answers.")
        keys = [k for k in request.POST if k.startswith("a:")]
        try:
            datasheet_answers_update(
                campaign=campaign,
                answers={k[2:]: request.POST[k] for k in keys},
                user=request.user,
            )
        except DomainError as exc:
            error = str(exc)
        else:
            messages.success(request, "Datasheet answers saved.")
            return redirect("reports:datasheet", slug=campaign.slug)
    sheet = datasheet_for(campaign=campaign)
    context = campaign_context(request, campaign, sheet=sheet, formats=list(FORMATS), error=error)
    return render(
        request, "reports/datasheet/datasheet.html", context, status=400 if error else 200
    )


@campaign_view(Role.VIEWER)
def datasheet_download(request: HttpRequest, campaign: Campaign, fmt: str) -> HttpResponse:
    if fmt not in FORMATS:
        raise Http404("No such datasheet format.")
    content_type, suffix = FORMATS[fmt]
    body = datasheet_render(datasheet_for(campaign=campaign), fmt)
    return file_response(
        body, content_type=content_type, filename=f"{campaign.slug}-datasheet.{suffix}"
    )
