"""The MTG-style table as CSV and JSON (ranking/exports/means.py): one CSV line per
criterion, system and column, formulas defused; JSON with every column and the pooled."""

from __future__ import annotations

import csv
import io

import pytest

from annotations.models import System
from ranking.exports.means import MEANS_CSV_HEADER, means_csv, means_json
from ranking.selectors.means import campaign_means
from tests.ranking.means_data import rated_campaign

pytestmark = pytest.mark.django_db


def test_the_csv_has_a_line_per_system_and_column_and_defuses_formulas():
    campaign, _, given = rated_campaign(n=6)
    System.objects.filter(campaign=campaign, label="weak").update(label="=HYPERLINK(1)")
    table = campaign_means(campaign=campaign)
    text = means_csv(table)
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == MEANS_CSV_HEADER
    assert len(rows[1:]) == 2 * 3  # two systems, two languages and all
    assert {(r[2], r[3]) for r in rows[1:]} == {
        (system, column) for system in ("good", "'=HYPERLINK(1)") for column in ("de", "fr", "all")
    }
    good_de = next(r for r in rows[1:] if r[2] == "good" and r[3] == "de")
    assert int(good_de[4]) == len(given[("good", "de")])


def test_the_json_gives_each_column_and_the_cells_of_each_system():
    campaign, _, given = rated_campaign(n=6)
    body = means_json(campaign_means(campaign=campaign))
    criteria = body["criteria"]
    assert isinstance(criteria, list)
    (block,) = criteria
    assert block["columns"] == ["de", "fr", "all"]
    good = next(s for s in block["systems"] if s["system"] == "good")
    assert set(good["cells"]) == {"de", "fr", "all"}
    assert good["cells"]["all"]["ratings"] == len(given[("good", "de")]) + len(
        given[("good", "fr")]
    )
    assert good["cells"]["de"]["rank_range"] is None  # no ranking run yet
