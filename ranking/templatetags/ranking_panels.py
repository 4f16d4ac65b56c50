"""Ranking panels other apps' pages include without importing ranking.

``{% load ranking_panels %}{% campaign_ranking_runs campaign %}`` on the campaign page:
annotations renders the panel by name, so the dependency points from ranking (which
knows about campaigns) and never from annotations to ranking.
"""

from __future__ import annotations

from typing import Any

from django import template

from annotations.models import Campaign
from ranking.selectors.runs import ranking_runs_recent

register = template.Library()


@register.inclusion_tag("ranking/ranking_panels/_campaign_runs_panel.html", takes_context=True)
def campaign_ranking_runs(context: template.Context, campaign: Campaign) -> dict[str, Any]:
    """The campaign's latest ranking runs with links to them, and a link to start one
    (``can_design`` from the page) or to see them all."""
    return {
        "campaign": campaign,
        "runs": ranking_runs_recent(campaign=campaign),
        "can_design": context.get("can_design", False),
    }
