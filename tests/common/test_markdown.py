"""``common.markdown``: designer Markdown is rendered and sanitised once per text."""

from __future__ import annotations

from common import markdown


def test_the_same_text_is_rendered_once(monkeypatch):
    # Every task page a worker fetches shows the campaign's instructions: rendering and
    # sanitising them again on each fetch was a cost per request of the hot path.
    calls: list[str] = []
    real = markdown.sanitise_html

    def counting(html: str) -> str:
        calls.append(html)
        return real(html)

    monkeypatch.setattr(markdown, "sanitise_html", counting)
    markdown._rendered.cache_clear()
    text = "Read **each** output.\n\n<script>alert(1)</script>[a link](https://example.org)"
    first = markdown.render_markdown(text)
    again = markdown.render_markdown(text)
    assert first == again and "<strong>each</strong>" in first and "script" not in first
    assert len(calls) == 1
    markdown.render_markdown(text + " More.")
    assert len(calls) == 2


def test_a_designers_headings_sit_under_the_pages_own() -> None:
    """The walk-through: '# heading' in instructions rendered larger than the page's own
    'Instructions' heading. Headings shift two levels; raw h1/h2 keep only their text."""
    from common.markdown import render_markdown

    html = str(render_markdown("# Big\n\n## Sub\n\n###### Six\n\n<h1>raw</h1>"))
    assert "<h3>Big</h3>" in html and "<h4>Sub</h4>" in html and "<h6>Six</h6>" in html
    assert "<h1>" not in html and "<h2>" not in html and "raw" in html
