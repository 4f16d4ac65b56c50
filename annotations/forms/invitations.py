"""Forms of invitations to a campaign."""

from __future__ import annotations

from django import forms

from annotations.models import CampaignMembership


class InvitationForm(forms.Form):
    email = forms.EmailField(max_length=254, label="Email address")
    role = forms.ChoiceField(choices=CampaignMembership.Role.choices, label="Role")
