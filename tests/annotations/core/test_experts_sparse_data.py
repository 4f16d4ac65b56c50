"""Alpha on too little shared data (annotations/core/experts.py): undefined with the reason,
or a value without an interval."""

from __future__ import annotations

import math

import numpy as np
import pytest

from annotations.core.experts import alpha_with_experts

pytestmark = pytest.mark.django_db


def test_alpha_on_one_shared_output_is_undefined_with_the_reason():
    # One output judged by the worker and an expert: alpha would be 0 by construction.
    estimate = alpha_with_experts(
        np.array([0, 0]), np.array([7, 7]), np.array([10.0, 90.0]), rng=np.random.default_rng(0)
    )
    assert not estimate.defined and math.isnan(estimate.low)
    assert estimate.reason == "needs 2 or more outputs judged by both (1 shared)"


def test_alpha_from_one_item_has_a_value_but_no_interval():
    task = np.zeros(6, dtype=int)
    unit = np.array([1, 1, 2, 2, 3, 3])
    value = np.array([10.0, 12.0, 50.0, 55.0, 90.0, 80.0])
    estimate = alpha_with_experts(task, unit, value, rng=np.random.default_rng(0))
    assert estimate.defined and not estimate.interval_defined
    assert "one item" in estimate.interval_reason
    # Two items: the interval is there.
    two = alpha_with_experts(
        np.array([0, 0, 0, 0, 1, 1]), unit, value, rng=np.random.default_rng(0)
    )
    assert two.interval_defined and two.low < two.high
