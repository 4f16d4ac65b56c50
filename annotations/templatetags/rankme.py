"""Template filters of the RankME parts of a task page (the standard exemplar)."""

from __future__ import annotations

from django import template

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
