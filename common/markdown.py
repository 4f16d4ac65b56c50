"""Designer-written Markdown (instructions, consent) as safe HTML for worker pages.

markdown-it-py (CommonMark, plus tables and strikethrough) renders; nh3 (the Rust
``ammonia`` sanitiser) then keeps only an allow-list of tags and attributes. Raw HTML in
the text is allowed through the renderer on purpose, so that the sanitiser, not the
renderer's escaping, is the one rule: scripts and styles go with their content, event
handlers (``onerror=``...) and ``javascript:``/``data:`` links are dropped, and links open
in a new tab so that a worker never leaves a task by following one. Images are not
allowed: they would load from other hosts (the worker pages' CSP forbids that, and it
would tell a third party who the workers are).
"""

from __future__ import annotations

from functools import lru_cache

import nh3
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

ALLOWED_TAGS = frozenset(
    {
        "a",
        "abbr",
        "b",
        "blockquote",
        "br",
        "code",
        "del",
        "em",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "i",
        "li",
        "ol",
        "p",
        "pre",
        "s",
        "strong",
        "sub",
        "sup",
        "table",
        "tbody",
        "td",
        "th",
        "thead",
        "tr",
        "ul",
    }
)
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "abbr": {"title"}, "ol": {"start"}}
URL_SCHEMES = frozenset({"http", "https", "mailto"})
#: elements dropped with their content (HTML's raw-text and escapable raw-text elements,
#: and the others whose content a browser does not render as the page's text)
RAW_TEXT_TAGS = frozenset(
    {"script", "style", "iframe", "noembed", "noframes", "noscript", "xmp", "textarea", "title"}
)


#: a designer's headings sit under the page's own (its title is h1, its sections h2):
#: ``#`` renders as h3, ``##`` as h4, and so on down to h6
HEADING_SHIFT = 2


def _demote_headings(state: StateCore) -> None:
    for token in state.tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(int(token.tag[1]) + HEADING_SHIFT, 6)}"


@lru_cache(maxsize=1)
def _renderer() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True, "breaks": True}).enable(["table", "strikethrough"])
    md.core.ruler.push("demote_headings", _demote_headings)
    return md


def sanitise_html(html: str) -> str:
    """Only the allowed tags, attributes and link schemes of ``html``."""
    return nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        # Raw-text elements whose content a browser never shows as text: an unclosed
        # <iframe> made the rest of the text, closing tags included, a literal "</p>".
        clean_content_tags=set(RAW_TEXT_TAGS),
        attributes={tag: set(attrs) for tag, attrs in ALLOWED_ATTRIBUTES.items()},
        url_schemes=set(URL_SCHEMES),
        link_rel="noopener noreferrer nofollow",
        set_tag_attribute_values={"a": {"target": "_blank"}},
    )


def render_markdown(text: str) -> SafeString:
    """Markdown to sanitised HTML, safe to insert in a page as it is."""
    if not text or not text.strip():
        return mark_safe("")
    return mark_safe(_rendered(text))


@lru_cache(maxsize=256)
def _rendered(text: str) -> str:
    # A pure function of the text: a campaign's instructions, rendered on every task page
    # a worker fetches, are rendered and sanitised once per process.
    return sanitise_html(_renderer().render(text))
