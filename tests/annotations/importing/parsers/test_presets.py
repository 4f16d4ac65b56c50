"""Built-in presets: a small synthetic file in each preset's shape, read through it."""

from __future__ import annotations

import csv
import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from annotations.importing.parsers.mapped import parse_mapped
from annotations.importing.parsers.mapped.rows import AGGREGATE_WORKER
from annotations.importing.parsers.presets import (
    PRESETS,
    mapping_renamed,
    preset_dict,
    preset_mapping,
)
from common.errors import ImportFileError
from tests.annotations.importing.conftest import write_csv

# Two judges of one item with three systems, in each file shape: (worker, item, input,
# systems, texts, scores).
JUDGEMENTS = [
    ("w1", "7", "the input", ["a", "b", "c"], ["ta", "tb", "tc"], [3, 1, 2]),
    ("w2", "7", "the input", ["c", "a", "b"], ["tc", "ta", "tb"], [1, 3, 3]),
]


def _dicts(path: Path, rows: Sequence[Mapping[str, object]], *, delimiter: str = ",") -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]), delimiter=delimiter)
        writer.writeheader()
        writer.writerows(rows)
    return path


def _slots(prefix: str, values: Sequence[object], first: int = 1) -> dict[str, object]:
    return {prefix.replace("{i}", str(n + first)): v for n, v in enumerate(values)}


def e2e_file(tmp: Path, prefix: str = "quality") -> Path:
    rows = []
    for n, (w, item, inp, systems, texts, scores) in enumerate(JUDGEMENTS):
        rows.append(
            {
                "_unit_id": "u1",
                "_id": f"j{n}",
                "_worker_id": w,
                "_started_at": "11/28/2017 14:42:14",
                "_created_at": "11/28/2017 14:51:43",
                "_country": "USA",
                "mr": inp,
                "mr_id": item,
                **_slots("sys{i}", systems),
                **_slots("ref{i}", texts),
                **_slots(prefix + "{i}", scores),
                **(
                    _slots("check{i}", ["ok", "missing", "added\nmissing"])
                    if prefix == "quality"
                    else {}
                ),
            }
        )
    return _dicts(tmp / "e2e.csv", rows)


def wmt_file(tmp: Path) -> Path:
    rows = []
    for w, item, _, systems, _, scores in JUDGEMENTS:
        ranks = [1 + sum(o > s for o in scores) for s in scores]
        rows.append(
            {
                "srclang": "cze",
                "trglang": "eng",
                "segmentId": item,
                "judgeId": w,
                **_slots("system{i}Id", systems),
                **_slots("system{i}rank", ranks),
            }
        )
    return _dicts(tmp / "wmt.csv", rows)


#: the criterion's definition as humaneval's exports write it (a 1-5 Likert scale)
DEFINITION = {
    "name": "clarity",
    "scale": "likert",
    "scale_settings": {
        "levels": [{"value": v, "label": str(v), "descriptor": f"level {v}"} for v in range(1, 6)]
    },
    "content_checks": ["added", "missing"],
    "question": "How clear is it?",
    "show_input": True,
    "standard_input": "",
    "standard_text": "",
}


