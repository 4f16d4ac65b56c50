"""The MTG-style table (ranking/selectors/means.py): mean 1-5 per criterion, system and
language with confidence intervals, beside the TrueSkill clusters."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as scipy_stats

from annotations.models import (
    Task,
    Worker,
)
from annotations.services.criteria import criterion_from_preset
from ranking.models import RankingRun
from ranking.selectors import means
from ranking.services import compute
from ranking.services import runs as services
from tests.factories import CampaignFactory
from tests.ranking.means_data import _member, rated_campaign

pytestmark = pytest.mark.django_db


def _interval(values):
    values = np.array(values)
    return scipy_stats.t.interval(
        0.95, len(values) - 1, loc=values.mean(), scale=scipy_stats.sem(values)
    )


def test_means_per_language_and_pooled_match_the_ratings():
    campaign, _, given = rated_campaign()
    table = means.campaign_means(campaign=campaign)
    (block,) = table.criteria
    assert block.columns == ["de", "fr", means.ALL]
    assert block.scale_range == (1.0, 5.0)
    for (system, tag), values in given.items():
        cell = block.cells[(system, tag)]
        assert cell.n == len(values) and cell.mean == pytest.approx(np.mean(values))
        low, high = _interval(values)
        assert (cell.low, cell.high) == (pytest.approx(low), pytest.approx(high))
    pooled = given[("good", "de")] + given[("good", "fr")]
    cell = block.cells[("good", means.ALL)]
    assert cell.n == 60 and cell.mean == pytest.approx(np.mean(pooled))
    assert (cell.low, cell.high) == tuple(pytest.approx(x) for x in _interval(pooled))
    # The planted order flips between languages: German prefers "good", French "weak".
    assert block.cells[("good", "de")].mean > block.cells[("weak", "de")].mean
    assert block.cells[("good", "fr")].mean < block.cells[("weak", "fr")].mean


def test_excluded_workers_and_attention_checks_do_not_count():
    campaign, _, _ = rated_campaign(n=8)
    Worker.objects.filter(external_id="de0").update(excluded=True)
    before = means.campaign_means(campaign=campaign).criteria[0]
    assert before.cells[("good", "de")].n == 6  # 8 judgements, 2 by the excluded worker
    Task.objects.filter(item__external_id="fr-1").update(kind=Task.Kind.ATTENTION)
    after = means.campaign_means(campaign=campaign).criteria[0]
    assert after.cells[("good", "fr")].n == 7


def test_the_rank_range_of_each_language_stands_beside_its_means():
    campaign, grammar, _ = rated_campaign()
    run = services.ranking_run_create(
        campaign=campaign, criterion=grammar, queue=False, where={"language": "de"}, runs=20
    )
    compute.ranking_run_compute(run=run, fan_out=False)
    block = means.campaign_means(campaign=campaign).criteria[0]
    assert block.runs == {"de": RankingRun.objects.get(pk=run.pk)}
    assert block.cells[("good", "de")].ranked is not None
    assert block.cells[("good", "de")].ranked.rank_lo == 1
    assert block.cells[("good", "fr")].ranked is None  # no French run yet


def test_a_one_language_campaign_has_one_column_and_no_ratings_no_rows():
    campaign = CampaignFactory()
    criterion_from_preset(campaign=campaign, preset="fluency")
    block = means.campaign_means(campaign=campaign).criteria[0]
    assert block.systems == [] and block.columns == [means.ALL]


def test_intervals_stay_on_the_scale():
    campaign, _, _ = rated_campaign(n=3, seed=11)  # 3 ratings a cell: t intervals are wide
    cut = 0
    for (system, language), cell in (
        means.campaign_means(campaign=campaign).criteria[0].cells.items()
    ):
        assert 1.0 <= cell.low <= cell.mean <= cell.high <= 5.0, (system, language)
        cut += cell.low == 1.0 or cell.high == 5.0
    assert cut  # some interval reached past the scale and was cut


@pytest.mark.parametrize(
    ("confidence", "accepted"),
    [
        ("0.49", False),
        ("0.5", True),
        ("0.8", True),
        ("0.9", True),
        ("0.95", True),
        ("0.99", True),
        ("0.999", True),
        ("0.9995", False),
        ("1", False),
        ("95", False),
        ("abc", False),
        ("nan", False),
    ],
)
def test_the_page_and_the_api_accept_and_refuse_the_same_confidence(
    client, django_user_model, confidence: str, accepted: bool
) -> None:
    # Both are built from ranking.selectors.runs.CONFIDENCE_RANGE; the page says what is
    # wrong in the API's words (``field: message``).
    campaign, _, _ = rated_campaign(n=2)
    client.force_login(_member(django_user_model, campaign))
    page = client.get(f"/rankings/campaign/{campaign.slug}/means/", {"confidence": confidence})
    api = client.get(f"/api/campaigns/{campaign.slug}/means/", {"confidence": confidence})
    assert (page.status_code, api.status_code) == ((200, 200) if accepted else (400, 400))
    if accepted:
        assert page.context["confidence"] == api.json()["confidence"] == float(confidence)
        # the form shows the level asked for, whichever it is (not only 90/95/99%)
        assert (
            f'name="confidence" min="0.5" max="0.999" step="any" value="{float(confidence):g}"'
            in (page.content.decode())
        )
    else:
        assert page.context["error"] == api.json()["detail"]
        assert api.json()["detail"].startswith("confidence: ")


def test_magnitude_means_are_geometric_with_positive_intervals():
    """A reviewer's E2E table: gong 230.7 with the interval -36 to 498 (a few scores of
    111,111 in arithmetic means of magnitude estimates). Magnitude means are now the mean
    of the logarithms turned back, checked against scipy's t interval on the logarithms."""
    from tests.ranking.planted import add_judgement, planted_campaign

    campaign, criterion = planted_campaign(strengths=[0, 0], n_judgements=0, k=2)
    given = {"s0": [100, 80, 120, 111111], "s1": [90, 100, 95, 105]}
    for n in range(4):
        add_judgement(
            campaign=campaign,
            criterion=criterion,
            scores={s: given[s][n] for s in given},
            item_key=f"m{n}",
        )
    assert criterion.scale == "magnitude"
    (block,) = means.campaign_means(campaign=campaign).criteria
    assert block.geometric
    for system, values in given.items():
        logs = np.log(values)
        cell = block.cells[(system, means.ALL)]
        assert cell.mean == pytest.approx(np.exp(logs.mean()))
        low, high = _interval(logs)
        assert (cell.low, cell.high) == (pytest.approx(np.exp(low)), pytest.approx(np.exp(high)))
        assert cell.low > 0
    # one score of 111,111 no longer puts s0 a thousand times above s1
    assert block.cells[("s0", means.ALL)].mean < 1000
