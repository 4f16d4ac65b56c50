"""Designer Markdown (common/markdown.py) keeps structure and drops anything active."""

from __future__ import annotations

import pytest

from common.markdown import render_markdown
from tests.annotations.markdown_data import ATTACKS


def test_markdown_keeps_headings_lists_and_links():
    html = render_markdown(ATTACKS)
    assert "<h3>Before you start</h3>" in html
    assert "<li>read <strong>every</strong> text</li>" in html
    assert '<a href="https://example.org/help"' in html and 'target="_blank"' in html
    assert 'rel="noopener noreferrer nofollow"' in html


@pytest.mark.parametrize(
    "bad",
    [
        "<script",
        'alert("x")',
        "onerror",
        'href="javascript:',
        "onclick",
        "style=",
        "<iframe",
        "<img",
    ],
)
def test_markdown_strips_scripts_handlers_and_javascript_links(bad):
    assert bad not in render_markdown(ATTACKS)


def test_markdown_of_nothing_is_nothing():
    assert render_markdown("") == "" and render_markdown("  \n") == ""


@pytest.mark.parametrize(
    "text",
    [
        "Hello <iframe src=x> world",
        'Read this.\n\n<iframe src="https://evil">\n\nMore text',
        "<noscript>unseen</p></noscript> after",
    ],
)
def test_an_unclosed_raw_text_element_leaves_no_literal_markup(text):
    """A reviewer's stray <iframe>: the sanitiser kept its raw-text content, so the
    closing tags after it showed as a literal "</p>" on the worker's page."""
    from common.markdown import render_markdown

    html = str(render_markdown(text))
    assert "&lt;" not in html and "iframe" not in html and "unseen" not in html
