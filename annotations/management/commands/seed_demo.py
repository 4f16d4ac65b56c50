"""``manage.py seed_demo``: the demo campaign, created once."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from annotations.services.demo import demo_campaign_seed


class Command(BaseCommand):
    help = (
        "Create the live demo campaign (synthetic E2E-style restaurant descriptions, six "
        "systems, both E2E criteria, tasks and simulated judgements) unless it exists."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        seeded = demo_campaign_seed()
        c = seeded.campaign
        what = "Created" if seeded.created else "Already there:"
        self.stdout.write(
            f"{what} demo campaign '{c.slug}' ({c.name}), status {c.status}: "
            f"{seeded.systems} systems, {seeded.items} items, {seeded.outputs} outputs, "
            f"{seeded.tasks} tasks, {seeded.judgements} judgements"
            + (" (simulated)." if seeded.created else ".")
        )
