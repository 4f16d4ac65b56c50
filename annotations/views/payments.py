"""The payments page and its exports."""

from __future__ import annotations

from django.contrib import messages
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from annotations.access.pages import campaign_context, campaign_require, campaign_view
from annotations.exports import payments as payment_exports
from annotations.forms.payments import PaymentDecisionsForm
from annotations.models import (
    Campaign,
    CampaignMembership,
    Worker,
)
from annotations.selectors import payments as payment_selectors
from annotations.services import payments as payment_services
from common.errors import DomainError
from common.http import (
    file_response,
)

Role = CampaignMembership.Role


# Payments ------------------------------------------------------------------------------------


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def campaign_payments(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """Per worker: the quality checks' suggestion, the organizer's decision and bonus,
    and the platforms' bulk files. Viewers read; editors decide."""
    rows = payment_selectors.payment_rows(campaign=campaign)
    form = PaymentDecisionsForm(request.POST or None, workers=[r.worker for r in rows])
    status = 200
    if request.method == "POST":
        campaign_require(request, campaign, Role.DESIGNER, denied="Viewers cannot decide payments.")
        if request.POST.get("action") == "accept-suggestions":
            n = payment_services.workers_review_accept_suggestions(
                campaign=campaign, overwrite=request.POST.get("overwrite") == "1"
            )
            messages.success(
                request, f"Suggestions accepted: {n} decision{'s' if n != 1 else ''} changed."
            )
            return redirect("annotations:designer-payments", slug=campaign.slug)
        if form.is_valid():
            try:
                n = payment_services.workers_review_update(
                    campaign=campaign, decisions=form.decisions()
                )
            except DomainError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, f"Saved: {n} worker{'s' if n != 1 else ''} changed.")
                return redirect("annotations:designer-payments", slug=campaign.slug)
        status = 400
    context = campaign_context(
        request,
        campaign,
        rows=[(r, form[f"review_{r.worker.pk}"], form[f"bonus_{r.worker.pk}"]) for r in rows],
        form=form,
        summary=payment_selectors.payment_summary(rows=rows),
        has_prolific=any(r.worker.platform == Worker.Platform.PROLIFIC for r in rows),
        has_mturk=any(r.worker.platform == Worker.Platform.MTURK for r in rows),
        mturk_unreviewable=payment_selectors.mturk_unreviewable(campaign=campaign),
    )
    return render(request, "annotations/payments/payments.html", context, status=status)


@campaign_view(Role.VIEWER)
def campaign_payments_export(request: HttpRequest, campaign: Campaign, fmt: str) -> HttpResponse:
    if fmt not in payment_exports.FORMATS:
        raise Http404("No such payment export.")
    content_type, suffix = payment_exports.FORMATS[fmt]
    body = payment_exports.payment_export(campaign=campaign, fmt=fmt)
    return file_response(body, content_type=content_type, filename=f"{campaign.slug}-{suffix}")
