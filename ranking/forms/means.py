"""The MTG-style table's form: which criterion, at which confidence level, page or CSV."""

from __future__ import annotations

from django import forms

from common.forms import bounded_number
from ranking.selectors.runs import CONFIDENCE_RANGE


class MeansForm(forms.Form):
    """The bounds are the selector's, as the API's (``ranking.serializers.means``); blank
    means every criterion, at 95%."""

    criterion = forms.CharField(required=False, max_length=64)
    confidence = bounded_number(CONFIDENCE_RANGE, required=False)
    format = forms.ChoiceField(choices=[("", "page"), ("csv", "CSV")], required=False)
