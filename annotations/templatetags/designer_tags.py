"""Template filters of the designer pages."""

from __future__ import annotations

from django import template
from django.db.models import QuerySet

from annotations.models import Campaign
from annotations.permissions import campaigns_visible_to

register = template.Library()


@register.filter
def visible_to(campaigns: QuerySet[Campaign], user: object) -> QuerySet[Campaign]:
    """Only the campaigns ``user`` owns or is a member of (none for anonymous users)."""
    return campaigns.filter(pk__in=campaigns_visible_to(user).values("pk"))  # type: ignore[arg-type]
