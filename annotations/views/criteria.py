"""Pages of criteria: list and add (presets or written in), edit with the standard picker, delete."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from annotations.access.campaigns import criterion_or_404
from annotations.access.pages import campaign_context, campaign_require, campaign_view
from annotations.forms.criteria import CriterionForm, CriterionPresetForm
from annotations.models import (
    Campaign,
    CampaignMembership,
    Criterion,
    Output,
)
from annotations.selectors import criteria as criteria_selectors
from annotations.services import criteria as criteria_services
from common.converters import whole_number
from common.errors import DomainError
from common.forms import form_refused
from common.http import (
    HtmxHttpRequest,
    act,
)

Role = CampaignMembership.Role


# Criteria -----------------------------------------------------------------------------------


STANDARD_SEARCH = "search-standard"  # the criterion form's action that only searches
# The criterion form's action that shows the chosen scale's fields (unsaved): the button
# a page without JavaScript posts; with htmx, changing the scale posts it.
SHOW_SCALE = "show-scale"
REDRAW = (STANDARD_SEARCH, SHOW_SCALE)


def _standard_picker(
    request: HttpRequest, campaign: Campaign, current: int | None = None
) -> tuple[list[Output], dict[str, Any]]:
    """The outputs the standard picker lists: those matching ``standard_q`` (an item's
    id or a text; all when blank), first 200, plus the criterion's current standard and
    the one just chosen; and what the page says about them."""
    query = (request.GET.get("standard_q") or request.POST.get("standard_q") or "").strip()
    query = query[:200]
    chosen = request.POST.get("standard_output") or request.GET.get("standard_output") or ""
    include = [current, whole_number(chosen)]
    outputs = criteria_selectors.standard_candidates(
        campaign=campaign, query=query, include=include
    )
    total = criteria_selectors.standard_candidates_total(campaign=campaign, query=query)
    return outputs, {"standard_q": query, "standard_total": total, "standard_chosen": chosen}


def _standard_search(
    request: HttpRequest, form_kwargs: dict[str, Any], outputs: list[Output], initial: Any
) -> CriterionForm:
    """The criterion form as posted, unsaved and unchecked, listing the search's outputs
    (the search button of a page without JavaScript posts the whole form)."""
    posted = {
        **initial,
        **request.POST.dict(),
        "content_checks": request.POST.getlist("content_checks"),
    }
    return CriterionForm(None, outputs=outputs, initial=posted, **form_kwargs)


def _standard_partial(
    request: HttpRequest,
    campaign: Campaign,
    outputs: list[Output],
    extra: dict[str, Any],
    **kw: Any,
) -> HttpResponse:
    """The picker alone (htmx search): the select, and how many outputs match."""
    form = CriterionForm(
        None, outputs=outputs, initial={"standard_output": extra["standard_chosen"]}, **kw
    )
    context = campaign_context(request, campaign, form=form, outputs=outputs, **extra)
    return render(request, "annotations/criteria/_criterion_fields.html#standard-picker", context)


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def criteria(request: HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    """The criteria and the form to add one. ``?preset=`` fills the form from a preset
    (a plain GET without JavaScript; with htmx only the form is swapped); nothing is
    saved until the filled form, as shown, is posted. The standard picker searches all
    outputs (``standard_q``: with htmx only the picker is swapped; without JavaScript
    the search button posts the form, which comes back as typed, unsaved)."""
    outputs, picker = _standard_picker(request, campaign)
    if request.htmx and request.method == "GET" and "standard_q" in request.GET:
        return _standard_partial(request, campaign, outputs, picker)
    preset_form = CriterionPresetForm(request.GET or None)
    preset = request.GET.get("preset", "") if preset_form.is_valid() else ""
    form = CriterionForm(
        request.POST or None, outputs=outputs, initial=CriterionForm.initial_for_preset(preset)
    )
    searching = request.method == "POST" and request.POST.get("action") in REDRAW
    if searching:
        form = _standard_search(request, {}, outputs, {})
    if request.method == "POST" and not searching:
        campaign_require(request, campaign, Role.DESIGNER, denied="Viewers cannot add criteria.")
        if form.is_valid():
            try:
                criterion = criteria_services.criterion_define(
                    campaign=campaign, fields=form.service_fields(), **form.rankme_fields()
                )
            except DomainError as exc:
                form_refused(form, exc)
            else:
                messages.success(request, f"Criterion “{criterion.name}” added.")
                return redirect("annotations:designer-criteria", slug=campaign.slug)
    context = campaign_context(
        request,
        campaign,
        form=form,
        preset_form=preset_form,
        preset=preset,
        outputs=outputs,
        **picker,
    )
    if request.htmx and request.method == "GET":
        return render(request, "annotations/criteria/criteria.html#criterion-form", context)
    context["input_conflict"] = criteria_selectors.setup_input_conflict(campaign=campaign)
    context["criteria"] = listed = criteria_selectors.criteria_listed(campaign=campaign)
    # Magnitude criteria whose workers will see no worked example (none written, none
    # could be generated from the standard): said in the list, not only on the edit page.
    context["no_example"] = {
        c.pk
        for c in listed
        if c.scale == Criterion.Scale.MAGNITUDE
        and c.standard_text
        and not criteria_selectors.example_for(c)
    }
    return render(request, "annotations/criteria/criteria.html", context)


@campaign_view(Role.DESIGNER)
@require_http_methods(["GET", "POST"])
def criterion_edit(request: HtmxHttpRequest, campaign: Campaign, pk: int) -> HttpResponse:
    criterion = criterion_or_404(campaign, pk)
    outputs, picker = _standard_picker(request, campaign, criterion.standard_output_id)
    if request.htmx and request.method == "GET" and "standard_q" in request.GET:
        return _standard_partial(request, campaign, outputs, picker, editing=True)
    form = CriterionForm(
        request.POST or None,
        editing=True,
        outputs=outputs,
        initial=CriterionForm.initial_for(criterion),
    )
    searching = request.method == "POST" and request.POST.get("action") in REDRAW
    if searching:
        form = _standard_search(
            request, {"editing": True}, outputs, CriterionForm.initial_for(criterion)
        )
    if request.method == "POST" and not searching and form.is_valid():
        try:
            criteria_services.criterion_define(
                campaign=campaign,
                criterion=criterion,
                fields=form.service_fields(criterion),
                **form.rankme_fields(),
            )
        except DomainError as exc:
            form_refused(form, exc)
        else:
            messages.success(request, f"Criterion “{criterion.name}” saved.")
            return redirect("annotations:designer-criteria", slug=campaign.slug)
    return render(
        request,
        "annotations/criteria/criterion_edit.html",
        campaign_context(
            request,
            campaign,
            form=form,
            criterion=criterion,
            outputs=outputs,
            standard_rated=criteria_selectors.standard_rated_tasks(criterion=criterion),
            example=criteria_selectors.example_for(criterion),
            **picker,
        ),
    )


@campaign_view(Role.DESIGNER)
@require_POST
def criterion_delete(request: HttpRequest, campaign: Campaign, pk: int) -> HttpResponse:
    criterion = criterion_or_404(campaign, pk)
    act(
        request,
        lambda: criteria_services.criterion_delete(criterion=criterion),
        done=f"Criterion “{criterion.name}” removed.",
    )
    return redirect("annotations:designer-criteria", slug=campaign.slug)
