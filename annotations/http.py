"""Request types for views' annotations (typing only; nothing here runs differently).

``HtmxHttpRequest`` is django-htmx's documented pattern: its middleware sets
``request.htmx``, which ``HttpRequest`` does not declare. ``AuthenticatedHttpRequest`` is
django-stubs' documented pattern for views behind ``login_required``, whose
``request.user`` is a ``User``, never an ``AnonymousUser``.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthenticatedHttpRequest(HttpRequest):
    user: User
