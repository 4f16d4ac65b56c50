"""``{% load humaneval_markdown %}`` then ``{{ text|markdown }}``: sanitised Markdown."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from common.markdown import render_markdown

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text: str | None) -> SafeString:
    return render_markdown(text or "")
