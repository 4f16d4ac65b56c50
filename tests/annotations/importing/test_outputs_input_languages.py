"""An input's language given apart from its outputs' (a translation's source): the
outputs CSV's and JSONL's ``input_language``, and a mapping's ``input_language`` column.
The item took its first output's language, so the datasheet said a German source was in
English, the outputs' language; one language per input, refused otherwise naming file,
line and field, with nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotations.importing.mapped import mapped_import
from annotations.importing.outputs import outputs_import
from annotations.importing.parsers.mapped.mapping import mapping_from_dict
from annotations.models import Item, Output
from common.errors import ImportFileError
from tests.annotations.importing.conftest import write_csv
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db

OUTPUTS = ["item_id", "input", "system", "output", "language", "input_language"]


def _item_languages(campaign) -> dict[str, str]:
    return dict(Item.objects.filter(campaign=campaign).values_list("external_id", "language"))


def test_the_outputs_csv_gives_the_inputs_their_own_language(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    rows = [
        OUTPUTS,
        ["s1", "Das Haus ist alt.", "a", "The house is old.", "en", "de"],
        ["s1", "Das Haus ist alt.", "b", "The building is old.", "en", "de"],
        ["s2", "Le chat dort.", "a", "The cat sleeps.", "en", "fr"],
        ["s3", "No source language.", "a", "Given none.", "en", ""],
    ]
    outputs_import(campaign=campaign, path=write_csv(tmp_path / "o.csv", rows))
    assert _item_languages(campaign) == {"s1": "de", "s2": "fr", "s3": "en"}
    languages = set(
        Output.objects.filter(item__campaign=campaign).values_list("language", flat=True)
    )
    assert languages == {"en"}
    campaign.refresh_from_db()
    assert campaign.languages == ["en"]  # the workers' languages: the outputs', not the sources'


def test_the_outputs_jsonl_takes_input_language_too(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    path = tmp_path / "o.jsonl"
    path.write_text(
        json.dumps(
            {
                "item_id": 1,
                "input": "Guten Tag",
                "system": "a",
                "output": "Hello",
                "input_language": "de",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    outputs_import(campaign=campaign, path=path)
    assert _item_languages(campaign) == {"1": "de"}


@pytest.mark.parametrize(
    ("second", "message"),
    [
        ("fr", "item 's1' has its input in 'de' on line 2, 'fr' here"),
        ("xx!", "xx!"),
    ],
)
def test_an_input_in_two_languages_or_a_bad_code_is_refused(
    tmp_path: Path, second: str, message: str
) -> None:
    campaign = CampaignFactory()
    rows = [
        OUTPUTS,
        ["s1", "Das Haus ist alt.", "a", "The house is old.", "en", "de"],
        ["s1", "Das Haus ist alt.", "b", "The building is old.", "en", second],
    ]
    with pytest.raises(ImportFileError) as error:
        outputs_import(campaign=campaign, path=write_csv(tmp_path / "o.csv", rows))
    text = str(error.value)
    assert message in text and "line 3" in text and "input_language" in text
    assert not Item.objects.filter(campaign=campaign).exists()


RATINGS = ["worker", "item", "src", "srclang", "sys1", "out1", "flu1", "sys2", "out2", "flu2"]
MAPPING = {
    "format": "csv",
    "worker": "worker",
    "item": "item",
    "input": "src",
    "input_language": "srclang",
    "system": "sys{i}",
    "output": "out{i}",
    "slots": 2,
    "criteria": [{"name": "fluency", "score": "flu{i}"}],
}


def _ratings(*extra: list[str]) -> list[list[str]]:
    return [
        RATINGS,
        ["w1", "m1", "Das ist gut.", "German", "a", "This is good.", "5", "b", "Good it is.", "3"],
        ["w2", "m1", "Das ist gut.", "deu", "a", "This is good.", "4", "b", "Good it is.", "2"],
        ["w3", "m2", "C'est bien.", "fr", "a", "It is fine.", "4", "b", "Fine it is.", "2"],
        *extra,
    ]


def test_a_mappings_input_language_column_sets_the_items_language(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    mapped_import(
        campaign=campaign,
        path=write_csv(tmp_path / "r.csv", _ratings()),
        mapping=mapping_from_dict(MAPPING),
    )
    # German, deu and de are one language (as the outputs' language column reads them).
    assert _item_languages(campaign) == {"m1": "de", "m2": "fr"}
    outputs = set(Output.objects.filter(item__campaign=campaign).values_list("language", flat=True))
    assert outputs == {"en"}  # no outputs' language column: the campaign's


def test_a_mapping_refuses_two_input_languages_and_a_stored_items_other_one(
    tmp_path: Path,
) -> None:
    campaign = CampaignFactory()
    two = ["w4", "m2", "C'est bien.", "it", "a", "It is fine.", "1", "b", "Fine it is.", "2"]
    with pytest.raises(ImportFileError) as error:
        mapped_import(
            campaign=campaign,
            path=write_csv(tmp_path / "r.csv", _ratings(two)),
            mapping=mapping_from_dict(MAPPING),
        )
    text = str(error.value)
    assert "item 'm2' has its input in 'fr' on line 4, 'it' here" in text
    assert "line 5" in text and "srclang" in text
    assert not Item.objects.filter(campaign=campaign).exists()

    mapped_import(
        campaign=campaign,
        path=write_csv(tmp_path / "r.csv", _ratings()),
        mapping=mapping_from_dict(MAPPING),
    )
    again = [
        RATINGS,
        ["w9", "m1", "Das ist gut.", "nl", "a", "This is good.", "5", "b", "Good it is.", "3"],
    ]
    with pytest.raises(
        ImportFileError, match="item 'm1' is stored with its input in 'de', not 'nl'"
    ):
        mapped_import(
            campaign=campaign,
            path=write_csv(tmp_path / "again.csv", again),
            mapping=mapping_from_dict(MAPPING),
        )


def test_an_input_language_round_trips_and_is_left_out_when_unset() -> None:
    assert mapping_from_dict(MAPPING).to_dict()["input_language"] == "srclang"
    unset = {k: v for k, v in MAPPING.items() if k != "input_language"}
    assert "input_language" not in mapping_from_dict(unset).to_dict()


def test_an_items_input_language_may_come_on_any_of_its_rows(tmp_path: Path) -> None:
    """The first row of an item left input_language empty, a later one gave it: the
    item took its outputs' language (only the first row was read)."""
    campaign = CampaignFactory()
    rows = [
        OUTPUTS,
        ["s1", "Das Haus ist alt.", "a", "The house is old.", "en", ""],
        ["s1", "Das Haus ist alt.", "b", "The building is old.", "en", "de"],
    ]
    outputs_import(campaign=campaign, path=write_csv(tmp_path / "o.csv", rows))
    assert _item_languages(campaign) == {"s1": "de"}
