"""Forms of the members page: add a member by user name, invite one by email."""

from __future__ import annotations

from django import forms

from annotations.models import CampaignMembership


class MemberForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=CampaignMembership.Role.choices)


class InvitationForm(forms.Form):
    email = forms.EmailField(max_length=254, label="Email address")
    role = forms.ChoiceField(choices=CampaignMembership.Role.choices, label="Role")
