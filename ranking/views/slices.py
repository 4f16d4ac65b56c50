"""The slices page: a criterion ranked on every value of an item attribute, beside all
items, and the button that starts the runs that are missing."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from annotations.access.pages import campaign_context, campaign_require, campaign_view
from annotations.models import Campaign, CampaignMembership
from ranking.forms.slices import SlicesForm, slices_started_messages
from ranking.selectors import slices
from ranking.services.slices import ranking_slices_start

Role = CampaignMembership.Role


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def campaign_slices(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """A criterion ranked on every value of an item attribute, beside all items.

    GET ``?criterion=&by=``: the latest finished run on all items and on each value's
    slice, side by side (value and rank range per system). POST (designers): start the
    runs that are missing, with the run form's defaults (wmt14, 200 runs, seed 1).
    """
    posted = request.method == "POST"
    form = SlicesForm(request.POST if posted else request.GET, campaign=campaign)
    choice = form.choice
    if posted and choice.criterion is not None and form.is_valid():
        campaign_require(
            request, campaign, Role.DESIGNER, denied="Viewers cannot start ranking runs."
        )
        started = ranking_slices_start(
            campaign=campaign,
            criterion=choice.criterion,
            slices=choice.slices,
            user=request.user,
            missing_only=True,
        )
        for level, text in slices_started_messages(started):
            messages.add_message(request, level, text)
        return redirect(
            f"{reverse('ranking:campaign-slices', args=[campaign.slug])}?"
            + urlencode({"criterion": choice.criterion.name, "by": choice.by})
        )
    return render(
        request,
        "ranking/slices/slices.html",
        campaign_context(request, campaign, **slices.ranking_slices_page(choice=choice)),
        status=400 if choice.error else 200,
    )
