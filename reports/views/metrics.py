"""The metric-human correlation page: /campaigns/<slug>/metrics/.

Viewers read it; editors (designers) also upload metric score files. The table and the
scatter plots are computed on request from the stored scores (seed 1,
``REPORTS_PAGE_RESAMPLES`` bootstrap resamples, default 200; the CLI and the API take more).
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_http_methods

from annotations.access.pages import campaign_context, campaign_require, campaign_view
from annotations.models import Campaign, CampaignMembership
from annotations.selectors.criteria import criteria_in_order, criterion_chosen
from common.errors import DomainError
from common.forms import SiteLabels
from reports.core.correlation_report import scatter_svg
from reports.selectors.metrics import metric_correlations, metric_score_counts
from reports.services.metrics import metric_scores_import

Role = CampaignMembership.Role


class MetricUploadForm(SiteLabels, forms.Form):
    file = forms.FileField(
        label="Metric scores (CSV or JSONL)",
        help_text="Columns system, item, metric, score (segment level) or system, metric, "
        "score (system level). Re-uploading a metric replaces its stored scores.",
    )


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def campaign_metrics(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """Upload metric scores (editors) and read their correlation with a criterion."""
    form = MetricUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        campaign_require(
            request, campaign, Role.DESIGNER, denied="Viewers cannot upload metric scores."
        )
        if form.is_valid():
            # Files over the one upload limit never get here (common.uploads: a 413).
            upload = form.cleaned_data["file"]
            try:
                metric_scores_import(
                    campaign=campaign, data=upload.read(), file=upload.name or "upload"
                )
            except DomainError as exc:
                form.add_error("file", str(exc))
            else:
                return redirect("reports:metrics", slug=campaign.slug)
    criteria = criteria_in_order(campaign=campaign)
    chosen = criterion_chosen(
        campaign=campaign, criteria=criteria, name=request.GET.get("criterion"), strict=False
    )
    counts = metric_score_counts(campaign=campaign)
    report, plots = None, []
    if chosen is not None and counts:
        seed = 1
        report = metric_correlations(
            campaign=campaign,
            criterion=chosen,
            seed=seed,
            resamples=settings.REPORTS_PAGE_RESAMPLES,
        )
        plots = [
            # scatter_svg escapes every text and writes no style or script (CSP-safe).
            (m.metric, mark_safe(scatter_svg(m.points, metric=m.metric, criterion=chosen.name)))
            for m in report.metrics
        ]
    return render(
        request,
        "reports/metrics/metrics.html",
        campaign_context(
            request,
            campaign,
            form=form,
            criteria=criteria,
            criterion=chosen,
            counts=counts,
            report=report,
            plots=plots,
        ),
    )
