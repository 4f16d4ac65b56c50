"""A WMT13 import keeps srcIndex, documentId and srclang, and the export writes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.models import Judgement
from tests.annotations.importing.conftest import write_csv
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


# 4. The WMT export writes the file's own ids back --------------------------------------

WMT_HEADER = (
    ["srclang", "trglang", "srcIndex", "documentId", "segmentId", "judgeId"]
    + [f"system{i}{part}" for i in range(1, 6) for part in ("Number", "Id")]
    + [f"system{i}rank" for i in range(1, 6)]
)


WMT_SYSTEMS = ["KIT.2658", "online-B", "uedin.2838", "JHU.2684", "DCU.2828"]


def _wmt13(tmp_path: Path) -> Path:
    def row(index: str, document: str, segment: str, judge: str, numbers: list[str]) -> list[str]:
        pairs = [v for n, s in zip(numbers, WMT_SYSTEMS, strict=True) for v in (n, s)]
        return [
            "French",
            "English",
            index,
            document,
            segment,
            judge,
            *pairs,
            "1",
            "2",
            "3",
            "4",
            "5",
        ]

    rows = [
        WMT_HEADER,
        row("1417", "newstest2013-doc12", "1417", "judge7", ["12", "3", "9", "1", "5"]),
        row("88", "-1", "88", "judge8", ["-1"] * 5),
    ]
    return write_csv(tmp_path / "wmt13-fr-en.csv", rows)


def test_import_wmt_keeps_srcindex_documentid_srclang_and_the_export_writes_them(tmp_path):
    import csv
    import io

    from annotations.exports.judgements import wmt_lines
    from annotations.importing.wmt import wmt_import

    campaign = CampaignFactory()
    wmt_import(campaign=campaign, path=_wmt13(tmp_path))
    meta = {
        j.task.item.external_id: j.metadata for j in Judgement.objects.select_related("task__item")
    }
    assert meta["1417"]["srclang"] == "fr" and meta["1417"]["srcIndex"] == "1417"
    assert meta["1417"]["documentId"] == "newstest2013-doc12"
    assert meta["1417"]["systemNumbers"]["KIT.2658"] == "12"
    assert meta["88"]["srclang"] == "fr" and "documentId" not in meta["88"]
    criterion = campaign.criteria.get()
    exported = list(csv.DictReader(io.StringIO("".join(wmt_lines(criterion=criterion)))))
    by_segment = {r["segmentId"]: r for r in exported}
    first = by_segment["1417"]
    assert (first["srclang"], first["trglang"], first["srcIndex"], first["documentId"]) == (
        "fr",
        "en",
        "1417",
        "newstest2013-doc12",
    )
    numbers = {first[f"system{i}Id"]: first[f"system{i}Number"] for i in range(1, 6)}
    assert numbers == dict(zip(WMT_SYSTEMS, ["12", "3", "9", "1", "5"], strict=True))
    second = by_segment["88"]
    assert (second["srcIndex"], second["documentId"], second["system1Number"]) == ("88", "-1", "-1")

    # Re-imported, the export keeps them again.
    path = tmp_path / "again.csv"
    path.write_text("".join(wmt_lines(criterion=criterion)), encoding="utf-8")
    other = CampaignFactory()
    wmt_import(campaign=other, path=path)
    again = {
        j.task.item.external_id: j.metadata
        for j in Judgement.objects.filter(criterion__campaign=other).select_related("task__item")
    }
    for key in ("srclang", "srcIndex", "documentId", "systemNumbers"):
        assert again["1417"][key] == meta["1417"][key]


def test_the_wmt_preset_keeps_srcindex_documentid_srclang_as_import_wmt_does(tmp_path):
    """The same file through the ``wmt`` preset: the export wrote ``-1`` for the source
    language, source index and document the file had given (only import_wmt kept them)."""
    import csv
    import io

    from annotations.exports.judgements import wmt_lines
    from annotations.importing.mapped import mapped_import
    from annotations.importing.parsers.presets import preset_mapping

    campaign = CampaignFactory(slug="wmt13-preset")
    mapped_import(campaign=campaign, path=_wmt13(tmp_path), mapping=preset_mapping("wmt"))
    criterion = campaign.criteria.get()
    rows = list(csv.DictReader(io.StringIO("".join(wmt_lines(criterion=criterion)))))
    by_segment = {row["segmentId"]: row for row in rows}
    first, second = by_segment["1417"], by_segment["88"]
    assert (first["srclang"], first["srcIndex"], first["documentId"]) == (
        "French",
        "1417",
        "newstest2013-doc12",
    )
    assert (second["srcIndex"], second["documentId"]) == ("88", "-1")


def test_the_wmt_preset_reads_a_file_without_the_source_ids(tmp_path):
    """WMT16's files as xml2csv writes them may lack srcIndex and documentId: optional."""
    from annotations.importing.mapped import mapped_import
    from annotations.importing.parsers.presets import preset_mapping

    header = ["trglang", "segmentId", "judgeId", "system1Id", "system2Id"]
    header += ["system1rank", "system2rank"]
    path = write_csv(tmp_path / "bare.csv", [header, ["en", "7", "j1", "a", "b", "1", "2"]])
    campaign = CampaignFactory(slug="wmt-bare")
    mapped_import(campaign=campaign, path=path, mapping=preset_mapping("wmt"))
    assert Judgement.objects.filter(criterion__campaign=campaign).count() == 1
