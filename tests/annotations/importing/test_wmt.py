from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing.wmt import wmt_import
from annotations.models import Criterion, Item, Judgement, Output, Task, Worker
from common.errors import DomainError, ImportFileError
from tests.annotations.importing.conftest import write_csv
from tests.factories import CampaignFactory, OutputFactory

pytestmark = pytest.mark.django_db

HEADER = ["srclang", "trglang", "segmentId", "judgeId"] + [
    f"system{i}{c}" for c in ("Id", "rank") for i in range(1, 6)
]


def row(segment: str, judge: str, systems: list[str], ranks: list[int]) -> list[str]:
    return ["cze", "eng", segment, judge, *systems, *map(str, ranks)]


SYSTEMS = ["s1", "s2", "s3", "s4", "s5"]
GOOD = [
    HEADER,
    row("10", "judgeA", SYSTEMS, [1, 2, 2, 4, 5]),
    row("10", "judgeB", SYSTEMS, [5, 4, 3, 2, 1]),
    row("11", "judgeA", SYSTEMS, [1, -1, 2, 3, 4]),
]


def test_good_wmt(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    kept = OutputFactory(
        item__campaign=campaign, item__external_id="10", system__label="s1", text="Kept."
    )
    s = wmt_import(campaign=campaign, path=write_csv(tmp_path / "wmt.csv", GOOD))
    assert (s.judgements, s.skipped_unranked, s.workers) == (2, 1, 2)
    assert (s.items_created, s.systems_created, s.outputs_created) == (0, 4, 4)
    assert Output.objects.get(pk=kept.pk).text == "Kept."
    assert Output.objects.get(item__external_id="10", system__label="s5").text == ""
    assert not Item.objects.filter(campaign=campaign, external_id="11").exists()
    criterion = Criterion.objects.get(campaign=campaign, name="ranking")
    assert criterion.scale == Criterion.Scale.LIKERT
    judgement = Judgement.objects.get(worker__external_id="judgeA")
    assert list(judgement.scores.values_list("score", "rank")) == [
        (5.0, 1.0),
        (4.0, 2.0),
        (4.0, 2.0),
        (2.0, 4.0),
        (1.0, 5.0),
    ]
    assert judgement.task.kind == Task.Kind.IMPORTED and judgement.task.external_id == ""
    # Both judges of segment 10 ranked the same systems: one task, two judgements.
    assert Task.objects.filter(campaign=campaign).count() == 1
    assert Task.objects.get(campaign=campaign).judgements.count() == 2
    assert Worker.objects.get(external_id="judgeB").platform == Worker.Platform.IMPORTED


def test_same_file_twice_is_refused(tmp_path: Path, counts) -> None:
    campaign = CampaignFactory()
    path = write_csv(tmp_path / "wmt.csv", GOOD)
    wmt_import(campaign=campaign, path=path, criterion_name="adequacy")
    before = counts()
    with pytest.raises(ImportFileError, match="imported before"):
        wmt_import(campaign=campaign, path=path, criterion_name="adequacy")
    assert counts() == before


BAD = {
    "rank out of range": (
        [HEADER, row("1", "j", SYSTEMS, [1, 2, 3, 4, 5]), row("2", "j", SYSTEMS, [1, 2, 3, 4, 6])],
        3,
        "system5rank",
    ),
    "rank not a number": (
        [HEADER, [*row("2", "j", SYSTEMS, [1, 2, 3, 4, 5])[:-1], "x"]],
        2,
        "system5rank",
    ),
    "empty judge": ([HEADER, row("2", "", SYSTEMS, [1, 2, 3, 4, 5])], 2, "judgeId"),
    "same system twice": (
        [HEADER, row("2", "j", ["a", "b", "a", "c", "d"], [1, 2, 3, 4, 5])],
        2,
        "system3Id",
    ),
    "missing column": ([[h for h in HEADER if h != "system2rank"], ["x"] * 13], 1, "system2rank"),
    "column count": ([HEADER, row("2", "j", SYSTEMS, [1, 2, 3, 4, 5])[:-2]], 2, "system4rank"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_wmt_names_file_line_field_and_writes_nothing(tmp_path: Path, counts, case) -> None:
    rows, line, field = BAD[case]
    path = write_csv(tmp_path / "bad.csv", rows)
    campaign = CampaignFactory()
    before = counts()
    with pytest.raises(ImportFileError) as info:
        wmt_import(campaign=campaign, path=path)
    err = info.value
    assert (err.file, err.line, err.field) == (str(path), line, field)
    assert str(path) in str(err) and f"line {line}" in str(err) and f"'{field}'" in str(err)
    assert counts() == before


def test_agreement_on_an_imported_multi_judge_file(tmp_path: Path) -> None:
    """Several judges ranking the same segment and systems (in their own orders) give
    Krippendorff's alpha equal to the krippendorff package's, and WMT's kappa."""
    from itertools import combinations

    import krippendorff
    import numpy as np

    from annotations.selectors.agreement import criterion_agreement

    rng = np.random.default_rng(17)
    judges = [f"judge{n}" for n in range(4)]
    rows = [HEADER]
    truth: dict[tuple[str, str], dict[str, int]] = {}  # (segment, judge) -> system -> rank
    for segment in range(6):
        for judge in judges:
            order = [SYSTEMS[i] for i in rng.permutation(5)]
            given = [int(r) for r in rng.integers(1, 6, size=5)]
            rows.append(row(str(segment), judge, order, given))
            truth[str(segment), judge] = dict(zip(order, given, strict=True))
    # judge0 ranks segment 0 a second time: an intra-annotator comparison.
    again = [SYSTEMS[i] for i in rng.permutation(5)]
    again_ranks = [int(r) for r in rng.integers(1, 6, size=5)]
    rows.append(row("0", "judge0", again, again_ranks))
    campaign = CampaignFactory()
    wmt_import(campaign=campaign, path=write_csv(tmp_path / "wmt13.csv", rows))
    assert Task.objects.filter(campaign=campaign).count() == 6
    criterion = Criterion.objects.get(campaign=campaign, name="ranking")
    ours = criterion_agreement(criterion=criterion)

    # The oracle: one coder per judgement, units (segment, pair of systems), ordinal.
    # A pair is oriented as the monitor orients it (by system label, whatever order the
    # import created the outputs in): at the ordinal level the orientation matters.
    pairs = list(combinations(sorted(SYSTEMS), 2))
    units: list[tuple[str, tuple[str, str]]] = [
        (seg, pair) for seg in map(str, range(6)) for pair in pairs
    ]

    def sign(ranks: dict[str, int], a: str, b: str) -> int:
        return (ranks[a] < ranks[b]) - (ranks[a] > ranks[b])  # rank 1 is best

    coders = [(key, ranks) for key, ranks in truth.items()]
    coders.append((("0", "judge0"), dict(zip(again, again_ranks, strict=True))))
    matrix = np.full((len(coders), len(units)), np.nan)
    for c, ((seg, _), ranks) in enumerate(coders):
        for u, (unit_seg, (a, b)) in enumerate(units):
            if unit_seg == seg:
                matrix[c, u] = sign(ranks, a, b)
    expected = krippendorff.alpha(reliability_data=matrix, level_of_measurement="ordinal")
    assert ours.preference_alpha == pytest.approx(expected, abs=1e-9)

    # WMT's kappa, worked out from the ranks: every two judgements of a segment; P(E)
    # from every preference given (pairs oriented as above).
    def oriented(seg: str) -> list[tuple[str, str]]:
        return [pair for unit_seg, pair in units if unit_seg == seg]

    def kappa(same_judge: bool) -> float:
        labels = [sign(r, a, b) for ((seg, _), r) in coders for a, b in oriented(seg)]
        p_e = sum((labels.count(v) / len(labels)) ** 2 for v in (-1, 0, 1))
        agree = total = 0
        for (key_a, r_a), (key_b, r_b) in combinations(coders, 2):
            if key_a[0] == key_b[0] and (key_a[1] == key_b[1]) == same_judge:
                for a, b in oriented(key_a[0]):
                    total += 1
                    agree += sign(r_a, a, b) == sign(r_b, a, b)
        return (agree / total - p_e) / (1 - p_e)

    assert ours.inter_kappa == pytest.approx(kappa(False), abs=1e-12)
    assert ours.intra_kappa == pytest.approx(kappa(True), abs=1e-12)


def test_an_archived_campaign_takes_no_rankings(tmp_path: Path, counts) -> None:
    from common.errors import DomainError

    campaign = CampaignFactory(status="archived")
    before = counts()
    with pytest.raises(DomainError, match="is archived, so it is read-only"):
        wmt_import(campaign=campaign, path=write_csv(tmp_path / "wmt.csv", GOOD))
    assert counts() == before


@pytest.mark.parametrize("name", ["My ranking", "x" * 65])
def test_a_criterion_name_the_criteria_service_refuses_is_refused(tmp_path: Path, name) -> None:
    """The criterion a WMT import creates obeys the criteria service's rules: a name that
    is not a slug of at most 64 characters is refused, as the designer's page and the API
    refuse it (the import created it before); nothing is written."""
    campaign = CampaignFactory()
    with pytest.raises(DomainError, match=r"Criterion '.*': Name: ") as err:
        wmt_import(
            campaign=campaign, path=write_csv(tmp_path / "wmt.csv", GOOD), criterion_name=name
        )
    assert str(tmp_path) not in str(err.value)
    assert not Criterion.objects.exists() and not Judgement.objects.exists()
    assert not Item.objects.filter(campaign=campaign).exists()


@pytest.mark.parametrize(
    ("changed", "field", "longest"),
    [("segment", "segmentId", 200), ("judge", "judgeId", 200), ("system", "system2Id", 100)],
)
def test_an_id_longer_than_its_column_is_refused_by_line(tmp_path, changed, field, longest):
    """As in a mapped file: PostgreSQL's columns refused them with a 500, SQLite kept them."""
    campaign = CampaignFactory()
    long = "x" * (longest + 1)
    segment, judge = (long, "judgeA") if changed == "segment" else ("10", long)
    systems = ["s1", long, "s3", "s4", "s5"] if changed == "system" else SYSTEMS
    if changed == "system":
        judge = "judgeA"
    rows = [HEADER, row(segment, judge, systems, [1, 2, 3, 4, 5])]
    with pytest.raises(ImportFileError) as err:
        wmt_import(campaign=campaign, path=write_csv(tmp_path / "wmt.csv", rows))
    assert (err.value.line, err.value.field) == (2, field)
    assert f"at most {longest} are kept" in str(err.value)
    assert not Judgement.objects.exists()
