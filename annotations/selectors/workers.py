"""Reads of a campaign's crowd workers: one by id, and the list the workers API pages
through. Their figures (tasks done, checks, agreement) are the monitor's worker table,
``selectors.monitor.worker_table``; the writes are ``services.workers``."""

from __future__ import annotations

from django.db.models import QuerySet

from annotations.models import Campaign, Worker


def worker_by_id(campaign: Campaign, pk: int) -> Worker | None:
    """The campaign's worker with id ``pk``, or None (another campaign's is None too)."""
    return campaign.workers.filter(pk=pk).first()


def workers_listed(
    *,
    campaign: Campaign,
    flagged: bool | None = None,
    excluded: bool | None = None,
    platform: str = "",
) -> QuerySet[Worker]:
    """The campaign's workers, newest first; only the flagged (or unflagged), excluded
    (or not) and of one platform when those are given."""
    qs = campaign.workers.all()
    if flagged is not None:
        qs = qs.filter(flagged=flagged)
    if excluded is not None:
        qs = qs.filter(excluded=excluded)
    if platform:
        qs = qs.filter(platform=platform)
    return qs.order_by("-created_at", "id")
