"""Template filters of the RankME parts of a task page (the standard exemplar)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from annotations.core.inputs import mr_attributes
from annotations.services.criteria import CONTENT_CHECKS

register = template.Library()

#: The E2E attributes (as ``attribute_label`` writes them) in the worker's language.
FACT_NAMES = {
    "name": _("name"),
    "eat type": _("eat type"),
    "food": _("food"),
    "price range": _("price range"),
    "customer rating": _("customer rating"),
    "area": _("area"),
    "family friendly": _("family friendly"),
    "near": _("near"),
}

#: The E2E values of a closed vocabulary, per attribute ("high" price is not "high"
#: rating); names of places and venues are never translated.
FACT_VALUES = {
    ("eat type", "coffee shop"): pgettext_lazy("E2E eat type", "coffee shop"),
    ("eat type", "pub"): pgettext_lazy("E2E eat type", "pub"),
    ("eat type", "restaurant"): pgettext_lazy("E2E eat type", "restaurant"),
    ("food", "Chinese"): pgettext_lazy("E2E food", "Chinese"),
    ("food", "English"): pgettext_lazy("E2E food", "English"),
    ("food", "Fast food"): pgettext_lazy("E2E food", "Fast food"),
    ("food", "French"): pgettext_lazy("E2E food", "French"),
    ("food", "Indian"): pgettext_lazy("E2E food", "Indian"),
    ("food", "Italian"): pgettext_lazy("E2E food", "Italian"),
    ("food", "Japanese"): pgettext_lazy("E2E food", "Japanese"),
    ("price range", "cheap"): pgettext_lazy("E2E price range", "cheap"),
    ("price range", "moderate"): pgettext_lazy("E2E price range", "moderate"),
    ("price range", "high"): pgettext_lazy("E2E price range", "high"),
    ("price range", "less than £20"): pgettext_lazy("E2E price range", "less than £20"),
    ("price range", "more than £30"): pgettext_lazy("E2E price range", "more than £30"),
    ("customer rating", "low"): pgettext_lazy("E2E customer rating", "low"),
    ("customer rating", "average"): pgettext_lazy("E2E customer rating", "average"),
    ("customer rating", "high"): pgettext_lazy("E2E customer rating", "high"),
    ("customer rating", "1 out of 5"): pgettext_lazy("E2E customer rating", "1 out of 5"),
    ("customer rating", "3 out of 5"): pgettext_lazy("E2E customer rating", "3 out of 5"),
    ("customer rating", "5 out of 5"): pgettext_lazy("E2E customer rating", "5 out of 5"),
    ("area", "city centre"): pgettext_lazy("E2E area", "city centre"),
    ("area", "riverside"): pgettext_lazy("E2E area", "riverside"),
    ("family friendly", "yes"): pgettext_lazy("E2E family friendly", "yes"),
    ("family friendly", "no"): pgettext_lazy("E2E family friendly", "no"),
}


@register.filter
def facts_shown(pairs: Any) -> list[dict[str, Any]]:
    """An input's (attribute, value) pairs as the worker reads them: the attribute, and
    values of E2E's closed vocabulary, in the worker's language (``translated``: the value
    was translated, so it is no longer in the input's language); others as given."""
    shown = []
    for name, value in pairs or []:
        value_shown = FACT_VALUES.get((name, value))
        shown.append(
            {
                "name": str(FACT_NAMES.get(name, name)),
                "value": str(value_shown) if value_shown is not None else value,
                "translated": value_shown is not None,
            }
        )
    return shown


@register.filter
def input_pairs(text: str) -> list[tuple[str, str]] | None:
    """An E2E meaning representation as (attribute, value) pairs, else None."""
    return mr_attributes(text or "")


@register.filter
def check_sentence(key: str) -> str:
    """A content check as the worker reads it beside its box, in the worker's language
    (``services.criteria.CONTENT_CHECKS``, the one wording)."""
    return str(CONTENT_CHECKS.get(key, key))


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
