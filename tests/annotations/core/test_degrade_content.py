"""Which degraded copies drop content (annotations/core/degrade.py)."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.django_db


def test_drops_content_tells_a_dropped_copy_from_shuffled_and_repeated_ones():
    from annotations.core.degrade import degrade, drops_content

    text = "The Eagle is a cheap pub, near the river, and it serves Indian food."
    for seed in range(20):
        rng = np.random.default_rng(seed)
        assert drops_content(text, degrade(text, rng=rng, method="drop").text)
        assert not drops_content(text, degrade(text, rng=rng, method="shuffle").text)
        assert not drops_content(text, degrade(text, rng=rng, method="repeat").text)
    assert not drops_content(text, text)
    assert not drops_content(text, "The Eagle is a pub, and it is on fire.")  # new words
