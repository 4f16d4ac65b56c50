"""The synthetic demo data (pure, no database)."""

from __future__ import annotations

import re

import numpy as np

from annotations.core.demo import (
    ATTRIBUTES,
    SYSTEMS,
    DemoOutput,
    defect_penalty,
    demo_items,
    simulated_scores,
    simulated_workers,
)


def test_items_are_distinct_e2e_style_mrs_and_deterministic():
    items = demo_items(rng=np.random.default_rng(1), n_items=40)
    again = demo_items(rng=np.random.default_rng(1), n_items=40)
    other = demo_items(rng=np.random.default_rng(2), n_items=40)
    assert items == again
    assert items != other
    assert [i.external_id for i in items] == [f"demo-{n:03d}" for n in range(1, 41)]
    assert len({i.input for i in items}) == 40
    for item in items:
        assert list(item.mr) == [a for a in ATTRIBUTES if a in item.mr]
        assert "name" in item.mr and len(item.mr) >= 3
        assert re.fullmatch(r"[a-zA-Z ]+\[[^\]]+\](, [a-zA-Z ]+\[[^\]]+\])*", item.input)
        assert set(item.outputs) == {s.label for s in SYSTEMS}


def test_systems_have_the_defects_they_are_named_for():
    items = demo_items(rng=np.random.default_rng(3), n_items=60)
    for item in items:
        polished, parrot = item.outputs["polished"], item.outputs["parrot"]
        assert polished == DemoOutput(polished.text)  # no defect
        assert item.mr["name"] in polished.text
        if "near" in item.mr:
            assert item.mr["near"] in polished.text
        assert item.outputs["clumsy"].disfluencies >= 1
        assert item.outputs["inventive"].hallucinated
        sentences = [s.strip() for s in parrot.text.split(".") if s.strip()]
        assert parrot.repetitions >= 1 and len(sentences) > len(set(sentences))
        if len(item.mr) >= 4:
            terse = item.outputs["terse"]
            assert terse.omitted and "name" not in terse.omitted
    # "mixed" is sometimes exactly the polished text (identical outputs to merge),
    # sometimes not.
    same = sum(i.outputs["mixed"].text == i.outputs["polished"].text for i in items)
    assert 0 < same < len(items)


def test_simulated_scores_are_positive_whole_numbers_that_favour_better_outputs():
    rng = np.random.default_rng(4)
    workers = simulated_workers(rng=rng, n=12)
    items = demo_items(rng=rng, n_items=40)
    log_scores: dict[str, list[float]] = {s.label: [] for s in SYSTEMS}
    for item in items:
        labels = list(item.outputs)
        for worker in workers:
            scores = simulated_scores(
                [item.outputs[label] for label in labels],
                criterion="quality",
                worker=worker,
                rng=rng,
            )
            assert all(s >= 1 and s == int(s) for s in scores)
            by_text: dict[str, float] = {}
            for label, score in zip(labels, scores, strict=True):
                assert by_text.setdefault(item.outputs[label].text, score) == score
                log_scores[label].append(np.log2(score))
    means = {label: float(np.mean(v)) for label, v in log_scores.items()}
    assert means["polished"] > max(
        means[label] for label in ("terse", "inventive", "clumsy", "parrot")
    )
    assert means["clumsy"] < means["polished"] - 0.5
    # RankME numbers around the standard of 100.
    assert 50 < 2 ** np.median(np.concatenate(list(log_scores.values()))) < 250


def test_naturalness_ignores_content_errors():
    wrong = DemoOutput("x", omitted=("food",), hallucinated=("area",))
    assert defect_penalty(wrong, criterion="naturalness") == 0
    assert defect_penalty(wrong, criterion="quality") > 0
    assert defect_penalty(DemoOutput("y", disfluencies=2), criterion="naturalness") > 0
