"""A language column or a per-file language sets items', outputs' and the campaign's languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotations.importing.outputs import outputs_import
from annotations.models import Campaign, Item, Output
from common.errors import DomainError, ImportFileError
from tests.annotations.importing.conftest import write_csv
from tests.annotations.languages_data import _rows
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


HEADER = ["item_id", "input", "system", "output", "language"]


def test_a_language_column_sets_items_outputs_and_the_campaigns_languages(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    path = write_csv(tmp_path / "o.csv", [HEADER, *_rows({"1": "de", "2": "FR", "3": "de"})])
    outputs_import(campaign=campaign, path=path)
    assert dict(Item.objects.filter(campaign=campaign).values_list("external_id", "language")) == {
        "1": "de",
        "2": "fr",
        "3": "de",
    }
    assert set(
        Output.objects.filter(item__campaign=campaign).values_list("language", flat=True)
    ) == {
        "de",
        "fr",
    }
    # A new campaign's untouched English default gives way to the file's languages.
    assert Campaign.objects.get(pk=campaign.pk).languages == ["de", "fr"]


def test_a_bad_code_names_file_line_and_field_and_writes_nothing(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    rows = [HEADER, *_rows({"1": "de"}), ["2", "in", "s0", "text", "klingon!"]]
    with pytest.raises(ImportFileError) as error:
        outputs_import(campaign=campaign, path=write_csv(tmp_path / "o.csv", rows))
    message = str(error.value)
    assert "o.csv" in message and "line 5" in message and "language" in message
    assert not Item.objects.filter(campaign=campaign).exists()
    with pytest.raises(ImportFileError, match="language"):
        outputs_import(
            campaign=campaign,
            path=write_csv(
                tmp_path / "a.csv",
                [
                    ["item_id", "input", "system", "output", "attr:language"],
                    ["1", "i", "s", "t", "de"],
                ],
            ),
        )


def test_jsonl_and_a_per_file_language(tmp_path: Path) -> None:
    campaign = CampaignFactory(languages=["en", "es"])
    lines = [
        {"item_id": "1", "input": "i", "system": "a", "output": "hola", "language": "es"},
        {"item_id": "1", "input": "i", "system": "b", "output": "buenas", "language": "es"},
        {"item_id": "2", "input": "j", "system": "a", "output": "bonjour"},
        {"item_id": "2", "input": "j", "system": "b", "output": "salut"},
    ]
    path = tmp_path / "o.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    outputs_import(campaign=campaign, path=path, language="fr")
    assert dict(Item.objects.filter(campaign=campaign).values_list("external_id", "language")) == {
        "1": "es",
        "2": "fr",
    }
    assert Campaign.objects.get(pk=campaign.pk).languages == ["en", "es", "fr"]
    with pytest.raises(DomainError, match="language"):
        outputs_import(campaign=campaign, path=path, language="zz-!")


def test_outputs_written_the_other_way_than_their_language_are_named(tmp_path: Path) -> None:
    """Arabic outputs uploaded without a language column took the campaign's English and
    were shown to workers left to right, without a word at upload."""
    campaign = CampaignFactory()
    rows = [
        ["item_id", "input", "system", "output"],
        ["1", "name[Aromi]", "s0", "أرومي مقهى في وسط المدينة."],
        ["1", "name[Aromi]", "s1", "Aromi هو مقهى."],  # mostly Arabic letters
        ["2", "name[Cotto]", "s0", "Cotto is a pub."],
        ["2", "name[Cotto]", "s1", "2024!"],  # no letters: no direction
    ]
    summary = outputs_import(campaign=campaign, path=write_csv(tmp_path / "o.csv", rows))
    (warning,) = summary.warnings
    assert warning.startswith("2 outputs in 'en' look written right to left")
    assert "'language' column" in warning
    # the way the page offers: remove the outputs and upload again (not a new campaign)
    assert "'Remove all uploaded outputs'" in warning and "new campaign" not in warning
    # A language the file gives is the designer's word: a mixed-script Hebrew output
    # ("restaurant near river עם נוף") under "he" is not questioned.
    hebrew = [["item_id", "input", "system", "output", "language"]]
    hebrew.append(["3", "in", "s0", "שלום עולם", "he"])
    hebrew.append(["3", "in", "s1", "restaurant near river עם נוף", "he"])
    again = outputs_import(campaign=campaign, path=write_csv(tmp_path / "h.csv", hebrew))
    assert again.warnings == ()
