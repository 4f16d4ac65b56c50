"""``manage.py seed_demo``: the demo campaigns (E2E-style and multilingual), created once."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from annotations.services.demo import DemoSeeded, demo_campaign_seed
from annotations.services.demo_multilingual import demo_multilingual_seed


class Command(BaseCommand):
    help = (
        "Create the live demo campaigns unless they exist: synthetic E2E-style restaurant "
        "descriptions (six systems, both E2E criteria) and multilingual MTG-style ones "
        "(four systems in en/de/fr/es, grammar/fluency/relevance), each with tasks and "
        "simulated judgements."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        self._report(demo_campaign_seed(), "demo campaign")
        self._report(demo_multilingual_seed(), "multilingual demo campaign")

    def _report(self, seeded: DemoSeeded, what_campaign: str) -> None:
        c = seeded.campaign
        what = "Created" if seeded.created else "Already there:"
        self.stdout.write(
            f"{what} {what_campaign} '{c.slug}' ({c.name}), status {c.status}: "
            f"{seeded.systems} systems, {seeded.items} items, {seeded.outputs} outputs, "
            f"{seeded.tasks} tasks, {seeded.judgements} judgements"
            + (" (simulated)." if seeded.created else ".")
        )