def jsonl_file(tmp: Path) -> Path:
    path = tmp / "export.jsonl"
    lines = []
    for w, item, inp, systems, texts, scores in JUDGEMENTS:
        lines.append(
            json.dumps(
                {
                    "unit_id": "u1",
                    "worker_id": w,
                    "item_id": item,
                    "input": inp,
                    "language": "en",
                    "started_at": "2024-01-01T10:00:00+00:00",
                    "submitted_at": "2024-01-01T10:05:00+00:00",
                    "outputs": [
                        {
                            "slot": n,
                            "system": s,
                            "text": t,
                            "score": v,
                            "rank": 1 + sum(o > v for o in scores),
                            "coverage": "",
                            "checks": ["added"] if v == 1 else [],
                        }
                        for n, (s, t, v) in enumerate(zip(systems, texts, scores, strict=True))
                    ],
                    "definition": DEFINITION,
                    "metadata": {"_channel": "neodev"},
                }
            )
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def humaneval_csv_file(tmp: Path) -> Path:
    rows = []
    for n, (w, item, inp, systems, texts, scores) in enumerate(JUDGEMENTS):
        rows.append(
            {
                "_unit_id": "u1",
                "_id": str(n + 1),
                "_worker_id": w,
                "_started_at": "11/28/2017 14:42:14",
                "_created_at": "11/28/2017 14:51:43",
                "mr": inp,
                "mr_id": item,
                "item_id": item,
                **_slots("sys{i}", systems),
                **_slots("ref{i}", texts),
                **_slots("clarity{i}", scores),
                **_slots("check{i}", ["", "", ""]),
                **_slots("content_checks{i}", ["added;missing" if v == 1 else "" for v in scores]),
                "_language": "en",
                **_slots("score{i}", scores),
                **_slots("rank{i}", [1 + sum(o > v for o in scores) for v in scores]),
                "_criterion": json.dumps(DEFINITION),
                "_metadata": json.dumps({"_trust": 0.9}),
            }
        )
    return _dicts(tmp / "export.csv", rows)


def crowdflower_full_file(tmp: Path) -> Path:
    rows = []
    for n, (w, item, inp, systems, texts, scores) in enumerate(JUDGEMENTS):
        rows.append(
            {
                "_unit_id": "900",
                "_created_at": "03/02/2018 10:01:00",
                "_golden": "false",
                "_id": str(5000 + n),
                "_missed": "",
                "_started_at": "03/02/2018 10:00:00",
                "_tainted": "false",
                "_channel": "neodev",
                "_trust": "0.91",
                "_worker_id": w,
                "_country": "GBR",
                "_ip": "192.0.2.1",
                "item_id": item,
                "input": inp,
                **_slots("system{i}", systems),
                **_slots("output{i}", texts),
                **_slots("rating{i}", scores),
            }
        )
    return _dicts(tmp / "f1234.csv", rows)


def crowdflower_aggregated_file(tmp: Path) -> Path:
    _, item, inp, systems, texts, scores = JUDGEMENTS[0]
    row = {
        "_unit_id": "900",
        "_golden": "false",
        "_unit_state": "finalized",
        "_trusted_judgments": "2",
        "_last_judgment_at": "03/02/2018 10:01:00",
        "item_id": item,
        "input": inp,
        **_slots("system{i}", systems),
        **_slots("output{i}", texts),
        **_slots("rating{i}", scores),
        **{f"rating{i}:confidence": "0.5" for i in (1, 2, 3)},
    }
    return _dicts(tmp / "a1234.csv", [row])


def mturk_file(tmp: Path) -> Path:
    rows = []
    for n, (w, item, inp, systems, texts, scores) in enumerate(JUDGEMENTS):
        rows.append(
            {
                "HITId": "3HIT",
                "HITTypeId": "3TYPE",
                "Title": "Rate three texts",
                "AssignmentId": f"3ASG{n}",
                "WorkerId": w,
                "AssignmentStatus": "Submitted",
                "AcceptTime": "Wed Mar 08 10:11:12 PST 2017",
                "SubmitTime": "Wed Mar 08 10:15:12 PST 2017",
                "WorkTimeInSeconds": "240",
                "Input.item_id": item,
                "Input.input": inp,
                **_slots("Input.system{i}", systems),
                **_slots("Input.output{i}", texts),
                **_slots("Answer.rating{i}", scores),
                "Approve": "",
                "Reject": "",
            }
        )
    return _dicts(tmp / "Batch_1_batch_results.csv", rows)


def appraise_file(tmp: Path) -> Path:
    path = tmp / "appraise.jsonl"
    lines = []
    for w, item, inp, systems, texts, scores in JUDGEMENTS:
        lines.append(
            json.dumps(
                {
                    "annotator": w,
                    "segment_id": item,
                    "source_text": inp,
                    "target1_system_id": systems[0],
                    "target1_text": texts[0],
                    "target2_system_id": systems[1],
                    "target2_text": texts[1],
                    "score1": scores[0] * 25,
                    "score2": scores[1] * 25,
                    "item_id": 3,
                    "item_type": "TGT",
                    "document_id": "doc1",
                    "start_time": 1709287200.0,
                    "end_time": 1709287260.5,
                }
            )
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def appraise_csv_file(tmp: Path) -> Path:
    """Appraise's ``ExportSystemScoresToCSV``: no header, one output per row."""
    rows = [
        [
            w,
            system,
            item,
            "TGT",
            "ces",
            "eng",
            str(score * 25),
            "doc1",
            "False",
            "1709287200.0",
            str(1709287260 + n),
        ]
        for n, (w, item, _, systems, _, scores) in enumerate(JUDGEMENTS)
        for system, score in zip(systems, scores, strict=True)
    ]
    return write_csv(tmp / "appraise-scores.csv", rows)


def potato_file(tmp: Path) -> Path:
    rows = []
    for w, item, inp, systems, texts, scores in JUDGEMENTS:
        rows.append(
            {
                "user": w,
                "instance_id": item,
                "displayed_text": inp,
                **_slots("system{i}", systems),
                **_slots("output{i}", texts),
                **_slots("rating{i}:::score", scores),
            }
        )
    return _dicts(tmp / "annotated_instances.tsv", rows, delimiter="\t")


FILES: dict[str, Callable[[Path], Path]] = {
    "e2e-quality": e2e_file,
    "e2e-naturalness": lambda tmp: e2e_file(tmp, "natur"),
    "wmt": wmt_file,
    "humaneval-csv": humaneval_csv_file,
    "humaneval-jsonl": jsonl_file,
    "crowdflower-full": crowdflower_full_file,
    "crowdflower-aggregated": crowdflower_aggregated_file,
    "mturk": mturk_file,
    "appraise-pairwise": appraise_file,
    "appraise-csv": appraise_csv_file,
    "potato": potato_file,
}


def test_every_preset_has_a_file_shape() -> None:
    # The RankME release's presets read that release's own headers (one to three
    # criteria, one or three outputs per row):
    # tests/annotations/importing/test_mapped_releases.py writes those files.
    release = {name for name in PRESETS if name.startswith("rankme-crowdflower-")}
    assert set(FILES) == set(PRESETS) - release


@pytest.mark.parametrize("name", sorted(FILES))
def test_preset_reads_its_shape(tmp_path: Path, name: str) -> None:
    parsed = parse_mapped(FILES[name](tmp_path), preset_mapping(name))
    if name == "appraise-csv":  # one output per row, no header line
        assert [
            (j.worker_id, j.item_id, j.systems, j.scores, j.language) for j in parsed.judgements
        ] == [
            (w, item, (system,), (score * 25.0,), "en")
            for w, item, _, systems, _, scores in JUDGEMENTS
            for system, score in zip(systems, scores, strict=True)
        ]
        assert parsed.judgements[0].metadata["document_id"] == "doc1"
        return
    expected = JUDGEMENTS[:1] if name == "crowdflower-aggregated" else JUDGEMENTS
    assert len(parsed.judgements) == len(expected)
    for j, (worker, item, inp, systems, texts, scores) in zip(
        parsed.judgements, expected, strict=True
    ):
        k = len(j.systems)
        assert j.item_id == item
        assert j.systems == tuple(systems[:k])
        assert k == (2 if name == "appraise-pairwise" else 3)
        if name == "crowdflower-aggregated":
            assert j.worker_id == AGGREGATE_WORKER
        else:
            assert j.worker_id == worker
        if name == "wmt":  # ranks: higher score = better, order kept
            assert [s > t for s, t in itertools.pairwise(j.scores)] == [
                s > t for s, t in itertools.pairwise(scores[:k])
            ]
        elif name == "appraise-pairwise":
            assert j.scores == tuple(s * 25.0 for s in scores[:k])
        else:
            assert j.scores == tuple(float(s) for s in scores)
        if name != "wmt":
            assert j.texts == tuple(texts[:k]) and j.input == inp


def test_preset_times_and_metadata(tmp_path: Path) -> None:
    j = parse_mapped(e2e_file(tmp_path), preset_mapping("e2e-quality")).judgements[0]
    assert j.started_at == datetime(2017, 11, 28, 14, 42, 14, tzinfo=UTC)
    assert j.unit_id == "u1" and j.metadata == {"_id": "j0"}
    assert j.checks == (("perfect",), ("missing",), ("added", "missing"))  # RankME's check{i}
    j = parse_mapped(appraise_file(tmp_path), preset_mapping("appraise-pairwise")).judgements[0]
    assert j.submitted_at == datetime(2024, 3, 1, 10, 1, 0, 500000, tzinfo=UTC)
    j = parse_mapped(mturk_file(tmp_path), preset_mapping("mturk")).judgements[1]
    assert j.unit_id == "3HIT" and j.metadata["AssignmentId"] == "3ASG1"
    assert j.started_at is None  # MTurk's zone names are kept as text, not read


def test_renamed_and_dict_roundtrip(tmp_path: Path) -> None:
    assert (
        parse_mapped(jsonl_file(tmp_path), preset_mapping("humaneval-jsonl"))
        .judgements[0]
        .criterion
        == "clarity"
    )  # the name the file's definition gives
    mapping = mapping_renamed(preset_mapping("humaneval-jsonl"), "fluency")
    assert [c.name for c in mapping.criteria] == ["fluency"]
    assert preset_dict("wmt")["criteria"][0]["ranks"] is True
    assert parse_mapped(jsonl_file(tmp_path), mapping).judgements[0].criterion == "fluency"


def test_wrong_shape_names_the_missing_column(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "x.csv", [["WorkerId", "HITId"], ["w", "h"]])
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, preset_mapping("mturk"))
    assert (err.value.line, err.value.field) == (1, "Input.item_id")


def test_the_e2e_presets_say_which_release_they_fit():
    from annotations.importing.parsers.presets import PRESETS

    for name in ("e2e-quality", "e2e-naturalness"):
        title = PRESETS[name][0]
        assert "E2E NLG Challenge" in title and "not the RankME paper's release" in title


def test_a_wmt_file_of_two_language_pairs_is_refused_by_the_preset(tmp_path: Path) -> None:
    """German and Czech segment 1 became one item, their systems one system, all ranked
    in one table; now the second pair's first row is refused, naming the column."""
    header = ["srclang", "trglang", "segmentId", "judgeId"]
    header += [f"system{i}{c}" for i in (1, 2) for c in ("Id", "rank")]
    rows = [
        header,
        ["German", "English", "1", "j1", "online-B", "1", "uedin", "2"],
        ["German", "English", "2", "j1", "online-B", "2", "uedin", "1"],
        ["Czech", "English", "1", "j2", "online-B", "1", "uedin", "2"],
    ]
    path = write_csv(tmp_path / "wmt13.csv", rows)
    with pytest.raises(ImportFileError) as refused:
        parse_mapped(path, preset_mapping("wmt"))
    assert refused.value.line == 4 and refused.value.field == "srclang"
    assert "more than one srclang: 'German' on line 2, 'Czech' here" in str(refused.value)
    # One pair, or a file without the columns, reads as before.
    one = write_csv(tmp_path / "de-en.csv", rows[:3])
    assert len(parse_mapped(one, preset_mapping("wmt")).rows) == 2
    bare = write_csv(tmp_path / "bare.csv", [r[2:] for r in rows])
    assert len(parse_mapped(bare, preset_mapping("wmt")).rows) == 3


def test_one_language_pair_written_two_ways_is_one_pair(tmp_path: Path) -> None:
    """A file mixing a language's code and name (``de``, ``German``, ``deu``) holds one
    language pair: it was refused as two. Two languages, and a language beside ``-1``
    (none), are still two values."""
    header = ["srclang", "trglang", "segmentId", "judgeId"]
    header += [f"system{i}{c}" for i in (1, 2) for c in ("Id", "rank")]

    def rows(*pairs: tuple[str, str]) -> list[list[str]]:
        return [header] + [
            [src, trg, str(n), "j1", "online-B", "1", "uedin", "2"]
            for n, (src, trg) in enumerate(pairs, 1)
        ]

    one = rows(("en", "de"), ("English", "German"), ("eng", "deu"))
    parsed = parse_mapped(write_csv(tmp_path / "one.csv", one), preset_mapping("wmt"))
    assert len(parsed.rows) == 3
    for pairs, field in (
        ((("en", "de"), ("en", "cs")), "trglang"),
        ((("en", "de"), ("-1", "de")), "srclang"),
    ):
        path = write_csv(tmp_path / f"{field}.csv", rows(*pairs))
        with pytest.raises(ImportFileError) as refused:
            parse_mapped(path, preset_mapping("wmt"))
        assert (refused.value.line, refused.value.field) == (3, field)


def test_the_wmt_preset_reads_wmt15s_judgeID(tmp_path: Path) -> None:
    """WMT15-16's files and xml2csv.py write ``judgeID``; ``import_wmt`` read them, the web
    preset refused them for lacking ``judgeId``. Its ``aliases`` read the other name."""
    header = ["segmentId", "judgeID", "system1Id", "system1rank", "system2Id", "system2rank"]
    rows = [
        header,
        ["1", "j1", "online-B", "1", "uedin", "2"],
        ["2", "j2", "uedin", "1", "online-B", "2"],
    ]
    parsed = parse_mapped(write_csv(tmp_path / "wmt15.csv", rows), preset_mapping("wmt"))
    assert [j.worker_id for j in parsed.judgements] == ["j1", "j2"]


def test_aliases_are_checked_and_written_back() -> None:
    from annotations.importing.parsers.mapped.mapping import MappingError, mapping_from_dict

    data = preset_dict("wmt")
    assert data["aliases"] == {"judgeId": ["judgeID"]}
    assert mapping_from_dict(data).to_dict()["aliases"] == {"judgeId": ["judgeID"]}
    for bad, field in (
        ({"aliases": ["judgeID"]}, "aliases"),
        ({"aliases": {"judgeId": [3]}}, "aliases.judgeId"),
        ({"aliases": {"judgeId": ["judgeID"], "x": ["judgeID"]}}, "aliases.x"),
    ):
        with pytest.raises(MappingError) as refused:
            mapping_from_dict({**data, **bad})
        assert refused.value.field == field


def test_a_skip_rows_column_the_file_lacks_is_refused_not_ignored(tmp_path: Path) -> None:
    """An attacker's review: skip_rows naming "Status" where the file has "status" left
    out nothing and said nothing, so rejected work was imported after all."""
    from annotations.importing.parsers.mapped.mapping import mapping_from_dict

    path = write_csv(
        tmp_path / "s.csv",
        [["item", "sys", "w", "score", "status"], ["1", "A", "w1", "3", "Rejected"]],
    )
    mapping = mapping_from_dict(
        {
            "format": "csv",
            "item": "item",
            "system": "sys",
            "worker": "w",
            "slots": 1,
            "criteria": [{"name": "fluency", "score": "score"}],
            "skip_rows": {"Status": ["Rejected"]},
        }
    )
    with pytest.raises(ImportFileError) as refused:
        parse_mapped(path, mapping)
    assert refused.value.field == "Status" and "'status' for 'Status'" in str(refused.value)


@pytest.mark.parametrize(
    ("bad", "field", "said"),
    [
        ({"skip_rows": {f"c{i}": ["x"] for i in range(21)}}, "skip_rows", "at most 20 columns"),
        ({"skip_rows": {"status": [f"v{i}" for i in range(21)]}}, "skip_rows.status", "at most 20"),
        ({"skip_rows": {"status": ["x" * 201]}}, "skip_rows.status", "at most 200 characters"),
        ({"skip_rows": {"status": ["Rejected, or not"]}}, "skip_rows.status", "holds one of"),
        ({"aliases": {"x=y": ["z"]}}, "aliases.x=y", "holds one of"),
        ({"aliases": {"i" * 5000: ["z"]}}, "aliases." + "i" * 40, "at most 200"),
        ({"one_value": [True, 5]}, "one_value", "expected a list of texts"),
    ],
)
def test_named_lists_are_bounded_and_writable_on_the_page(bad, field, said) -> None:
    """Unbounded lists made a 300 KB preset page and 3,000 notes; a name or value with the
    page's separators came back from the page as another mapping; a bool was a text."""
    from annotations.importing.parsers.mapped.mapping import MappingError, mapping_from_dict

    with pytest.raises(MappingError) as refused:
        mapping_from_dict({**preset_dict("mturk"), **bad})
    assert refused.value.field == field and said in str(refused.value)


def test_the_wmt_preset_reads_the_outputs_language_from_trglang(tmp_path: Path) -> None:
    """A reviewer's English-German file through the web preset was stored (and exported)
    as English, where ``import_wmt`` stores German: the preset read no language. It reads
    ``trglang`` now, as codes or WMT's names; a file without it is read as before."""
    header = ["srclang", "trglang", "segmentId", "judgeId"]
    header += [f"system{i}{c}" for i in (1, 2) for c in ("Id", "rank")]
    for trglang, expected in (("German", "de"), ("deu", "de"), ("cze", "cs"), ("-1", "")):
        rows = [header, ["English", trglang, "1", "j1", "online-B", "1", "uedin", "2"]]
        path = write_csv(tmp_path / f"en-{trglang}.csv", rows)
        (row,) = parse_mapped(path, preset_mapping("wmt")).rows
        assert row.language == expected, trglang
    bare = write_csv(
        tmp_path / "bare.csv", [header[2:], ["1", "j1", "online-B", "1", "uedin", "2"]]
    )
    (row,) = parse_mapped(bare, preset_mapping("wmt")).rows
    assert row.language == ""
