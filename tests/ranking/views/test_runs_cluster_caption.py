"""The cluster caption says what a cluster boundary means, and no more."""

from __future__ import annotations

import pytest

from ranking.selectors.data_rule import ranking_data_rule
from ranking.stats._clusters import clusters_from_ranges
from tests.ranking.planted import planted_campaign
from tests.ranking.ranked_runs import _owned, _rank

pytestmark = pytest.mark.django_db


CLUSTER_TRUTH = "each rule separates every system above it from every system below it"


def test_the_cluster_caption_says_what_a_cluster_boundary_means_and_no_more(client):
    """Statistician's review: the caption said systems in one cluster "cannot be told
    apart from each other", false under WMT's chaining rule (a cluster can hold systems
    whose own ranges do not overlap, e.g. ranges 1-2 and 4-6 chained by 2-4). What holds:
    a boundary separates everything above it from everything below it."""
    # The chaining counterexample, on the rule itself: 1-2 and 4-6 share cluster 1.
    assert list(clusters_from_ranges([4, 3, 2, 1], [1, 2, 4, 7], [2, 4, 6, 8])) == [1, 1, 1, 2]
    campaign, criterion = planted_campaign(
        strengths=[150, 0, -150], n_judgements=60, seed=3, k=3, noise=5
    )
    client.force_login(_owned(campaign))
    run = _rank(campaign, criterion, runs=200, seed=1)
    assert ranking_data_rule(run=run).met
    html = client.get(f"/rankings/{run.pk}/").content.decode()
    assert CLUSTER_TRUTH in html and "some of them may still differ" in html
    assert "told apart" not in html and "cannot be distinguished" not in html
    # No clusters shown: no sentence about them.
    thin, thin_criterion = planted_campaign(strengths=[60, 20, -20, -60], n_judgements=2, k=4)
    client.force_login(_owned(thin))
    thin_run = _rank(thin, thin_criterion, runs=50, seed=1)
    html = client.get(f"/rankings/{thin_run.pk}/").content.decode()
    assert CLUSTER_TRUTH not in html and "told apart" not in html
