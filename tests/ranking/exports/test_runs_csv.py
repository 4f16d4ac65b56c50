"""The ranking CSV opens cleanly: its header is the first line (no ``#`` preamble that
``pandas.read_csv`` and spreadsheets misread); the provenance is a sidecar download."""

from __future__ import annotations

import csv
import io

import pytest
from rest_framework.test import APIClient

from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from tests.factories import SystemFactory
from tests.ranking.planted import planted_campaign

pytestmark = pytest.mark.django_db

#: the ranking CSV's header, its first line
CSV_COLUMNS = (
    "status",
    "cluster",
    "system",
    "value",
    "spread",
    "rank_lo",
    "rank_hi",
    "comparisons",
    "caveat",
)


def _run():
    from django.contrib.auth.models import User

    campaign, criterion = planted_campaign(strengths=[40, 0, -40], n_judgements=30, k=3)
    SystemFactory(campaign=campaign, label="zeta")  # never judged: an unranked row
    campaign.owner = User.objects.create_user("csv-owner")
    campaign.save(update_fields=["owner"])
    run = ranking_run_create(campaign=campaign, criterion=criterion, queue=False, runs=20, seed=2)
    run = ranking_run_compute(run=run)
    api = APIClient()
    api.force_authenticate(campaign.owner)
    return run, api


def test_the_csv_header_is_its_first_line():
    run, api = _run()
    text = api.get(f"/api/rankings/{run.pk}/export/csv/").content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert tuple(csv.DictReader(io.StringIO(text)).fieldnames or ()) == CSV_COLUMNS
    assert [r["system"] for r in rows] == ["s0", "s1", "s2", "zeta"]
    assert [r["status"] for r in rows] == ["ranked", "ranked", "ranked", "unranked"]
    assert not any(line.startswith("#") for line in text.splitlines())


def test_pandas_reads_the_csv_as_it_is():
    pandas = pytest.importorskip("pandas")
    run, api = _run()
    text = api.get(f"/api/rankings/{run.pk}/export/csv/").content.decode()
    frame = pandas.read_csv(io.StringIO(text))
    assert list(frame.columns) == list(CSV_COLUMNS)
    assert frame["system"].tolist() == ["s0", "s1", "s2", "zeta"]
    assert frame["rank_lo"].iloc[0] == 1


def test_the_provenance_is_a_sidecar_download_with_a_header():
    run, api = _run()
    response = api.get(f"/api/rankings/{run.pk}/export/provenance/")
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["field", "value"]
    fields = dict(rows[1:])
    assert fields["seed"] == "2" and fields["runs"] == "20"
    assert fields["unranked (no comparisons)"] == "zeta"


def _caveats(campaign, criterion, *, method: str = "wmt14") -> dict[str, str]:
    from ranking.exports.runs import run_export

    run = ranking_run_compute(
        run=ranking_run_create(
            campaign=campaign, criterion=criterion, method=method, runs=50, queue=False
        )
    )
    assert run.status == "done", run.error
    rows = csv.DictReader(io.StringIO(run_export(run=run, fmt="csv")))
    return {r["system"]: r["caveat"] for r in rows if r["status"] == "ranked"}


def test_the_csv_carries_the_caveats_the_page_marks():
    """A reviewer's CSV of three judgements read "ranked, rank 1-1" with nothing else: the
    page's † and notes (thin, unbounded, groups never compared) were only on the page and
    in LaTeX."""
    from tests.ranking.planted import add_judgement

    thin, criterion = planted_campaign(strengths=[40, 0, -40], n_judgements=3, k=3)
    assert _caveats(thin, criterion) == {"s0": "thin", "s1": "thin", "s2": "thin"}

    runaway, criterion = planted_campaign(
        strengths=[2000, 0, -5, -10], n_judgements=60, k=4, seed=3
    )
    caveats = _caveats(runaway, criterion, method="bradley_terry")
    assert caveats["s0"] == "group 1 of 2, unbounded"
    assert {caveats[s] for s in ("s1", "s2", "s3")} == {"group 2 of 2, unbounded"}

    apart, criterion = planted_campaign(strengths=[0, 0, 0, 0], n_judgements=0, k=2)
    for n in range(40):
        for pair, scores in (
            (0, {"s0": 100.0 + n % 7, "s1": 100.0}),
            (1, {"s2": 95.0 + n % 10, "s3": 100.0}),
        ):
            add_judgement(
                campaign=apart, criterion=criterion, scores=scores, item_key=f"{pair}-{n}"
            )
    caveats = _caveats(apart, criterion)
    assert set(caveats.values()) == {
        "group 1 of 2, never compared with the others",
        "group 2 of 2, never compared with the others",
    }
    assert caveats["s0"] == caveats["s1"] != caveats["s2"] == caveats["s3"]

    enough, criterion = planted_campaign(strengths=[40, 0, -40], n_judgements=60, k=3)
    assert set(_caveats(enough, criterion).values()) == {""}
