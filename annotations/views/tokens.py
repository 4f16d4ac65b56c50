"""The user's page: their API token, shown and replaced."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from annotations.access.campaigns import campaigns_visible_to
from annotations.selectors.tokens import token_of
from annotations.services.tokens import token_rotate
from common.http import AuthenticatedHttpRequest


@login_required
@require_http_methods(["GET", "POST"])
def account(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The user's page: their API token (POST makes a new one, revoking the old)."""
    if request.method == "POST":
        token_rotate(user=request.user)
        messages.success(request, "A new API token was created; the old one no longer works.")
        return HttpResponseRedirect(reverse("annotations:designer-account"))
    return render(
        request,
        "annotations/tokens/account.html",
        {
            "token": token_of(user=request.user),
            "campaigns": campaigns_visible_to(request.user),
        },
    )
