"""Help texts are escaped: Django's form templates print ``help_text|safe``, and some of
ours carry campaign data (the rankings page's slice field lists item attribute values)."""

from __future__ import annotations

import pytest
from django import forms
from django.urls import reverse
from django.utils.html import format_html

from annotations.models import Item
from tests.annotations.designer_data import judged_campaign, users
from tests.flows.security.inert import html_problems

pytestmark = pytest.mark.django_db

META = '<meta http-equiv="refresh" content="0;url=https://evil.example">'


def test_an_item_attribute_in_the_slice_help_text_does_not_redirect_the_page(client):
    owner = users()["owner"]
    campaign = judged_campaign(owner=owner)
    Item.objects.filter(campaign=campaign).update(attributes={"domain": META})
    client.force_login(owner)
    html = client.get(reverse("ranking:campaign-runs", args=[campaign.slug])).content.decode()
    assert "This campaign&#x27;s attributes: domain (&lt;meta http-equiv=" in html
    assert html_problems(html) == []


class _Form(forms.Form):
    text = forms.CharField(help_text="<b>bold</b> & more")
    rules = forms.CharField(help_text=format_html("<ul><li>{}</li></ul>", "a rule"))


@pytest.mark.parametrize("how", ["as_div", "as_p", "as_table", "as_ul"])
def test_every_form_layout_escapes_help_text_but_keeps_html_marked_safe(how):
    html = str(getattr(_Form(), how)())
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; more" in html and "<b>" not in html
    # A help text a developer built with format_html (the password rules) stays HTML.
    assert "<ul><li>a rule</li></ul>" in html


def test_a_single_field_group_escapes_help_text():
    html = str(_Form()["text"].as_field_group())
    assert "&lt;b&gt;" in html and "<b>" not in html


@pytest.mark.parametrize("name", ["field", "p", "table", "ul"])
def test_our_form_templates_are_djangos_but_for_the_escaped_help_text(name, settings):
    """templates/django/forms/ copies Django's own; a Django upgrade that changes them
    fails here, so the copies are refreshed rather than silently stale."""
    from pathlib import Path

    import django

    theirs = (
        Path(django.__file__).parent / f"forms/templates/django/forms/{name}.html"
    ).read_text()
    ours = (Path(settings.BASE_DIR) / f"templates/django/forms/{name}.html").read_text()
    assert "help_text|safe" in theirs
    assert ours == theirs.replace("field.help_text|safe", "field.help_text")
