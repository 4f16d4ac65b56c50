"""Each metric's random stream (reports/core/correlation.py) is stable and distinct."""

from __future__ import annotations

import numpy as np
import pytest

from reports.core.correlation import metric_rng

pytestmark = pytest.mark.django_db


def test_metric_streams_are_stable_and_distinct():
    a = metric_rng(3, "BLEU").integers(0, 2**32, size=4)
    assert np.array_equal(a, metric_rng(3, "BLEU").integers(0, 2**32, size=4))
    assert not np.array_equal(a, metric_rng(3, "chrF").integers(0, 2**32, size=4))
    assert not np.array_equal(a, metric_rng(4, "BLEU").integers(0, 2**32, size=4))
