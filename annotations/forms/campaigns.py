"""Forms of campaigns: create and clone."""

from __future__ import annotations

from django import forms

from common.forms import SiteLabels


def _slug_from_name(help_text: str) -> forms.SlugField:
    """A campaign's slug, suggested from its ``name`` field as the name is typed, until
    the slug is edited (``data-slug-from`` in static/js/humaneval.js)."""
    return forms.SlugField(
        max_length=64,
        help_text=help_text,
        widget=forms.TextInput(attrs={"data-slug-from": "id_name"}),
    )


class CampaignCloneForm(SiteLabels, forms.Form):
    name = forms.CharField(max_length=200)
    slug = _slug_from_name("Short name used in links; a new one for the new round.")


class CampaignCreateForm(SiteLabels, forms.Form):
    name = forms.CharField(max_length=200)
    slug = _slug_from_name("Short name used in links, e.g. e2e-quality-2024.")
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
