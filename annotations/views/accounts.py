"""Account pages of our own: the password-reset request, throttled."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import HttpResponse
from django.shortcuts import render

from common.auth import client_ip_address
from common.throttle import throttle_hit


def reset_throttle_message() -> str:
    minutes = max(1, round(settings.PASSWORD_RESET_WINDOW / 60))
    return (
        "Too many password-reset requests for this address or from this network. No "
        f"email was sent; try again in {minutes} minutes. If a link was sent before, it "
        "still works."
    )


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, at most ``PASSWORD_RESET_MAX_PER_ADDRESS`` requests per
    address and ``PASSWORD_RESET_MAX_PER_CLIENT`` per client address in
    ``PASSWORD_RESET_WINDOW`` seconds; beyond that a 429 says so and no mail goes out.

    Requests are counted by the address typed, whether or not an account has it, so the
    answer never tells which addresses have accounts.
    """

    def form_valid(self, form: Any) -> HttpResponse:
        address = form.cleaned_data["email"].strip().casefold()
        client = client_ip_address(self.request) or "unknown"
        window = settings.PASSWORD_RESET_WINDOW
        over_client = throttle_hit(
            scope="password-reset-client",
            key=client,
            limit=settings.PASSWORD_RESET_MAX_PER_CLIENT,
            window=window,
        )
        over_address = throttle_hit(
            scope="password-reset-address",
            key=address,
            limit=settings.PASSWORD_RESET_MAX_PER_ADDRESS,
            window=window,
        )
        if over_client or over_address:
            response = render(
                self.request,
                self.template_name or "registration/password_reset_form.html",
                {**self.get_context_data(form=form), "throttled": reset_throttle_message()},
                status=429,
            )
            response["Retry-After"] = str(window)
            return response
        return super().form_valid(form)
