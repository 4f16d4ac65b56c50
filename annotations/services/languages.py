"""Writes about the languages workers judge in: enrolment in a language, its quota."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from django.db import transaction

from annotations.core.languages import LanguageError, language_check
from annotations.models import Campaign, Worker
from common.errors import DomainError


class LanguageQuotaFull(DomainError):
    """The campaign admits no more workers in this language."""


def campaign_language_for(*, campaign: Campaign, language: str = "") -> str:
    """``language`` if the campaign has it (normalised), else the campaign's first language."""
    languages = list(campaign.languages or ["en"])
    if language:
        try:
            tag = language_check(language)
        except LanguageError:
            return languages[0]
        if tag in languages:
            return tag
    return languages[0]


def language_quota_full(*, campaign: Campaign, language: str) -> bool:
    """True when the campaign's quota for ``language`` is reached by consented workers."""
    quota = (campaign.language_quotas or {}).get(language)
    if quota is None:
        return False
    taken = Worker.objects.filter(
        campaign=campaign, language=language, consented_at__isnull=False
    ).count()
    return taken >= int(quota)


@contextmanager
def language_quota_held(
    *, campaign: Campaign, language: str, platform: str, external_id: str
) -> Iterator[None]:
    """Enrol inside this block: ``LanguageQuotaFull`` if ``language`` admits no more workers.

    A worker who already consented is never refused. Costs nothing unless the language
    has a quota; then the block is one transaction holding the campaign row, so two
    enrolments cannot both take the last place, and a refusal writes nothing.
    """
    if language not in (campaign.language_quotas or {}):
        yield
        return
    with transaction.atomic():
        Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
        known = Worker.objects.filter(
            campaign=campaign,
            platform=platform,
            external_id=external_id.strip(),
            consented_at__isnull=False,
        ).exists()
        if not known and language_quota_full(campaign=campaign, language=language):
            raise LanguageQuotaFull(f"All places for workers in '{language}' are taken.")
        yield


def campaign_languages_add(
    *, campaign: Campaign, languages: Iterable[str], first: bool = False
) -> list[str]:
    """The campaign holds every language an import brings (after its own, in order).

    ``first``: the campaign had no items before; its untouched default (English) then
    gives way to the imported languages when they have no English. Returns the
    campaign's languages."""
    brought = [tag for tag in dict.fromkeys(languages) if tag]
    held = list(campaign.languages or [])
    if first and held == ["en"] and brought and "en" not in brought:
        held = []
    added = [tag for tag in brought if tag not in held]
    if added or held != list(campaign.languages or []):
        campaign.languages = held + added
        campaign.save(update_fields=["languages"])
    return list(campaign.languages)
