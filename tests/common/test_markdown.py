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
