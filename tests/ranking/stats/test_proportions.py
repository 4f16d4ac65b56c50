import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy.stats import binomtest

from ranking.stats import wilson_interval


@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_wilson_matches_scipy(confidence):
    k = np.array([0, 1, 5, 8, 15, 16, 3, 50])
    n = np.array([16, 16, 16, 16, 16, 16, 7, 200])
    lo, hi = wilson_interval(k, n, confidence=confidence)
    for i in range(k.size):
        ci = binomtest(int(k[i]), int(n[i])).proportion_ci(
            confidence_level=confidence, method="wilson"
        )
        assert_allclose([lo[i], hi[i]], [ci.low, ci.high], rtol=0, atol=1e-12)


def test_wilson_golden_values_and_edges():
    lo, hi = wilson_interval([0, 5, 10], [10, 10, 10])
    # Brown, Cai and DasGupta (2001): 0/10 -> [0, 0.2775], 5/10 -> [0.2366, 0.7634].
    assert_allclose(lo, [0.0, 0.236593, 0.722467], atol=1e-6)
    assert_allclose(hi, [0.277533, 0.763407, 1.0], atol=1e-6)
    lo, hi = wilson_interval([0], [0])
    assert np.isnan(lo[0]) and np.isnan(hi[0])
    with pytest.raises(ValueError, match="successes must lie"):
        wilson_interval([3], [2])
    with pytest.raises(ValueError, match="confidence"):
        wilson_interval([1], [2], confidence=1.0)
