"""The multilingual demo campaign (annotations/services/demo_multilingual.py): live in four
languages, translated, judged by workers of each language, seeded once."""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np
import pytest

from annotations.core.demo_multilingual import (
    LANGUAGES,
)
from annotations.core.languages import CRITERION_TEXTS, translations_check
from annotations.models import Assignment, Campaign, Judgement, JudgementScore, Output, Task, Worker
from annotations.selectors.sessions import campaign_in_language, criterion_in_language
from annotations.services.demo import demo_campaign_seed
from annotations.services.demo_multilingual import (
    DEMO_MTG_CRITERION_TRANSLATIONS,
    DEMO_MTG_SLUG,
    demo_multilingual_seed,
)
from tests.factories import CampaignFactory

# -- the seeded campaign ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_campaign_is_live_in_four_languages_with_single_language_tasks():
    seeded = demo_multilingual_seed()
    campaign = seeded.campaign
    assert seeded.created
    assert (campaign.slug, campaign.status) == (DEMO_MTG_SLUG, "live")
    assert campaign.languages == ["en", "de", "fr", "es"]
    assert list(campaign.criteria.values_list("name", "scale")) == [
        ("grammar", "likert"),
        ("fluency", "likert"),
        ("relevance", "likert"),
    ]
    assert (seeded.systems, seeded.items, seeded.outputs) == (4, 48, 192)
    # 4 systems in tasks of 4: one task per item and criterion.
    assert seeded.tasks == 48 * 3
    assert set(campaign.items.values_list("language", flat=True)) == set(LANGUAGES)
    for item in campaign.items.all():
        assert item.external_id.startswith(f"{item.language}-")
    tasks = Task.objects.filter(campaign=campaign).prefetch_related("task_outputs__output")
    assert tasks.exists()
    for task in tasks:
        assert task.language in LANGUAGES
        assert {to.output.language for to in task.task_outputs.all()} == {task.language}
        assert task.item.language == task.language
    assert Counter(
        Task.objects.filter(campaign=campaign, kind="regular").values_list("language", flat=True)
    ) == {lang: 36 for lang in LANGUAGES}


@pytest.mark.django_db
def test_campaign_and_criteria_are_translated_into_german_french_and_spanish():
    campaign = demo_multilingual_seed().campaign
    assert set(campaign.translations) == {"de", "fr", "es"}
    for language in ("de", "fr", "es"):
        texts = campaign.translations[language]
        assert set(texts) == {"name", "description", "instructions", "consent_text"}
        assert all(texts[f] != getattr(campaign, f) for f in texts)
        shown = campaign_in_language(campaign, language)
        assert shown.instructions == texts["instructions"] and shown.name == texts["name"]
    assert "Grammatik" in campaign.translations["de"]["instructions"]
    for criterion in campaign.criteria.all():
        assert set(criterion.translations) == {"de", "fr", "es"}
        translations_check(
            criterion.translations, CRITERION_TEXTS, levels=len(criterion.likert_levels)
        )
        for language, texts in criterion.translations.items():
            assert len(texts["levels"]) == len(criterion.likert_levels) == 5
            assert texts["question"] != criterion.question
            assert texts == DEMO_MTG_CRITERION_TRANSLATIONS[criterion.name][language]
    grammar = campaign.criteria.get(name="grammar")
    german = criterion_in_language(grammar, "de")
    assert german.question == "Wie grammatisch korrekt ist der Text?"
    assert [level["descriptor"] for level in german.likert_levels][-1] == (
        "Grammatisch einwandfrei"
    )
    assert [level["value"] for level in german.likert_levels] == [1, 2, 3, 4, 5]
    assert criterion_in_language(grammar, "en").question == grammar.question


@pytest.mark.django_db
def test_simulated_judgements_in_every_language_by_workers_of_that_language():
    seeded = demo_multilingual_seed()
    campaign = seeded.campaign
    judgements = Judgement.objects.filter(task__campaign=campaign)
    assert seeded.judgements == judgements.count() == 48 * 3 * 2
    assert Counter(judgements.values_list("task__language", flat=True)) == {
        lang: 72 for lang in LANGUAGES
    }
    workers = Worker.objects.filter(campaign=campaign)
    assert workers.count() == 4 * 6
    for worker in workers:
        assert worker.platform == "imported" and worker.metadata["simulated"] is True
        assert worker.language == worker.metadata["language"]
        assert worker.external_id.startswith(f"SIM-{worker.language.upper()}-")
    assert set(judgements.values_list("worker__language", flat=True)) == set(LANGUAGES)
    for language, task_language in judgements.values_list("worker__language", "task__language"):
        assert language == task_language
    # Regular tasks stay open for real workers (3 judgements each).
    assert campaign.judgements_per_task == 3
    assert not Assignment.objects.filter(task__kind="regular", task__campaign=campaign).exists()
    per_task = Counter(judgements.values_list("task_id", flat=True))
    assert set(per_task.values()) == {2}
    per_worker_item = Counter(judgements.values_list("worker_id", "criterion_id", "task__item_id"))
    assert max(per_worker_item.values()) == 1

    scores = JudgementScore.objects.filter(judgement__task__campaign=campaign)
    assert set(scores.values_list("score", flat=True)) <= {1.0, 2.0, 3.0, 4.0, 5.0}
    mean: dict[tuple[str, str], list[float]] = defaultdict(list)
    for criterion, label, score in scores.values_list(
        "judgement__criterion__name", "output__system__label", "score"
    ):
        mean[criterion, label].append(score)
    avg = {key: float(np.mean(v)) for key, v in mean.items()}
    assert avg["grammar", "polished"] > avg["grammar", "clumsy"]
    assert avg["fluency", "polished"] > avg["fluency", "parrot"]
    assert avg["relevance", "polished"] > avg["relevance", "terse"]


@pytest.mark.django_db
def test_seeding_twice_creates_nothing_new_and_the_e2e_demo_is_unaffected():
    e2e = demo_campaign_seed()
    first = demo_multilingual_seed()
    counts = (Task.objects.count(), Judgement.objects.count(), Output.objects.count())
    again = demo_multilingual_seed()
    assert not again.created and again.campaign.pk == first.campaign.pk
    assert (Task.objects.count(), Judgement.objects.count(), Output.objects.count()) == counts
    assert (again.tasks, again.judgements) == (first.tasks, first.judgements)
    assert e2e.campaign.pk != first.campaign.pk
    assert e2e.campaign.languages == ["en"]


@pytest.mark.django_db
def test_an_existing_campaign_with_the_slug_is_left_as_it_is():
    CampaignFactory(slug=DEMO_MTG_SLUG, name="Mine")
    seeded = demo_multilingual_seed()
    assert not seeded.created and seeded.campaign.name == "Mine"
    assert (seeded.items, seeded.tasks, seeded.judgements) == (0, 0, 0)


@pytest.mark.django_db
def test_the_same_seed_gives_the_same_outputs():
    def texts() -> list[tuple[str, str, str, str]]:
        return sorted(
            Output.objects.filter(item__campaign__slug=DEMO_MTG_SLUG).values_list(
                "item__external_id", "system__label", "language", "text"
            )
        )

    demo_multilingual_seed(seed=42)
    first = texts()
    Campaign.objects.filter(slug=DEMO_MTG_SLUG).delete()
    demo_multilingual_seed(seed=42)
    assert texts() == first
    assert any(lang == "de" and " ist " in text for _, _, lang, text in first)
