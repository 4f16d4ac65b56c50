"""The datasheet page: the filled HEDS datasheet, a form for the questions a person
answers (editors save), and downloads."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from annotations.access.campaigns import campaign_check, campaign_for, has_role, role_of
from annotations.models import CampaignMembership
from common.errors import DomainError
from common.http import file_response
from reports.exports.datasheet import FORMATS, datasheet_render
from reports.selectors.datasheet import datasheet_for
from reports.services.datasheet import datasheet_answers_update

Role = CampaignMembership.Role


@login_required
@require_http_methods(["GET", "POST"])
def datasheet_page(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = campaign_for(request.user, slug, Role.VIEWER)
    error = ""
    if request.method == "POST":
        campaign_check(request.user, campaign, Role.DESIGNER, denied="Viewers cannot save answers.")
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
    context = {
        "campaign": campaign,
        "role": role_of(request.user, campaign),
        "can_design": has_role(request.user, campaign, Role.DESIGNER),
        "sheet": sheet,
        "formats": list(FORMATS),
        "error": error,
    }
    return render(request, "reports/datasheet.html", context, status=400 if error else 200)


@login_required
def datasheet_download(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    campaign = campaign_for(request.user, slug, Role.VIEWER)
    if fmt not in FORMATS:
        raise Http404("No such datasheet format.")
    content_type, suffix = FORMATS[fmt]
    body = datasheet_render(datasheet_for(campaign=campaign), fmt)
    return file_response(
        body, content_type=content_type, filename=f"{campaign.slug}-datasheet.{suffix}"
    )
