"""The consent form of a worker's session (the 400s)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class ConsentForm(forms.Form):
    agree = forms.BooleanField(
        required=True,
        label=_("I have read the information above and agree to take part."),
        error_messages={"required": _("Please tick the box to agree before you start.")},
    )
