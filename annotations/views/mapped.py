"""The rating import page: map a file's columns, preview the first rows as parsed, save
the mapping as a preset, import (the same services as the API and ``import_ratings``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from annotations.access.pages import campaign_context, campaign_view
from annotations.forms.mapped import MappingForm
from annotations.importing.mapped import (
    mapped_columns_upload,
    mapped_preview_scales,
    mapped_preview_upload,
    mapped_upload,
    mapping_parse,
    rating_mapping_save,
)
from annotations.importing.parsers.mapped.header import header_problems
from annotations.importing.parsers.presets import PRESETS
from annotations.importing.uploads import UploadTooLargeError, uploads_read
from annotations.models import Campaign, CampaignMembership
from common.errors import DomainError, ImportFileError

Role = CampaignMembership.Role
TEMPLATE = "annotations/mapped/mapped_import.html"
PREVIEW_ROWS = 5


def _presets(campaign: Campaign) -> list[dict[str, Any]]:
    return [
        {"name": name, "title": title, "mapping": mapping}
        for name, (title, mapping) in PRESETS.items()
    ] + [
        {"name": m.name, "title": f"{m.name} (saved)", "mapping": m.mapping}
        for m in campaign.rating_mappings.all()
    ]


def _page(
    request: HttpRequest, campaign: Campaign, form: MappingForm, status: int = 200, **extra: Any
) -> HttpResponse:
    context = campaign_context(request, campaign, form=form, presets=_presets(campaign), **extra)
    if getattr(request, "htmx", False):
        # The preview panel, with the error in it: htmx swaps in 2xx responses only, so
        # a 400 would leave the panel as it was and the designer without an answer.
        return render(request, TEMPLATE + "#mapped-preview", context)
    return render(request, TEMPLATE, context, status=status)


@campaign_view(Role.DESIGNER)
@require_http_methods(["GET", "POST"])
def mapped_import(request: HttpRequest, campaign: Campaign) -> HttpResponseBase:
    """GET: the form (``?preset=NAME`` fills it from a preset). POST ``action``:
    ``preview`` (the first rows as parsed, nothing written; the htmx partial when asked
    by htmx), ``save`` (the mapping as a preset of the campaign), ``import``."""
    if request.method == "GET":
        chosen = request.GET.get("preset", "")
        preset = next((p for p in _presets(campaign) if p["name"] == chosen), None)
        initial = MappingForm.initial_from(preset["mapping"]) if preset else {}
        form = MappingForm(initial=initial)
        return _page(request, campaign, form, chosen=chosen if preset else "")
    form = MappingForm(request.POST, request.FILES)
    action = request.POST.get("action", "preview")
    if not form.is_valid():
        return _page(request, campaign, form, status=400)
    columns: list[str] = []
    try:
        mapping = mapping_parse(form.mapping_dict())
        if action == "save":
            name = form.cleaned_data.get("save_as") or ""
            saved = rating_mapping_save(
                campaign=campaign, name=name, mapping=mapping, user=request.user
            )
            messages.success(request, f"Saved the mapping as the preset '{saved.name}'.")
            url = reverse("annotations:designer-mapped-import", kwargs={"slug": campaign.slug})
            return redirect(f"{url}?preset={saved.name}")
        file = request.FILES.get("file")
        if file is None:
            form.add_error("file", "Choose the file to preview or import.")
            return _page(request, campaign, form, status=400)
        (upload,) = uploads_read(files=[file])
        columns = list(mapping.columns) or mapped_columns_upload(upload=upload, fmt=mapping.format)
        if action != "import":
            preview = mapped_preview_upload(upload=upload, mapping=mapping, rows=PREVIEW_ROWS)
            scales = mapped_preview_scales(campaign=campaign, mapping=mapping, parsed=preview)
            return _page(request, campaign, form, preview=preview, columns=columns, scales=scales)
        outcome = mapped_upload(
            campaign=campaign,
            upload=upload,
            mapping=mapping,
            user=request.user,
            experts=form.cleaned_data.get("experts", False),
        )
    except ImportFileError as exc:
        status = 413 if isinstance(exc, UploadTooLargeError) else 400
        missing = header_problems(mapping, columns) if columns and mapping.format != "jsonl" else []
        return _page(
            request,
            campaign,
            form,
            status=status,
            import_error=exc,
            columns=columns,
            missing_columns=missing,
        )
    except DomainError as exc:
        return _page(request, campaign, form, status=400, refusal=str(exc))
    if outcome.job is not None:
        return redirect("annotations:designer-import-job", slug=campaign.slug, pk=outcome.job.pk)
    assert outcome.result is not None
    r = outcome.result
    messages.success(
        request,
        f"Imported {r.judgements} judgements from {r.rows} rows of {r.file} "
        f"({', '.join(r.criteria)}): {r.items_created} new items, {r.outputs_created} new "
        f"outputs, {r.workers} workers"
        + (f"; {r.skipped} skipped." if r.skipped else ".")
        + "".join(f" {note}" for note in r.notes()),
    )
    return redirect("annotations:designer-monitor", slug=campaign.slug)
