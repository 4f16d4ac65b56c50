"""Instructions and consent in Markdown, sanitised, on the worker's consent page and its
preview; every criterion's question and scale explained."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.models import Criterion
from annotations.services.campaigns import campaign_create
from annotations.services.criteria import criterion_from_preset
from common.markdown import render_markdown
from tests.annotations.designer_data import users

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


@pytest.fixture
def campaign(db):
    people = users()
    campaign = campaign_create(
        slug="md",
        owner=people["owner"],
        instructions=ATTACKS,
        consent_text="By taking part you agree to **our terms**.\n\n<script>bad()</script>",
        tasks_per_worker=4,
    )
    criterion_from_preset(campaign=campaign, preset="quality")
    criterion_from_preset(campaign=campaign, preset="grammar")
    criterion_from_preset(campaign=campaign, preset="relevance")
    Criterion.objects.create(
        campaign=campaign, name="overall", question="How good overall?", scale="slider", position=3
    )
    campaign.criteria.filter(name="quality").update(scale_settings={"standard": 80})
    return campaign


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


def test_worker_consent_page_renders_sanitised_markdown_and_every_scale(client, campaign):
    campaign.status = "live"
    campaign.save(update_fields=["status"])
    response = client.get(f"/w/{campaign.slug}/", {"PROLIFIC_PID": "p1", "STUDY_ID": "s"})
    if response.status_code == 302:  # a known worker's session shows the consent page
        response = client.get(response["Location"])
    assert response.status_code == 200
    _check_page(response.content.decode(), campaign)


def test_designer_preview_of_the_consent_page(client, campaign):
    client.force_login(campaign.owner)
    response = client.get(reverse("annotations:designer-preview-intro", args=[campaign.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    _check_page(html, campaign)
    assert f'href="/w/{campaign.slug}/preview/"' in html and 'name="agree"' not in html
