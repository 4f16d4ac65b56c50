"""Template filters of the RankME parts of a task page (the standard exemplar)."""

from __future__ import annotations

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
