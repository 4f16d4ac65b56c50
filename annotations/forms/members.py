"""Forms of members: add by user name."""

from __future__ import annotations

from django import forms

from annotations.models import CampaignMembership


class MemberForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=CampaignMembership.Role.choices)
