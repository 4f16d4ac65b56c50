"""Template filters of the RankME parts of a task page (the standard exemplar)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext_lazy as _

from annotations.selectors.worker import mr_attributes
from annotations.services.criteria import CONTENT_CHECKS

register = template.Library()


@register.filter
def input_pairs(text: str) -> list[tuple[str, str]] | None:
    """An E2E meaning representation as (attribute, value) pairs, else None."""
    return mr_attributes(text or "")


@register.filter
def check_label(key: str) -> str:
    """What a worker reads beside a content check's box."""
    return CONTENT_CHECKS.get(key, key)


#: what a worker reads beside each content check's box, whole sentences to translate
CHECK_SENTENCES = {
    "added": _("It contains information not in the input"),
    "missing": _("It misses information from the input"),
    "perfect": _("It reflects the input perfectly"),
}


@register.filter
def check_sentence(key: str) -> str:
    """A content check as the worker reads it, in the worker's language."""
    sentence = CHECK_SENTENCES.get(key)
    return str(sentence) if sentence is not None else f"It {check_label(key)}"


@register.filter
def text_for_worker(campaign: Any, field: str) -> str:
    """A campaign text (``name``, ``description``, ``instructions``, ``consent_text``) in
    the language of the page (the worker's), where the designer translated it
    (``Campaign.translations``), else as entered."""
    from django.utils.translation import get_language

    from annotations.core.languages import CAMPAIGN_TEXTS, translated_for

    if campaign is None or field not in CAMPAIGN_TEXTS:
        return ""
    texts = translated_for(getattr(campaign, "translations", None), get_language() or "en")
    return str(texts.get(field) or getattr(campaign, field) or "")


@register.filter
def name_for_worker(campaign: Any) -> str:
    """The campaign's name in the worker's language (see :func:`text_for_worker`)."""
    return text_for_worker(campaign, "name")
