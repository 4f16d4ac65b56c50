"""The MTG-style table page: mean rating per criterion, system and language with
confidence intervals, beside the TrueSkill rank ranges (``/rankings/campaign/<slug>/means/``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from annotations.access.pages import campaign_context, campaign_view
from annotations.models import Campaign, CampaignMembership
from annotations.selectors.criteria import criterion_missing
from common.http import file_response
from ranking.exports import means as means_exports
from ranking.forms.means import MeansForm
from ranking.selectors import means as means_selectors
from ranking.selectors.runs import CONFIDENCE_RANGE, DEFAULT_CONFIDENCE

Role = CampaignMembership.Role


@campaign_view(Role.VIEWER)
def campaign_means(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """Each criterion's mean rating per system and language (and pooled), with t
    intervals, and the latest TrueSkill rank ranges on each language's slice;
    ``?format=csv`` downloads it."""
    form = MeansForm(request.GET or None)
    values = form.cleaned_data if form.is_bound and form.is_valid() else {}
    confidence = values.get("confidence") or DEFAULT_CONFIDENCE
    criterion = values.get("criterion") or ""
    names = means_selectors.means_criterion_names(campaign=campaign)
    error = ""
    if criterion and criterion not in names:
        error = str(criterion_missing(campaign, criterion, others=names))
    if form.errors:
        # Worded as the API's error (``field: message``), the same bounds and messages.
        error = "; ".join(
            f"{name}: {' '.join(map(str, errors))}" for name, errors in form.errors.items()
        )
    table = None
    if not error:
        table = means_selectors.campaign_means(
            campaign=campaign, confidence=confidence, criterion=criterion
        )
        if values.get("format") == "csv":
            return file_response(
                means_exports.means_csv(table),
                content_type="text/csv; charset=utf-8",
                filename=f"{campaign.slug}-means.csv",
            )
    return render(
        request,
        "ranking/means/means.html",
        campaign_context(
            request,
            campaign,
            table=table,
            criteria=names,
            criterion_name=criterion,
            confidence=confidence,
            confidence_label=f"{confidence:.0%}",
            confidence_choice=f"{confidence:g}",
            confidence_range=CONFIDENCE_RANGE,
            multilingual=campaign.is_multilingual,
            error=error,
        ),
        status=400 if error else 200,
    )
