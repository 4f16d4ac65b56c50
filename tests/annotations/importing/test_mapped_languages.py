"""Rating files with a language column: a row's outputs take its language,
tasks never mix languages, the campaign gains the languages, and a bad code is refused
naming file, line and field with nothing written."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from annotations.importing.mapped import mapped_import
from annotations.importing.parsers.mapped.mapping import mapping_from_dict
from annotations.models import Item, Output, Task
from common.errors import ImportFileError
from tests.annotations.importing.conftest import write_csv
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


HEADER = ["worker", "item", "lang", "sys1", "out1", "fluency1", "sys2", "out2", "fluency2"]


def _rows(*extra: list[str]) -> list[list[str]]:
    return [
        HEADER,
        ["w1", "m1", "de", "a", "Das ist gut.", "5", "b", "Gut ist das.", "3"],
        ["w2", "m1", "de", "a", "Das ist gut.", "4", "b", "Gut ist das.", "2"],
        ["w3", "m2", "fr_FR", "a", "C'est bien.", "4", "b", "Bien c'est.", "2"],
        *extra,
    ]


MAPPING = {
    "format": "csv",
    "worker": "worker",
    "item": "item",
    "language": "lang",
    "system": "sys{i}",
    "output": "out{i}",
    "slots": 2,
    "criteria": [{"name": "fluency", "score": "fluency{i}"}],
}


def test_a_rows_outputs_and_task_take_its_language(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    result = mapped_import(
        campaign=campaign,
        path=write_csv(tmp_path / "r.csv", _rows()),
        mapping=mapping_from_dict(MAPPING),
    )
    assert result.judgements == 3
    languages = dict(Output.objects.filter(item__campaign=campaign).values_list("text", "language"))
    assert languages["Das ist gut."] == "de" and languages["C'est bien."] == "fr-FR"
    assert dict(Item.objects.filter(campaign=campaign).values_list("external_id", "language")) == {
        "m1": "de",
        "m2": "fr-FR",
    }
    assert sorted(Task.objects.filter(campaign=campaign).values_list("language", flat=True)) == [
        "de",
        "fr-FR",
    ]
    campaign.refresh_from_db()
    assert campaign.languages == ["de", "fr-FR"]  # the untouched English default gave way


@pytest.mark.parametrize(
    ("extra", "line", "message"),
    [
        (
            ["w4", "m3", "xx", "a", "x", "1", "b", "y", "2"],
            5,
            "neither a BCP 47 language code nor a",
        ),
        (["w4", "m3", "", "a", "x", "1", "b", "y", "2"], 5, "empty"),
        (["w4", "m1", "fr", "a", "Das ist gut.", "1", "b", "Gut ist das.", "2"], 5, "is in 'de'"),
    ],
)
def test_a_bad_language_names_file_line_and_field_and_writes_nothing(
    tmp_path: Path, counts: Callable[[], dict[str, int]], extra, line, message
) -> None:
    campaign = CampaignFactory()
    before = counts()
    with pytest.raises(ImportFileError, match=message) as err:
        mapped_import(
            campaign=campaign,
            path=write_csv(tmp_path / "r.csv", _rows(extra)),
            mapping=mapping_from_dict(MAPPING),
        )
    assert err.value.file.endswith("r.csv")
    assert (err.value.line, err.value.field) == (line, "lang")
    assert counts() == before


def test_an_existing_output_in_another_language_is_refused(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    mapped_import(
        campaign=campaign,
        path=write_csv(tmp_path / "r.csv", _rows()),
        mapping=mapping_from_dict(MAPPING),
    )
    later = [HEADER, ["w9", "m2", "es", "a", "C'est bien.", "4", "b", "Bien c'est.", "2"]]
    with pytest.raises(ImportFileError, match="is in 'fr-FR', not 'es'") as err:
        mapped_import(
            campaign=campaign,
            path=write_csv(tmp_path / "later.csv", later),
            mapping=mapping_from_dict(MAPPING),
        )
    assert (err.value.line, err.value.field) == (2, "lang")


def test_outputs_created_the_other_way_than_their_language_are_noted(tmp_path: Path) -> None:
    """A rating file's Arabic outputs without a language column take the campaign's
    English: the import's notes say so, as an outputs upload does."""
    campaign = CampaignFactory()
    rows = [
        [c for c in HEADER if c != "lang"],
        ["w1", "m1", "a", "أرومي مقهى.", "5", "b", "Aromi is a pub.", "3"],
    ]
    mapping = {k: v for k, v in MAPPING.items() if k != "language"}
    result = mapped_import(
        campaign=campaign,
        path=write_csv(tmp_path / "r.csv", rows),
        mapping=mapping_from_dict(mapping),
    )
    (note,) = [n for n in result.notes() if "written" in n]
    assert note.startswith("1 output in 'en' looks written right to left")
    assert note in result.summary()["notes"]


def test_outputs_given_no_language_are_said_to_take_the_campaigns(tmp_path: Path) -> None:
    """Review: a ``-1`` (none) language cell was stored as the campaign's English and
    counted so by the datasheet, with nothing saying it was a default."""
    campaign = CampaignFactory()
    none = ["w4", "m3", "-1", "a", "Ok.", "4", "b", "No.", "2"]
    path = write_csv(tmp_path / "langs.csv", _rows(none))
    result = mapped_import(campaign=campaign, path=path, mapping=mapping_from_dict(MAPPING))
    (said,) = [n for n in result.notes() if n.startswith("Languages defaulted")]
    assert "no language for 2 new outputs" in said
    assert f"'{campaign.default_language}'" in said
    assert set(
        Output.objects.filter(item__external_id="m3").values_list("language", flat=True)
    ) == {campaign.default_language}
    # a file whose every row gives its language says nothing of the kind
    other = CampaignFactory()
    given = mapped_import(
        campaign=other,
        path=write_csv(tmp_path / "given.csv", _rows()),
        mapping=mapping_from_dict(MAPPING),
    )
    assert not [n for n in given.notes() if n.startswith("Languages defaulted")]
