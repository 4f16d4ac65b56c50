"""What a campaign still lacks per language (annotations/selectors/languages.py)."""

from __future__ import annotations

import pytest

from annotations.selectors.languages import translations_needed

pytestmark = pytest.mark.django_db


def test_what_is_missing_is_listed_per_language(world):
    _, campaign, _grammar, _quality = world
    needed = {s.language: s for s in translations_needed(campaign=campaign)}
    assert set(needed) == {"de", "fr"}  # en holds the originals
    labels = [t.label for t in needed["de"].missing]
    # name, instructions, consent, 2 questions, 5 grammar descriptors; no description
    # (empty), no standard text (quality has none)
    assert len(labels) == 10
    assert "Instructions" in labels and "grammar: level 3 descriptor" in labels
    assert "Description" not in labels
