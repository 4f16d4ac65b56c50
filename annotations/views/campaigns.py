"""Pages of campaigns: the list's new-campaign form, the overview, clone and delete.

A user reaches a campaign only through ``annotations.access.campaigns`` (others get a 404);
viewers read, designers change, owners also manage members (403 otherwise).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from annotations.access.pages import campaign_context, campaign_view
from annotations.exports import judgements as exports
from annotations.forms.campaigns import CampaignCloneForm, CampaignCreateForm
from annotations.forms.uploads import UploadForm
from annotations.models import (
    Campaign,
    CampaignMembership,
)
from annotations.selectors import campaigns as campaign_selectors
from annotations.selectors import criteria as criteria_selectors
from annotations.selectors import monitor as monitor_selectors
from annotations.selectors import plan as plan_selectors
from annotations.selectors import platforms as platform_selectors
from annotations.services import campaigns as campaign_services
from common.errors import DomainError
from common.http import (
    AuthenticatedHttpRequest,
)

Role = CampaignMembership.Role


# Campaign list, creation, overview ----------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def campaign_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = CampaignCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = campaign_services.campaign_start(user=request.user, **form.cleaned_data)
        except DomainError as exc:
            form.add_error("slug", str(exc))
        else:
            messages.success(request, f"Campaign “{campaign.name}” created. Upload outputs next.")
            return redirect("annotations:designer-campaign", slug=campaign.slug)
    return render(request, "annotations/campaigns/campaign_new.html", {"form": form})


@campaign_view(Role.VIEWER)
def campaign_detail(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    plan = plan_selectors.campaign_plan(campaign=campaign)
    steps = campaign_selectors.campaign_steps(campaign=campaign, built=plan.built)
    context = campaign_context(
        request,
        campaign,
        plan=plan,
        # The one step a draft needs next gets the primary button (the others are
        # secondary); building (and so launching) needs outputs and criteria: the
        # buttons say why not.
        next_step=steps.next_step,
        blocked=steps.blocked,
        design=campaign_selectors.campaign_design_token(campaign=campaign),
        totals=monitor_selectors.campaign_totals(campaign=campaign),
        criteria=criteria_selectors.criteria_in_order(campaign=campaign),
        systems=campaign_selectors.campaign_systems(campaign=campaign),
        n_items=campaign.items.count(),
        upload_form=UploadForm(),
        links=platform_selectors.entry_links(
            campaign=campaign,
            entry_url=request.build_absolute_uri(platform_selectors.entry_path(campaign=campaign)),
        ),
        export_formats=exports.FORMATS,
    )
    return render(request, "annotations/campaigns/campaign_detail.html", context)


@campaign_view(Role.OWNER)
@require_http_methods(["GET", "POST"])
def campaign_delete(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """A page that states what deleting loses (and offers archiving instead), then deletes."""
    if request.method == "POST":
        if request.POST.get("confirm_slug", "").strip() != campaign.slug:
            messages.error(request, f"Type the campaign's slug, {campaign.slug}, to delete it.")
            return redirect("annotations:designer-delete", slug=campaign.slug)
        name = campaign.name
        try:
            campaign_services.campaign_delete(campaign=campaign)
        except DomainError as exc:
            messages.error(request, str(exc))
            return redirect("annotations:designer-campaign", slug=campaign.slug)
        messages.success(request, f"Campaign “{name}” deleted with everything it held.")
        return redirect("annotations:home")
    return render(
        request,
        "annotations/campaigns/delete.html",
        campaign_context(
            request,
            campaign,
            contents=campaign_selectors.campaign_contents(campaign=campaign),
            deletable=campaign.status in campaign_services.DELETABLE,
        ),
    )


@campaign_view(Role.DESIGNER)
@require_http_methods(["GET", "POST"])
def campaign_clone(request: AuthenticatedHttpRequest, campaign: Campaign) -> HttpResponse:
    """A second round: a new draft with this campaign's settings, criteria and outputs."""
    form = CampaignCloneForm(
        request.POST or None,
        initial={"name": f"{campaign.name} (round 2)", "slug": f"{campaign.slug}-2"[:64]},
    )
    if request.method == "POST" and form.is_valid():
        try:
            clone = campaign_services.campaign_clone(
                campaign=campaign, user=request.user, **form.cleaned_data
            )
        except DomainError as exc:
            form.add_error("slug", str(exc))
        else:
            messages.success(
                request,
                f"Campaign “{clone.name}” created from “{campaign.name}”: check the design, "
                "then build its tasks.",
            )
            return redirect("annotations:designer-campaign", slug=clone.slug)
    return render(
        request,
        "annotations/campaigns/clone.html",
        campaign_context(
            request,
            campaign,
            form=form,
            contents=campaign_selectors.campaign_contents(campaign=campaign),
        ),
    )
