"""Forms of members and invitations: add a member by user name, invite one by email, sign
up from an invitation."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm

from annotations.models import CampaignMembership


class MemberForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=CampaignMembership.Role.choices)


class InvitationForm(forms.Form):
    email = forms.EmailField(max_length=254, label="Email address")
    role = forms.ChoiceField(choices=CampaignMembership.Role.choices, label="Role")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Its own ids: the members page also shows MemberForm, which has a role too.
        kwargs.setdefault("auto_id", "id_invite_%s")
        super().__init__(*args, **kwargs)


class SignUpForm(UserCreationForm):
    """A new account made from an invitation link (the email comes from the invitation).

    The password is checked by ``settings.AUTH_PASSWORD_VALIDATORS`` (``UserCreationForm``
    runs them) against the account as it will be, the invited address included, so a
    password like the address is refused too.
    """

    def __init__(self, *args: Any, email: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instance.email = email
