"""A multilingual campaign rated on a Likert scale, for the means tests."""

from __future__ import annotations

import numpy as np

from annotations.models import (
    CampaignMembership,
    Output,
    Task,
    TaskOutput,
    Worker,
)
from annotations.services.criteria import criterion_from_preset
from tests.factories import CampaignFactory, ItemFactory, SystemFactory, judgement_of

# Planted mean ratings per language and system (workers add noise of +-1 level).
PLANTED = {"de": {"good": 4.5, "weak": 2.0}, "fr": {"good": 3.0, "weak": 3.5}}


def _judge(campaign, criterion, worker, language, scores, n):
    item = ItemFactory(campaign=campaign, external_id=f"{language}-{n}", language=language)
    task = Task.objects.create(
        campaign=campaign, criterion=criterion, item=item, kind="imported", language=language
    )
    for slot, system in enumerate(scores):
        output = Output.objects.create(
            item=item, system=system, text=f"{system.label} {n}", language=language
        )
        TaskOutput.objects.create(task=task, output=output, slot=slot)
    judgement_of(task, worker, list(scores.values()), kind="imported")


def rated_campaign(n: int = 30, seed: int = 3):
    """Two systems rated 1-5 on grammar in de and fr; returns the campaign, criterion and
    every rating given, by (system, language)."""
    rng = np.random.default_rng(seed)
    campaign = CampaignFactory(languages=["de", "fr"])
    grammar = criterion_from_preset(campaign=campaign, preset="grammar")
    systems = {label: SystemFactory(campaign=campaign, label=label) for label in ("good", "weak")}
    workers = {
        tag: [
            Worker.objects.create(
                campaign=campaign, platform="imported", external_id=f"{tag}{i}", language=tag
            )
            for i in range(4)
        ]
        for tag in PLANTED
    }
    given: dict[tuple[str, str], list[float]] = {}
    for tag, planted in PLANTED.items():
        for j in range(n):
            scores = {
                systems[label]: float(np.clip(round(mean + rng.normal(0, 1)), 1, 5))
                for label, mean in planted.items()
            }
            for system, value in scores.items():
                given.setdefault((system.label, tag), []).append(value)
            _judge(campaign, grammar, workers[tag][j % 4], tag, scores, j)
    return campaign, grammar, given


def _member(django_user_model, campaign, role="viewer"):
    user = django_user_model.objects.create_user(f"u-{role}", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role=role)
    return user
