"""The Languages pages: a campaign's languages and quotas, and what workers read in each
language (the designer's translations), under /campaigns/<slug>/languages/."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from annotations.access.pages import (
    campaign_access,
    campaign_context,
    campaign_require,
    campaign_view,
)
from annotations.core.languages import LanguageError, direction, language_check
from annotations.forms.languages import LanguagesForm, TranslationForm, language_name
from annotations.models import Campaign, CampaignMembership
from annotations.selectors import languages as language_selectors
from annotations.services import languages as language_services
from common.errors import DomainError
from common.forms import form_refused

Role = CampaignMembership.Role


def _ended(campaign: Campaign) -> bool:
    return campaign.has_ended


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def campaign_languages(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """The campaign's languages and quotas (editors change them) and, per language, how
    much of what workers read is translated."""
    form = LanguagesForm(request.POST or None, campaign=campaign)
    if not campaign_access(request, campaign).can_design:
        # A viewer reads the languages and quotas: inputs they could not save are shown
        # disabled (read-only), with no Save button.
        for field in form.fields.values():
            field.disabled = True
    if request.method == "POST":
        campaign_require(
            request, campaign, Role.DESIGNER, denied="Viewers cannot change languages."
        )
        if form.is_valid():
            try:
                language_services.campaign_languages_update(
                    campaign=campaign,
                    languages=form.cleaned_data["languages"],
                    quotas=form.quotas(),
                )
            except DomainError as exc:
                # A quota's field is "quotas.<tag>" to the API, "quota-<tag>" on the page.
                form_refused(form, exc, field=exc.field.replace("quotas.", "quota-", 1))
            else:
                messages.success(request, "Languages saved.")
                return redirect("annotations:designer-languages", slug=campaign.slug)
    statuses = {s.language: s for s in language_selectors.translations_needed(campaign=campaign)}
    progress = {p.language: p for p in language_selectors.language_progress(campaign=campaign)}
    rows = [
        {
            "tag": tag,
            "name": language_name(tag),
            "dir": direction(tag),
            "first": i == 0,
            "status": statuses.get(tag),
            "progress": progress.get(tag),
        }
        for i, tag in enumerate(campaign.languages_or_default)
    ]
    return render(
        request,
        "annotations/languages/languages.html",
        campaign_context(request, campaign, form=form, rows=rows, ended=_ended(campaign)),
    )


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def campaign_translation(request: HttpRequest, campaign: Campaign, tag: str) -> HttpResponse:
    """What a worker judging in ``tag`` reads: each original text beside its translation
    (editors write them; blank means the worker reads the original)."""
    try:
        tag = language_check(tag)
    except LanguageError:
        raise Http404("No such language.") from None
    languages = campaign.languages_or_default
    if tag not in languages[1:]:
        raise Http404("The campaign has no such language to translate into.")
    context = campaign_context(request, campaign)
    editable = bool(context["can_design"]) and not _ended(campaign)
    status = language_selectors.translation_status(campaign=campaign, language=tag)
    form = TranslationForm(request.POST or None, status=status, editable=editable)
    if request.method == "POST":
        campaign_require(
            request, campaign, Role.DESIGNER, denied="Viewers cannot change translations."
        )
        if form.is_valid():
            texts, criteria = form.translations()
            try:
                language_services.campaign_translations_update(
                    campaign=campaign, language=tag, texts=texts, criteria=criteria
                )
            except DomainError as exc:
                form_refused(form, exc)
            else:
                messages.success(request, f"Translations into {language_name(tag)} saved.")
                return redirect("annotations:designer-translation", slug=campaign.slug, tag=tag)
    context.update(
        form=form,
        tag=tag,
        name=language_name(tag),
        original=languages[0],
        original_dir=direction(languages[0]),
        editable=editable,
        status=status,
    )
    return render(request, "annotations/languages/translation.html", context)
