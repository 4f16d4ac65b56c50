"""The rating import page: map a file's columns, preview the first rows as parsed, save
the mapping as a preset, import (the same services as the API and ``import_ratings``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from annotations.access.pages import campaign_context, campaign_view
from annotations.forms.mapped import MappingForm
from annotations.importing.mapped import (
    MappedImported,
    mapped_columns_upload,
    mapped_preview_upload,
    mapped_upload,
)
from annotations.importing.mapped_criteria import mapped_preview_scales
from annotations.importing.mappings import (
    MappingOffered,
    mapping_parse,
    mappings_offered,
    rating_mapping_save,
)
from annotations.importing.parsers.mapped.header import header_problems
from annotations.importing.parsers.mapped.mapping import Mapping
from annotations.importing.uploads import UploadTooLargeError, uploads_read
from annotations.models import Campaign, CampaignMembership
from common.errors import DomainError, ImportFileError

Role = CampaignMembership.Role
TEMPLATE = "annotations/mapped/mapped_import.html"
PREVIEW_ROWS = 5


def _page(
    request: HttpRequest, campaign: Campaign, form: MappingForm, status: int = 200, **extra: Any
) -> HttpResponse:
    context = campaign_context(
        request, campaign, form=form, presets=mappings_offered(campaign=campaign), **extra
    )
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
        return _preset_page(request, campaign, request.GET.get("preset", ""))
    form = MappingForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, campaign, form, status=400)
    action = request.POST.get("action", "preview")
    try:
        mapping = mapping_parse(form.mapping_dict())
        if action == "save":
            return _saved(request, campaign, form, mapping)
    except DomainError as exc:
        return _refused(request, campaign, form, exc)
    file = request.FILES.get("file")
    if file is None:
        form.add_error("file", "Choose the file to preview or import.")
        return _page(request, campaign, form, status=400)
    return _from_file(request, campaign, form, mapping, file, importing=action == "import")


def _preset_page(request: HttpRequest, campaign: Campaign, chosen: str) -> HttpResponse:
    """The form, filled from the preset named ``chosen`` if there is one."""
    offered = mappings_offered(campaign=campaign)
    preset: MappingOffered | None = next((p for p in offered if p.name == chosen), None)
    form = MappingForm(initial=MappingForm.initial_from(preset.mapping) if preset else {})
    return _page(request, campaign, form, chosen=chosen if preset else "")


def _saved(
    request: HttpRequest, campaign: Campaign, form: MappingForm, mapping: Mapping
) -> HttpResponse:
    """Save the mapping as a preset of the campaign; the form again, filled from it."""
    name = form.cleaned_data.get("save_as") or ""
    saved = rating_mapping_save(campaign=campaign, name=name, mapping=mapping, user=request.user)
    messages.success(request, f"Saved the mapping as the preset '{saved.name}'.")
    url = reverse("annotations:designer-mapped-import", kwargs={"slug": campaign.slug})
    return redirect(f"{url}?preset={saved.name}")


def _from_file(
    request: HttpRequest,
    campaign: Campaign,
    form: MappingForm,
    mapping: Mapping,
    file: UploadedFile,
    *,
    importing: bool,
) -> HttpResponseBase:
    """Preview the file's first rows as parsed, or import it (then on to the import's job,
    or to the monitor with what was imported)."""
    columns: list[str] = []
    try:
        (upload,) = uploads_read(files=[file])
        columns = list(mapping.columns) or mapped_columns_upload(upload=upload, fmt=mapping.format)
        if not importing:
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
    except DomainError as exc:
        return _refused(request, campaign, form, exc, mapping, columns)
    if outcome.job is not None:
        return redirect("annotations:designer-import-job", slug=campaign.slug, pk=outcome.job.pk)
    assert outcome.result is not None
    messages.success(request, _imported(outcome.result))
    return redirect("annotations:designer-monitor", slug=campaign.slug)


def _refused(
    request: HttpRequest,
    campaign: Campaign,
    form: MappingForm,
    exc: DomainError,
    mapping: Mapping | None = None,
    columns: list[str] | None = None,
) -> HttpResponse:
    """The form again, saying why: a file that cannot be read (413 if too large), with
    the columns the mapping reads and its header lacks; else the rule that refused."""
    if not isinstance(exc, ImportFileError):
        return _page(request, campaign, form, status=400, refusal=str(exc))
    columns = columns or []
    missing = (
        header_problems(mapping, columns)
        if mapping is not None and columns and mapping.format != "jsonl"
        else []
    )
    return _page(
        request,
        campaign,
        form,
        status=413 if isinstance(exc, UploadTooLargeError) else 400,
        import_error=exc,
        columns=columns,
        missing_columns=missing,
    )


def _imported(r: MappedImported) -> str:
    """What an import during the request did, in a sentence and its notes."""
    return (
        f"Imported {r.judgements} judgements from {r.rows} rows of {r.file} "
        f"({', '.join(r.criteria)}): {r.items_created} new items, {r.outputs_created} new "
        f"outputs, {r.workers} worker{'s' if r.workers != 1 else ''}"
        + (f"; {r.skipped} skipped." if r.skipped else ".")
        + "".join(f" {note}" for note in r.notes())
    )
