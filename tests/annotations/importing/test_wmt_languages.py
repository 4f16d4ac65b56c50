"""WMT rankings carry their target language (``trglang``) to items, outputs and tasks."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing.wmt import wmt_import
from annotations.models import Campaign, Item, Judgement, Output, Task
from common.errors import DomainError, ImportFileError
from tests.annotations.importing.conftest import write_csv
from tests.factories import CampaignFactory, ItemFactory, OutputFactory

pytestmark = pytest.mark.django_db

HEADER = ["srclang", "trglang", "segmentId", "judgeId"] + [
    f"system{i}{c}" for c in ("Id", "rank") for i in range(1, 4)
]


def row(src: str, trg: str, segment: str, judge: str, ranks=(1, 2, 3)) -> list[str]:
    return [src, trg, segment, judge, "s1", "s2", "s3", *map(str, ranks)]


def test_the_target_language_is_the_outputs_and_tasks_language(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    path = write_csv(tmp_path / "wmt.csv", [HEADER, row("eng", "deu", "1", "a")])
    wmt_import(campaign=campaign, path=path)
    item = Item.objects.get(campaign=campaign, external_id="1")
    assert item.language == "de"
    assert set(Output.objects.filter(item=item).values_list("language", flat=True)) == {"de"}
    assert Task.objects.get(campaign=campaign).language == "de"
    # A new campaign's untouched English default gives way to the file's language.
    assert Campaign.objects.get(pk=campaign.pk).languages == ["de"]


def test_several_language_pairs_keep_their_segments_apart(tmp_path: Path) -> None:
    """WMT reuses segment ids across pairs: segment 1 of en-de is not segment 1 of en-cs."""
    campaign = CampaignFactory()
    path = write_csv(
        tmp_path / "wmt.csv",
        [
            HEADER,
            row("eng", "deu", "1", "a"),
            row("eng", "ces", "1", "b"),
            row("eng", "deu", "1", "c"),
        ],
    )
    summary = wmt_import(campaign=campaign, path=path)
    assert summary.items_created == 2
    items = dict(Item.objects.filter(campaign=campaign).values_list("external_id", "language"))
    assert items == {"en-de:1": "de", "en-cs:1": "cs"}
    tasks = Task.objects.filter(campaign=campaign)
    assert sorted(tasks.values_list("language", flat=True)) == ["cs", "de"]
    # Two judges of the en-de segment share its task; the en-cs judge has their own.
    assert Task.objects.get(language="de").judgements.count() == 2
    assert Campaign.objects.get(pk=campaign.pk).languages == ["de", "cs"]


def test_a_bad_language_code_names_the_line_and_field(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    path = write_csv(
        tmp_path / "wmt.csv", [HEADER, row("eng", "deu", "1", "a"), row("eng", "xx", "2", "b")]
    )
    with pytest.raises(ImportFileError) as error:
        wmt_import(campaign=campaign, path=path)
    message = str(error.value)
    assert "wmt.csv" in message and "line 3" in message and "trglang" in message
    assert "'xx'" in message
    assert not Judgement.objects.filter(criterion__campaign=campaign).exists()
    assert not Item.objects.filter(campaign=campaign).exists()


def test_a_file_without_languages_takes_the_campaigns_first(tmp_path: Path) -> None:
    campaign = CampaignFactory(languages=["fr", "en"])
    header = HEADER[2:]
    path = write_csv(tmp_path / "wmt.csv", [header, row("x", "y", "1", "a")[2:]])
    wmt_import(campaign=campaign, path=path)
    assert Item.objects.get(campaign=campaign).language == "fr"
    assert Task.objects.get(campaign=campaign).language == "fr"
    assert Campaign.objects.get(pk=campaign.pk).languages == ["fr", "en"]


def test_a_judgement_over_outputs_in_two_languages_is_refused(tmp_path: Path) -> None:
    campaign = CampaignFactory(languages=["en", "de"])
    item = ItemFactory(campaign=campaign, external_id="7")
    for label, language in (("s1", "en"), ("s2", "de"), ("s3", "en")):
        OutputFactory(item=item, system__campaign=campaign, system__label=label, language=language)
    path = write_csv(tmp_path / "wmt.csv", [HEADER[2:], row("x", "y", "7", "a")[2:]])
    with pytest.raises(DomainError, match="several languages"):
        wmt_import(campaign=campaign, path=path)
    assert not Task.objects.filter(campaign=campaign).exists()
