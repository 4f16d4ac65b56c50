"""A computed run of a planted campaign, its owner, and its exports through the API."""

from __future__ import annotations

from django.contrib.auth.models import User

from ranking.models import RankingRun
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create


def _owned(campaign) -> User:
    owner = User.objects.create_user(f"owner-{campaign.pk}")
    campaign.owner = owner
    campaign.save(update_fields=["owner"])
    return owner


def _rank(campaign, criterion, **kwargs) -> RankingRun:
    run = ranking_run_create(campaign=campaign, criterion=criterion, queue=False, **kwargs)
    return ranking_run_compute(run=run)


def _export(client, run, fmt: str) -> str:
    response = client.get(f"/api/rankings/{run.pk}/export/{fmt}/")
    assert response.status_code == 200, response.content
    return response.content.decode()
