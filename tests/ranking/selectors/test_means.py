"""The MTG-style table: mean 1-5 per criterion, system and language with
confidence intervals, beside the TrueSkill clusters; page, CSV, API and command."""

from __future__ import annotations

import io

import numpy as np
import pytest
from django.core.management import CommandError, call_command
from scipy import stats as scipy_stats

from annotations.models import (
    Campaign,
    CampaignMembership,
    Criterion,
    Output,
    Task,
    TaskOutput,
    Worker,
)
from annotations.services.criteria import criterion_from_preset
from ranking.models import RankingRun
from ranking.selectors import means
from ranking.services import compute
from ranking.services import runs as services
from tests.factories import CampaignFactory, ItemFactory, SystemFactory, judgement_of

pytestmark = pytest.mark.django_db

# Planted mean ratings per language and system (workers add noise of +-1 level).
PLANTED = {"de": {"good": 4.5, "weak": 2.0}, "fr": {"good": 3.0, "weak": 3.5}}


def _judge(campaign, criterion, worker, language, scores, n):
    item = ItemFactory(campaign=campaign, external_id=f"{language}-{n}", language=language)
    task = Task.objects.create(
        campaign=campaign, criterion=criterion, item=item, kind="imported", language=language
    )
    for slot, system in enumerate(scores):
        output = Output.objects.create(
            item=item, system=system, text=f"{system.label} {n}", language=language
        )
        TaskOutput.objects.create(task=task, output=output, slot=slot)
    judgement_of(task, worker, list(scores.values()), kind="imported")


def rated_campaign(n: int = 30, seed: int = 3):
    """Two systems rated 1-5 on grammar in de and fr; returns the campaign, criterion and
    every rating given, by (system, language)."""
    rng = np.random.default_rng(seed)
    campaign = CampaignFactory(languages=["de", "fr"])
    grammar = criterion_from_preset(campaign=campaign, preset="grammar")
    systems = {label: SystemFactory(campaign=campaign, label=label) for label in ("good", "weak")}
    workers = {
        tag: [
            Worker.objects.create(
                campaign=campaign, platform="imported", external_id=f"{tag}{i}", language=tag
            )
            for i in range(4)
        ]
        for tag in PLANTED
    }
    given: dict[tuple[str, str], list[float]] = {}
    for tag, planted in PLANTED.items():
        for j in range(n):
            scores = {
                systems[label]: float(np.clip(round(mean + rng.normal(0, 1)), 1, 5))
                for label, mean in planted.items()
            }
            for system, value in scores.items():
                given.setdefault((system.label, tag), []).append(value)
            _judge(campaign, grammar, workers[tag][j % 4], tag, scores, j)
    return campaign, grammar, given


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


def _member(django_user_model, campaign, role="viewer"):
    user = django_user_model.objects.create_user(f"u-{role}", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role=role)
    return user


def test_the_page_and_its_csv(client, django_user_model):
    campaign, _, given = rated_campaign(n=6)
    System = campaign.systems.model
    System.objects.filter(campaign=campaign, label="weak").update(label="=HYPERLINK(1)")
    client.force_login(_member(django_user_model, campaign))
    url = f"/rankings/campaign/{campaign.slug}/means/"
    body = client.get(url).content.decode()
    assert 'data-criterion="grammar"' in body and 'data-column="de"' in body
    assert f"{np.mean(given[('good', 'de')]):.2f}" in body
    assert "Start a ranking run" not in body  # viewers
    assert "data-magnitude-note" not in body  # a Likert scale has its bounds
    csv_text = client.get(url + "?format=csv").content.decode()
    lines = csv_text.splitlines()
    assert lines[0].startswith("criterion,confidence,system,language,ratings,mean,ci_low,ci_high")
    assert any(line.startswith("grammar,0.95,good,all,12,") for line in lines)
    assert "'=HYPERLINK(1)" in csv_text and ",=HYPERLINK" not in csv_text
    assert client.get(url + "?criterion=nope").status_code == 400
    assert client.get(url + "?confidence=2").status_code == 400


def test_outsiders_see_nothing(client, django_user_model):
    campaign, _, _ = rated_campaign(n=2)
    outsider = django_user_model.objects.create_user("out", password="pw-123456789")
    client.force_login(outsider)
    assert client.get(f"/rankings/campaign/{campaign.slug}/means/").status_code == 404
    assert client.get(f"/api/campaigns/{campaign.slug}/means/").status_code == 404


def test_the_api(client, django_user_model):
    campaign, _, given = rated_campaign(n=6)
    client.force_login(_member(django_user_model, campaign))
    data = client.get(f"/api/campaigns/{campaign.slug}/means/?confidence=0.9").json()
    (block,) = data["criteria"]
    assert block["columns"] == ["de", "fr", "all"]
    good = next(s for s in block["systems"] if s["system"] == "good")
    assert good["cells"]["de"]["mean"] == pytest.approx(np.mean(given[("good", "de")]), abs=1e-6)
    assert good["cells"]["de"]["ratings"] == 6
    assert good["cells"]["de"]["rank_range"] is None
    bad = client.get(f"/api/campaigns/{campaign.slug}/means/?criterion=nope")
    assert bad.status_code == 400 and "nope" in bad.content.decode()
    assert client.get(f"/api/campaigns/{campaign.slug}/means/?confidence=7").status_code == 400


def test_the_command():
    campaign, _, given = rated_campaign(n=6)
    out = io.StringIO()
    call_command("means", campaign.slug, stdout=out)
    text = out.getvalue()
    assert "grammar (24 ratings)" in text and f"{np.mean(given[('good', 'fr')]):.2f}" in text
    out = io.StringIO()
    call_command("means", campaign.slug, "--csv", stdout=out)
    assert out.getvalue().splitlines()[0].startswith("criterion,confidence,system,language")
    with pytest.raises(CommandError, match="no criterion"):
        call_command("means", campaign.slug, "--criterion", "nope")
    with pytest.raises(CommandError, match="no campaign"):
        call_command("means", "nope")
    assert Campaign.objects.count() == 1 and Criterion.objects.count() == 1


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
    else:
        assert page.context["error"] == api.json()["detail"]
        assert api.json()["detail"].startswith("confidence: ")
