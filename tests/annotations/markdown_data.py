"""Designer Markdown with every attack a page must neutralise, and what a page shows of it."""

from __future__ import annotations

ATTACKS = """\
# Before you start

- read **every** text
- then [score it](https://example.org/help)

<script>alert("x")</script>
<img src=x onerror="alert(1)">
<a href="javascript:alert(1)">click me</a>
[also me](javascript:alert(2))
<p onclick="alert(3)" style="color:red">styled</p>
<iframe src="https://evil.example"></iframe>
"""


def _check_page(html: str, campaign) -> None:
    assert "<h3>Before you start</h3>" in html
    assert "<strong>our terms</strong>" in html
    for bad in ("<script>alert", "bad()", "onerror", 'href="javascript:', "onclick"):
        assert bad not in html
    # Every criterion explained: its question and its scale, not only the first.
    for criterion in campaign.criteria.all():
        assert criterion.question in html
    assert "worth <strong>80</strong>" in html and "160" in html and "40" in html
    assert "Move each slider" in html
    # Both Likert criteria's own levels, not only the first one's.
    assert "Perfectly grammatical" in html
    assert "Expresses all of the input and nothing else" in html
