"""Item attributes (``attr:<name>`` columns and keys) imported with the outputs, and their errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotations.importing.outputs import outputs_import
from annotations.models import Item
from annotations.selectors.judgements import item_attributes
from common.errors import ImportFileError
from tests.annotations.importing.conftest import write_csv
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


HEADER = ["item_id", "input", "system", "output", "attr:challenge_set", "attr:domain"]


def _rows() -> list[list[str]]:
    rows = [list(HEADER)]
    for n, (challenge, domain) in enumerate(
        [("scramble", "news"), ("scramble", "news"), ("", "chat"), ("backtranslation", "news")]
    ):
        for system in ("s1", "s2", "s3"):
            rows.append([f"m{n}", f"name[{n}]", system, f"{system} on {n}.", challenge, domain])
    return rows


def test_csv_attribute_columns_become_item_attributes(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    outputs_import(campaign=campaign, path=write_csv(tmp_path / "o.csv", _rows()))
    by_item = dict(campaign.items.values_list("external_id", "attributes"))
    assert by_item == {
        "m0": {"challenge_set": "scramble", "domain": "news"},
        "m1": {"challenge_set": "scramble", "domain": "news"},
        "m2": {"domain": "chat"},  # a blank cell: the item lacks the attribute
        "m3": {"challenge_set": "backtranslation", "domain": "news"},
    }
    assert item_attributes(campaign=campaign) == {
        "challenge_set": ["backtranslation", "scramble"],
        "domain": ["chat", "news"],
    }


def test_an_item_with_two_values_is_refused_naming_line_and_field(tmp_path: Path, counts) -> None:
    rows = _rows()
    rows[2][4] = "other"  # m0's second row
    campaign = CampaignFactory()
    before = counts()
    with pytest.raises(ImportFileError) as caught:
        outputs_import(campaign=campaign, path=write_csv(tmp_path / "o.csv", rows))
    message = str(caught.value)
    assert "o.csv" in message and "line 3" in message and "attr:challenge_set" in message
    assert "one value per item" in message
    assert counts() == before


def test_a_bad_attribute_name_is_refused_at_the_header(tmp_path: Path, counts) -> None:
    rows = _rows()
    rows[0][4] = "attr:Challenge Set"
    campaign = CampaignFactory()
    before = counts()
    with pytest.raises(ImportFileError, match=r"line 1.*not an attribute name"):
        outputs_import(campaign=campaign, path=write_csv(tmp_path / "o.csv", rows))
    assert counts() == before


def test_jsonl_attributes_and_their_errors(tmp_path: Path, counts) -> None:
    path = tmp_path / "o.jsonl"
    lines = [
        {"item_id": 1, "input": "x", "system": "s1", "output": "a", "attributes": {"bucket": 3}},
        {"item_id": 1, "input": "x", "system": "s2", "output": "b", "attributes": {"bucket": 3}},
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    campaign = CampaignFactory()
    outputs_import(campaign=campaign, path=path)
    assert Item.objects.get(campaign=campaign).attributes == {"bucket": "3"}
    lines[1]["attributes"] = {"bucket": [3]}
    path.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    other = CampaignFactory()
    before = counts()
    with pytest.raises(ImportFileError, match=r"line 2.*attributes\.bucket.*found list"):
        outputs_import(campaign=other, path=path)
    assert counts() == before


def test_a_second_file_adds_attributes_but_may_not_change_one(tmp_path: Path, counts) -> None:
    campaign = CampaignFactory()
    outputs_import(campaign=campaign, path=write_csv(tmp_path / "a.csv", _rows()))
    more = [
        ["item_id", "input", "system", "output", "attr:length_bucket"],
        ["m0", "name[0]", "s4", "s4 on 0.", "short"],
    ]
    outputs_import(campaign=campaign, path=write_csv(tmp_path / "b.csv", more))
    assert Item.objects.get(campaign=campaign, external_id="m0").attributes == {
        "challenge_set": "scramble",
        "domain": "news",
        "length_bucket": "short",
    }
    clash = [
        ["item_id", "input", "system", "output", "attr:domain"],
        ["m0", "name[0]", "s5", "s5 on 0.", "chat"],
    ]
    before = counts()
    with pytest.raises(ImportFileError, match=r"line 2.*already has domain 'news', not 'chat'"):
        outputs_import(campaign=campaign, path=write_csv(tmp_path / "c.csv", clash))
    assert counts() == before
