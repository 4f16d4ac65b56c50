"""Forms of accounts: sign up (from an invitation)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import UserCreationForm


class SignUpForm(UserCreationForm):
    """A new account made from an invitation link (the email comes from the invitation).

    The password is checked by ``settings.AUTH_PASSWORD_VALIDATORS`` (``UserCreationForm``
    runs them) against the account as it will be, the invited address included, so a
    password like the address is refused too.
    """

    def __init__(self, *args: Any, email: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instance.email = email
