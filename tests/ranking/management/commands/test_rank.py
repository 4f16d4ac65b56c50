import json
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotations.importing.ratings import e2e_import
from ranking.exports.runs import parse_csv
from ranking.models import RankingRun
from tests.ranking.planted import planted_campaign

pytestmark = pytest.mark.django_db


def _rank(*args: str) -> str:
    out = StringIO()
    call_command("rank", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_every_format_and_the_plot(tmp_path):
    campaign, _ = planted_campaign(strengths=[50, 0, -50, -100], n_judgements=30, seed=1, k=4)
    base = [campaign.slug, "--criterion", "quality", "--runs", "20", "--seed", "3"]
    table = _rank(*base)
    assert "TrueSkill" in table and "Stability:" in table and "Ranking run" in table
    data = json.loads(_rank(*base, "--format", "json"))
    assert data["seed"] == 3 and data["runs"] == 20 and data["judgements"] == 30
    assert data["ranking"][0]["system"] == "s0"
    rows = parse_csv(_rank(*base, "--format", "csv"))
    assert [(r.system, r.rank_lo, r.rank_hi, r.cluster) for r in rows] == [
        (r["system"], r["rank_lo"], r["rank_hi"], r["cluster"]) for r in data["ranking"]
    ]
    assert r"\toprule" in _rank(*base, "--format", "latex")
    assert "| # | TrueSkill | Range | System |" in _rank(*base, "--format", "markdown").splitlines()
    plot = tmp_path / "ranks.svg"
    _rank(*base, "--plot", str(plot))
    image = plot.read_bytes()
    assert image.startswith(b"<?xml") and b"s0" in image
    # Cluster labels only when the minimum-data rule allows clusters.
    assert (b"s0 (1)" in image) == data["data_rule"]["met"]
    # Five identical requests: five stored runs with identical results.
    runs = RankingRun.objects.filter(seed=3)
    assert runs.count() == 6
    assert len({r.fingerprint for r in runs}) == 1


@pytest.mark.parametrize(
    "args,message",
    [
        (["nope", "--criterion", "quality"], "No campaign with the slug 'nope'"),
        (["{slug}", "--criterion", "fluency"], "has no criterion 'fluency' (it has: quality)"),
        (["{slug}", "--criterion", "quality", "--plot", "x.pdf"], ".svg or .png"),
        (["{slug}", "--criterion", "quality", "--param", "sigma0"], "NAME=VALUE"),
    ],
)
def test_mistakes_get_clear_errors(args, message):
    campaign, _ = planted_campaign(strengths=[10, 0], n_judgements=3, seed=2, k=2)
    with pytest.raises(CommandError) as error:
        _rank(*[a.format(slug=campaign.slug) for a in args])
    assert message in str(error.value)


@pytest.mark.e2e_data
def test_reproduces_table_11_from_the_released_ratings(e2e_dir):
    """``rank e2e --method wmt14 --runs 200 --seed 1`` against the published Table 11.

    Naturalness: every value within 0.01, every 95% rank range within one rank at each
    end. Quality: the same within 0.04, except tuda and slug, whose published values
    (slug 0.300, tuda 0.228) the released data do not give; an independent
    reimplementation finds tuda about +0.31 and slug about +0.27 (docs/reproducing-e2e.md).
    """
    e2e_import(campaign_slug="e2e", folder=e2e_dir)
    published = json.loads((e2e_dir / "table11.json").read_text())
    known_exception = {"tuda", "slug"}
    for criterion, tolerance in (("naturalness", 0.01), ("quality", 0.04)):
        ours = {
            r["system"]: r
            for r in json.loads(
                _rank(
                    "e2e",
                    "--criterion",
                    criterion,
                    "--runs",
                    "200",
                    "--seed",
                    "1",
                    "--format",
                    "json",
                )
            )["ranking"]
        }
        assert set(ours) == {p["system"] for p in published[criterion]}
        for p in published[criterion]:
            row = ours[p["system"]]
            if criterion == "quality" and p["system"] in known_exception:
                continue
            assert row["value"] == pytest.approx(p["trueskill"], abs=tolerance), p["system"]
            assert abs(row["rank_lo"] - p["rank_lo"]) <= 1, p["system"]
            assert abs(row["rank_hi"] - p["rank_hi"]) <= 1, p["system"]
        if criterion == "quality":
            assert ours["tuda"]["value"] == pytest.approx(0.31, abs=0.02)
            assert ours["slug"]["value"] == pytest.approx(0.27, abs=0.02)


def test_cli_and_web_json_exports_of_a_run_are_identical(client):
    """``manage.py rank --format json`` prints what the page and the API download."""
    campaign, _ = planted_campaign(strengths=[50, 0, -50, -100], n_judgements=30, seed=1, k=4)
    printed = _rank(campaign.slug, "--criterion", "quality", "--runs", "20", "--format", "json")
    run = RankingRun.objects.get()
    client.force_login(campaign.owner or _owner(campaign))
    web = client.get(f"/rankings/{run.pk}/export/json/")
    api = client.get(f"/api/rankings/{run.pk}/export/json/")
    assert web.status_code == 200 and api.status_code == 200
    assert web.content.decode() == printed
    assert api.content.decode() == printed


def _owner(campaign):
    from django.contrib.auth.models import User

    owner = User.objects.create_user(f"owner-{campaign.pk}")
    campaign.owner = owner
    campaign.save(update_fields=["owner"])
    return owner


@pytest.mark.e2e_data
def test_e2e_naturalness_at_200_runs_names_the_split_half_check(e2e_dir):
    """The real data have enough comparisons for every system; what keeps the clusters
    back at 200 runs is the split-half check, and the table says so (it used to say
    "too little data")."""
    e2e_import(campaign_slug="e2e", folder=e2e_dir)
    args = ["e2e", "--criterion", "naturalness", "--method", "wmt14", "--runs", "200"]
    table = _rank(*args, "--seed", "1")
    run = RankingRun.objects.get()
    assert run.stability["stable"] is False
    assert "too little data" not in table and "Too few comparisons" not in table
    assert "(No clusters: The stability check fails at 200 runs (" in table
    assert "boundary decision(s) rest on rank-range ends within 2 standard errors" in table
    # The boundaries' range ends lie within sampling error of the cut with no upper bound
    # on the runs needed: no number is suggested (it would only be twice the runs).
    assert run.stability["runs_unknown"] is True and run.stability["suggested_runs"] is None
    assert "no estimate of the runs needed: 200 runs cannot tell" in table
    assert "suggested" not in table


DOC = Path(__file__).resolve().parents[4] / "docs" / "reproducing-e2e.md"


def _doc_platform_table(criterion: str) -> dict[str, tuple[float, str]]:
    """The doc's "Through the platform" table for ``criterion``: value and range by system."""
    text = DOC.read_text()
    heading = (
        f"### {criterion.capitalize()} (platform: `python manage.py rank e2e --criterion "
        f"{criterion} --method wmt14 --runs 200 --seed 1`)"
    )
    assert heading in text, heading
    block = text.split(heading, 1)[1].split("\n\n", 2)[1]
    rows = {}
    for line in block.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = (float(cells[4]), cells[5])
    return rows


@pytest.mark.e2e_data
def test_the_reproducing_doc_states_what_the_platform_prints(e2e_dir):
    """docs/reproducing-e2e.md's platform tables and its "No clusters" sentence are
    what ``rank e2e --method wmt14 --runs 200 --seed 1`` prints today (the review found
    the doc claiming clusters, ranges and a runs suggestion the command no longer gave)."""
    e2e_import(campaign_slug="e2e", folder=e2e_dir)
    text = DOC.read_text()
    for criterion in ("naturalness", "quality"):
        printed = _rank(
            "e2e", "--criterion", criterion, "--method", "wmt14", "--runs", "200", "--seed", "1"
        )
        ours = {}
        for line in printed.splitlines():
            cells = line.split()
            if len(cells) >= 3 and re.fullmatch(r"-?\d+\.\d{3}", cells[-3]):
                ours[cells[-1]] = (float(cells[-3]), cells[-2])
        assert ours == _doc_platform_table(criterion), criterion
        caption = next(line for line in printed.splitlines() if line.startswith("(No clusters"))
        # The doc quotes naturalness's sentence and says quality prints the same one.
        assert f"```\n{caption}\n```" in text
        assert "and the same sentence for quality" in text
    assert "about 700" not in text and "--runs 700" not in text


METHODS = Path(__file__).resolve().parents[4] / "docs" / "methods.md"


def test_the_methods_page_says_what_of_table_11_does_not_reproduce():
    """Review: the README said "Our values match the published Table 11", which quality
    does not. docs/methods.md (where that section moved) names what does not match, with
    the numbers of the doc's platform table (itself checked against a live run above)."""
    text = METHODS.read_text()
    assert "match the published Table 11" not in text
    quality = _doc_platform_table("quality")
    published = {"tuda": 0.228, "slug": 0.300, "forge3": -0.083}
    claims = re.findall(
        r"(tuda|slug|forge3) ([+-]\d\.\d{3}) \((-?\d\.\d{3}) against (-?\d\.\d{3})\)", text
    )
    assert {name for name, *_ in claims} == set(published)
    for name, delta, ours, theirs in claims:
        assert float(ours) == quality[name][0]
        assert float(theirs) == published[name]
        assert float(delta) == pytest.approx(float(ours) - float(theirs), abs=1e-9)
    assert "Clusters do not reproduce" in text
