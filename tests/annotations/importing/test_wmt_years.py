"""WMT's own ranking CSVs, as each year's tools wrote them, import with ``import_wmt``.

The files are written here in the header shapes of the releases (see the docstring of
``annotations.importing.parsers.wmt``): WMT13-15's five-way exports with language names
or codes, WMT15-16's pairwise exports with ``rankingID``, and wmt-trueskill's
``xml2csv.py`` output with ``-1`` for the languages and ``judgeID``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing.wmt import wmt_import
from annotations.models import Campaign, Item, Judgement, Output
from common.errors import ImportFileError
from tests.annotations.importing.conftest import write_csv
from tests.annotations.importing.wmt_files import FIVE_WAY, SYSTEMS, five_way
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


PAIRWISE_15 = [
    "srclang",
    "trglang",
    "srcIndex",
    "segmentId",
    "judgeID",
    "system1Id",
    "system1rank",
    "system2Id",
    "system2rank",
    "rankingID",
]


PAIRWISE_16 = [c.replace("judgeID", "judgeId") for c in PAIRWISE_15]


def pairwise(
    src: str, trg: str, segment: int, judge: str, a: int, b: int, ranking: int
) -> list[str]:
    return [
        src,
        trg,
        str(segment),
        str(segment),
        judge,
        SYSTEMS[0],
        str(a),
        SYSTEMS[1],
        str(b),
        str(ranking),
    ]


def _languages(campaign: Campaign) -> dict[str, str]:
    return dict(Item.objects.filter(campaign=campaign).values_list("external_id", "language"))


def test_wmt13_language_names_are_read_as_codes(tmp_path: Path) -> None:
    """WMT13's exports (and wmt-trueskill's sample) write ``French,English``."""
    campaign = CampaignFactory()
    path = write_csv(
        tmp_path / "wmt13.csv",
        [
            FIVE_WAY,
            five_way("French", "English", 556, "researcher_31", [2, 2, 3, 2, 1]),
            five_way("French", "English", 766, "researcher_83", [2, 2, 1, 1, -1]),
        ],
    )
    summary = wmt_import(campaign=campaign, path=path)
    assert (summary.judgements, summary.skipped_unranked) == (1, 1)
    assert _languages(campaign) == {"556": "en"}
    assert set(
        Output.objects.filter(item__campaign=campaign).values_list("language", flat=True)
    ) == {"en"}
    assert Campaign.objects.get(pk=campaign.pk).languages == ["en"]


def test_wmt14_several_pairs_by_name_name_their_items_by_code(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    path = write_csv(
        tmp_path / "wmt14.csv",
        [
            FIVE_WAY,
            five_way("Czech", "English", 1, "annotator17", [1, 2, 3, 4, 5]),
            five_way("Hindi", "English", 1, "annotator18", [5, 4, 3, 2, 1]),
            five_way("English", "Russian", 1, "annotator19", [1, 1, 2, 2, 3]),
        ],
    )
    wmt_import(campaign=campaign, path=path)
    assert _languages(campaign) == {"cs-en:1": "en", "hi-en:1": "en", "en-ru:1": "ru"}


@pytest.mark.parametrize(
    ("year", "header", "judge"),
    [("wmt15", PAIRWISE_15, "judgeID"), ("wmt16", PAIRWISE_16, "judgeId")],
)
def test_wmt15_and_wmt16_pairwise_exports_keep_their_ranking_id(
    tmp_path: Path, year: str, header: list[str], judge: str
) -> None:
    campaign = CampaignFactory()
    path = write_csv(
        tmp_path / f"{year}.csv",
        [
            header,
            pairwise("deu", "eng", 7, "judge1", 1, 3, 1),
            pairwise("deu", "eng", 7, "judge1", 3, 3, 1),
            pairwise("ces", "eng", 7, "judge2", 2, 1, 2),
        ],
    )
    summary = wmt_import(campaign=campaign, path=path)
    assert summary.judgements == 3 and summary.workers == 2
    assert _languages(campaign) == {"de-en:7": "en", "cs-en:7": "en"}
    ids = sorted(
        Judgement.objects.filter(criterion__campaign=campaign).values_list(
            "metadata__rankingID", flat=True
        )
    )
    assert [str(i) for i in ids] == ["1", "1", "2"]
    # Ranks of the five-way ranking (1 and 3) become ranks within the pair (1 and 2);
    # those as written are kept.
    first = Judgement.objects.get(criterion__campaign=campaign, metadata__line=2)
    assert list(first.scores.values_list("rank", "score")) == [(1.0, 2.0), (2.0, 1.0)]
    assert first.metadata["ranks_written"] == [1, 3]
    tie = Judgement.objects.get(criterion__campaign=campaign, metadata__line=3)
    assert list(tie.scores.values_list("rank", flat=True)) == [1.0, 1.0]


def test_trueskill_xml2csv_placeholders_leave_the_language_to_the_campaign(tmp_path: Path) -> None:
    """wmt-trueskill's ``xml2csv.py`` writes ``-1`` languages, ``judgeID``, its own order."""
    campaign = CampaignFactory(languages=["de"])
    header = ["srclang", "trglang", "documentId", "segmentId", "judgeID", "srcIndex"] + [
        f"system{i}{part}" for i in (1, 2) for part in ("Id", "Number", "rank")
    ]
    rows = [
        header,
        ["-1", "-1", "-1", "3", "alice", "3", "sysA", "-1", "1", "sysB", "-1", "2"],
        ["", "", "-1", "4", "bob", "4", "sysA", "-1", "2", "sysB", "-1", "1"],
    ]
    summary = wmt_import(campaign=campaign, path=write_csv(tmp_path / "trueskill.csv", rows))
    assert summary.judgements == 2
    assert _languages(campaign) == {"3": "de", "4": "de"}


def test_mixed_names_codes_and_placeholders_in_one_file(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    rows = [
        FIVE_WAY,
        five_way("German", "English", 1, "a", [1, 2, 3, 4, 5]),
        five_way("deu", "eng", 2, "b", [1, 2, 3, 4, 5]),
        five_way("de", "en", 3, "c", [1, 2, 3, 4, 5]),
    ]
    wmt_import(campaign=campaign, path=write_csv(tmp_path / "mixed.csv", rows))
    assert set(_languages(campaign).values()) == {"en"}
    assert set(_languages(campaign)) == {"1", "2", "3"}  # one pair: segment ids as given


def test_what_cannot_be_a_language_is_refused_naming_value_file_and_line(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    rows = [
        FIVE_WAY,
        five_way("French", "English", 1, "a", [1, 2, 3, 4, 5]),
        five_way("Elvish", "English", 2, "b", [1, 2, 3, 4, 5]),
    ]
    with pytest.raises(ImportFileError) as error:
        wmt_import(campaign=campaign, path=write_csv(tmp_path / "bad.csv", rows))
    message = str(error.value)
    assert "'Elvish'" in message and "bad.csv" in message
    assert "line 3" in message and "srclang" in message
    assert not Item.objects.filter(campaign=campaign).exists()
