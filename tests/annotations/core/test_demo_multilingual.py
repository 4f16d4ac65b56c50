"""The multilingual demo's data (annotations/core/demo_multilingual.py): the same MRs in
four languages, texts per language, simulated Likert ratings."""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np

from annotations.core.demo import DemoOutput
from annotations.core.demo_multilingual import (
    LANGUAGES,
    LikertWorker,
    multilingual_items,
    simulated_likert,
)

# -- the data module (pure) ---------------------------------------------------------------


def _texts(seed: int) -> dict[str, list[str]]:
    by_language: dict[str, list[str]] = defaultdict(list)
    for item in multilingual_items(rng=np.random.default_rng(seed), n_items=12):
        by_language[item.language] += [o.text for o in item.outputs.values()]
    return by_language


def test_items_are_the_same_mrs_in_four_languages_with_four_systems():
    items = multilingual_items(rng=np.random.default_rng(7), n_items=5)
    assert len(items) == 20
    assert [i.external_id for i in items[:6]] == [
        "en-001", "en-002", "en-003", "en-004", "en-005", "de-001",
    ]  # fmt: skip
    by_id = {i.external_id: i for i in items}
    for n in range(1, 6):
        mrs = [by_id[f"{lang}-{n:03d}"].mr for lang in LANGUAGES]
        assert all(mr == mrs[0] for mr in mrs)
    for item in items:
        assert list(item.outputs) == ["polished", "terse", "clumsy", "parrot"]
        assert item.outputs["terse"].omitted and not item.outputs["polished"].omitted
        assert item.outputs["clumsy"].disfluencies >= 2
        assert item.outputs["parrot"].repetitions >= 1


def test_texts_differ_per_language_and_say_the_name():
    texts = _texts(3)
    assert set(texts) == set(LANGUAGES)
    for language in LANGUAGES:
        for other in LANGUAGES:
            if other != language:
                assert not set(texts[language]) & set(texts[other])
    german = " ".join(texts["de"])
    assert " ist " in german and " is " not in german
    assert " est " in " ".join(texts["fr"]) and " es " in " ".join(texts["es"])
    for item in multilingual_items(rng=np.random.default_rng(3), n_items=12):
        # (a clumsy system's swapped words may split a name)
        assert all(item.mr["name"] in item.outputs[s].text for s in ("polished", "terse", "parrot"))


def test_the_good_system_writes_grammatical_templates():
    items = multilingual_items(rng=np.random.default_rng(11), n_items=30)
    polished = {i.external_id: i.outputs["polished"].text for i in items}
    for ext, text in polished.items():
        if ext.startswith("de-"):
            assert "ist eine " not in text and "Die Preise ist" not in text
        if ext.startswith("fr-"):
            assert "est une " not in text and "près d'Y" not in text
        if ext.startswith("es-"):
            assert "en la centro" not in text and "cuestan" not in text


def test_same_seed_same_texts_and_another_seed_others():
    assert _texts(5) == _texts(5)
    assert _texts(5) != _texts(6)


def test_simulated_likert_ratings_are_whole_1_to_5_and_follow_the_defects():
    rng = np.random.default_rng(0)
    worker = LikertWorker("SIM-DE-01", "de", bias=0.0, noise=0.3)
    good = DemoOutput("Gut.")
    clumsy = DemoOutput("Schlecht.", disfluencies=4)
    short = DemoOutput("Kurz.", omitted=("food", "area", "near"))
    sums: Counter[str] = Counter()
    for _ in range(200):
        for criterion in ("grammar", "fluency", "relevance"):
            ratings = simulated_likert(
                [good, clumsy, short, good], criterion=criterion, worker=worker, rng=rng
            )
            assert all(isinstance(r, int) and 1 <= r <= 5 for r in ratings)
            assert ratings[0] == ratings[3]  # the same text, the same rating
            for name, r in zip(("good", "clumsy", "short"), ratings[:3], strict=True):
                sums[f"{criterion}/{name}"] += r
    assert sums["grammar/good"] > sums["grammar/clumsy"]
    assert sums["relevance/good"] > sums["relevance/short"]
    assert sums["grammar/short"] > sums["grammar/clumsy"]  # omissions are not grammar errors
