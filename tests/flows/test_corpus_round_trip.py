"""A corpus of file shapes, each imported, exported (CSV and JSONL) and re-imported.

Every file is written here, in the shape its tool writes (see the presets' docstring and
``annotations.importing.parsers.wmt``): WMT's ranking CSVs of 2013-2016 with language
names, codes and ``-1``; CrowdFlower full and aggregated reports with one, three and
five outputs per row (RankME's ``check{i}`` as content checks, ``_channel``,
``_trust``, ``_country`` and ``check1..3`` as metadata); MTurk batch results;
Appraise's CSV (no header, one output per row) and JSONL exports; Potato's
``annotated_instances.tsv``. After the round trip through humaneval's own exports
(``humaneval-csv`` and ``humaneval-jsonl`` presets) the second campaign holds the same
judgements (workers, items, times, scores, ranks, coverage, content checks), tasks,
criteria (scale, Likert levels, content checks, question), items, outputs and metadata.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from annotations.exports.judgements import IMPORT_KEYS, export_lines
from annotations.importing.mapped import mapped_import
from annotations.importing.mappings import mapping_parse
from annotations.importing.parsers.presets import preset_dict, preset_mapping
from annotations.importing.wmt import wmt_import
from annotations.models import Campaign, Item, Judgement, JudgementScore, Output, Task
from tests.annotations.importing.conftest import write_csv
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db

SYSTEMS = ["alpha", "beta", "gamma", "delta", "eps"]
WORKERS = ["w1", "w2", "w3"]


def _dicts(path: Path, rows: list[dict[str, Any]], delimiter: str = ",") -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]), delimiter=delimiter)
        writer.writeheader()
        writer.writerows(rows)
    return path


def _slot(prefix: str, values: list[Any]) -> dict[str, Any]:
    return {prefix.replace("{i}", str(n + 1)): v for n, v in enumerate(values)}


def _score(item: int, worker: int, system: int, top: int = 6) -> int:
    return 1 + (3 * item + 2 * worker + 5 * system) % top


def _time(minute: int) -> str:
    return f"03/02/2018 10:{minute:02d}:00"


# --------------------------------------------------------------------------------------
# WMT (import_wmt)

WMT_FIVE = (
    ["srclang", "trglang", "srcIndex", "documentId", "segmentId", "judgeId"]
    + [f"system{i}{part}" for i in range(1, 6) for part in ("Number", "Id")]
    + [f"system{i}rank" for i in range(1, 6)]
)


def _wmt_five(src: str, trg: str, segments: int = 2) -> list[list[str]]:
    rows = [WMT_FIVE]
    for segment in range(1, segments + 1):
        for w, judge in enumerate(WORKERS):
            ranks = [str(_score(segment, w, s, 5)) for s in range(5)]
            pairs = [v for system in SYSTEMS for v in ("-1", system)]
            rows.append([src, trg, str(segment), "-1", str(segment), judge, *pairs, *ranks])
    rows[-1][-1] = "-1"  # a blank rank: the row is skipped
    return rows


def wmt13(tmp: Path) -> Path:
    return write_csv(tmp / "wmt13.csv", _wmt_five("French", "English"))


def wmt14(tmp: Path) -> Path:
    rows = _wmt_five("Czech", "English") + _wmt_five("hin", "eng")[1:]
    return write_csv(tmp / "wmt14.csv", rows)


def _wmt_pairwise(tmp: Path, name: str, judge: str) -> Path:
    header = ["srclang", "trglang", "srcIndex", "segmentId", judge]
    header += ["system1Id", "system1rank", "system2Id", "system2rank", "rankingID"]
    rows = [header]
    ranking = 0
    for segment in (1, 2):
        for w, annotator in enumerate(WORKERS):
            ranking += 1
            ranks = [_score(segment, w, s, 5) for s in range(3)]
            for a, b in ((0, 1), (0, 2), (1, 2)):
                rows.append(
                    [
                        "deu",
                        "eng",
                        str(segment),
                        str(segment),
                        annotator,
                        SYSTEMS[a],
                        str(ranks[a]),
                        SYSTEMS[b],
                        str(ranks[b]),
                        str(ranking),
                    ]
                )
    return write_csv(tmp / name, rows)


def wmt15(tmp: Path) -> Path:
    return _wmt_pairwise(tmp, "wmt15.csv", "judgeID")


def wmt16(tmp: Path) -> Path:
    return _wmt_pairwise(tmp, "wmt16.csv", "judgeId")


def trueskill(tmp: Path) -> Path:
    header = ["srclang", "trglang", "documentId", "segmentId", "judgeID", "srcIndex"]
    header += [f"system{i}{part}" for i in (1, 2) for part in ("Id", "Number", "rank")]
    rows = [header]
    for segment in (1, 2):
        for w, judge in enumerate(WORKERS):
            a, b = _score(segment, w, 0, 2), _score(segment, w, 1, 2)
            rows.append(["-1", "-1", "-1", str(segment), judge, str(segment)])
            rows[-1] += [SYSTEMS[0], "-1", str(a), SYSTEMS[1], "-1", str(b)]
    return write_csv(tmp / "trueskill.csv", rows)


# --------------------------------------------------------------------------------------
# CrowdFlower full and aggregated reports, MTurk, Appraise, Potato (mapped imports)

CHECKS = ["ok", "missing", "added", "added\nmissing", "ok"]


def _crowdflower(k: int, *, full: bool) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    judge = 0
    for item in (1, 2):
        systems = SYSTEMS[:k] if item == 1 else SYSTEMS[-k:]
        for w, worker in enumerate(WORKERS if full else ["-"]):
            units = [(f"{item}", systems)] if k > 1 else [(f"{item}{s}", [s]) for s in systems]
            for unit, shown in units:
                judge += 1
                row: dict[str, Any] = {"_unit_id": f"9{unit}"}
                if full:
                    row |= {
                        "_created_at": _time(judge + 1),
                        "_id": str(5000 + judge),
                        "_started_at": _time(judge),
                        "_channel": "neodev",
                        "_trust": f"0.{80 + w}",
                        "_worker_id": worker,
                        "_country": ["GBR", "USA", "IND"][w],
                    }
                else:
                    row |= {
                        "_unit_state": "finalized",
                        "_trusted_judgments": "3",
                        "_last_judgment_at": _time(judge),
                    }
                row |= {"mr_id": str(item), "mr": f"name[Place {item}]"}
                scores = [_score(item, w, SYSTEMS.index(s)) for s in shown]
                texts = [f"{s} says {item}." for s in shown]
                if k == 1:
                    row |= {"team": shown[0], "ref": texts[0], "quality": scores[0]}
                elif k == 3:
                    row |= _slot("system{i}", shown) | _slot("output{i}", texts)
                    row |= _slot("rating{i}", scores)
                    row |= _slot("check{i}", [CHECKS[(w + n) % 5] for n in range(k)])
                else:
                    row |= _slot("sys{i}", shown) | _slot("ref{i}", texts)
                    row |= _slot("quality{i}", [s * 25 for s in scores])
                    row |= _slot("check{i}", [CHECKS[(w + n) % 5] for n in range(k)])
                rows.append(row)
    return rows


def _cf_mapping(k: int, *, full: bool) -> dict[str, Any]:
    patterns = {
        1: ("team", "ref", "quality", ""),
        3: ("system{i}", "output{i}", "rating{i}", "check{i}"),
        5: ("sys{i}", "ref{i}", "quality{i}", "check{i}"),
    }[k]
    system, output, score, checks = patterns
    criterion: dict[str, Any] = {"name": "likert" if k == 1 else "quality", "score": score}
    criterion["scale"] = "likert" if k == 1 else "magnitude" if k == 5 else "slider"
    if checks:
        criterion["checks"] = checks
    mapping = preset_dict("crowdflower-full" if full else "crowdflower-aggregated")
    mapping |= {"item": "mr_id", "input": "mr", "system": system, "output": output}
    mapping |= {"criteria": [criterion], "slots": 1 if k == 1 else 0}
    if full:
        mapping["metadata"] = ["_id", "_trust", "_channel", "_country"]
        if k == 3:
            mapping["metadata"] += ["check1", "check2", "check3"]
    return mapping


def _cf_case(k: int, full: bool) -> Callable[[Path], tuple[Path, dict[str, Any]]]:
    def write(tmp: Path) -> tuple[Path, dict[str, Any]]:
        name = f"{'f' if full else 'a'}{k}.csv"
        return _dicts(tmp / name, _crowdflower(k, full=full)), _cf_mapping(k, full=full)

    return write


def mturk(tmp: Path) -> tuple[Path, dict[str, Any]]:
    rows = []
    for item in (1, 2):
        for w, worker in enumerate(WORKERS):
            shown = SYSTEMS[:3]
            rows.append(
                {
                    "HITId": f"3HIT{item}",
                    "AssignmentId": f"3ASG{item}{w}",
                    "WorkerId": worker,
                    "AcceptTime": "Wed Mar 08 10:11:12 PST 2017",
                    "SubmitTime": "Wed Mar 08 10:15:12 PST 2017",
                    "WorkTimeInSeconds": "240",
                    "Input.item_id": str(item),
                    "Input.input": f"source {item}",
                    **_slot("Input.system{i}", shown),
                    **_slot("Input.output{i}", [f"{s} on {item}" for s in shown]),
                    **_slot("Answer.rating{i}", [_score(item, w, s) for s in range(3)]),
                }
            )
    return _dicts(tmp / "Batch_1_batch_results.csv", rows), preset_dict("mturk")


def mturk_semicolons(tmp: Path) -> tuple[Path, dict[str, Any]]:
    """The MTurk file as a spreadsheet in a locale with a decimal comma saves it: with
    semicolons, a byte-order mark and CRLF line ends."""
    path, mapping = mturk(tmp)
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    saved = tmp / "Batch_1_batch_results_excel.csv"
    with saved.open("w", encoding="utf-8-sig", newline="") as fh:
        csv.writer(fh, delimiter=";", lineterminator="\r\n").writerows(rows)
    return saved, mapping


def formula_texts(tmp: Path) -> tuple[Path, dict[str, Any]]:
    """An MTurk file whose ids and texts start as spreadsheet formulas do, some after an
    apostrophe, one holding bidirectional isolates: humaneval's CSV export quotes them
    and ``humaneval-csv`` reads them back as they were."""
    systems = ["-alpha", "@\u2067beta\u2069", "'=gamma"]  # with a right-to-left isolate
    workers = ["=w1", "'+w2", "w3"]
    rows = []
    for item in ("+1", "'-2"):
        for w, worker in enumerate(workers):
            rows.append(
                {
                    "HITId": f"3HIT{item}",
                    "AssignmentId": f"3ASG{item}{w}",
                    "WorkerId": worker,
                    "AcceptTime": "Wed Mar 08 10:11:12 PST 2017",
                    "SubmitTime": "-",
                    "WorkTimeInSeconds": "240",
                    "Input.item_id": item,
                    "Input.input": f'=HYPERLINK("x","{item}")',
                    **_slot("Input.system{i}", systems),
                    **_slot("Input.output{i}", [f"{s} on {item}" for s in systems]),
                    **_slot("Answer.rating{i}", [_score(len(item), w, s) for s in range(3)]),
                }
            )
    return _dicts(tmp / "formulas.csv", rows), preset_dict("mturk")


def appraise_csv(tmp: Path) -> tuple[Path, dict[str, Any]]:
    rows = []
    for item in (1, 2):
        for w, worker in enumerate(WORKERS):
            for s, system in enumerate(SYSTEMS[:2]):
                start = 1709287200 + 100 * (item * 3 + w) + 10 * s
                rows.append(
                    [
                        worker,
                        system,
                        str(item),
                        "TGT",
                        "ces",
                        "deu",
                        str(_score(item, w, s, 100)),
                        "doc1",
                        "False",
                        f"{start}.0",
                        str(start + 7),
                    ]
                )
    return write_csv(tmp / "appraise-scores.csv", rows), preset_dict("appraise-csv")


def appraise_jsonl(tmp: Path) -> tuple[Path, dict[str, Any]]:
    path = tmp / "appraise.jsonl"
    lines = []
    for item in (1, 2):
        for w, worker in enumerate(WORKERS):
            lines.append(
                {
                    "annotator": worker,
                    "segment_id": str(item),
                    "source_text": f"source {item}",
                    "target1_system_id": SYSTEMS[0],
                    "target1_text": f"{SYSTEMS[0]} {item}",
                    "target2_system_id": SYSTEMS[1],
                    "target2_text": f"{SYSTEMS[1]} {item}",
                    "score1": _score(item, w, 0, 100),
                    "score2": _score(item, w, 1, 100),
                    "item_type": "TGT",
                    "document_id": "doc1",
                    "start_time": 1709287200 + 60 * w,
                    "end_time": 1709287230 + 60 * w,
                }
            )
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path, preset_dict("appraise-pairwise")


def potato(tmp: Path) -> tuple[Path, dict[str, Any]]:
    rows = []
    for item in (1, 2):
        for w, worker in enumerate(WORKERS):
            shown = SYSTEMS[1:4]
            rows.append(
                {
                    "user": worker,
                    "instance_id": str(item),
                    "displayed_text": f"text {item}",
                    **_slot("system{i}", shown),
                    **_slot("output{i}", [f"{s}/{item}" for s in shown]),
                    **_slot("rating{i}:::score", [_score(item, w, s, 5) for s in range(3)]),
                }
            )
    return _dicts(tmp / "annotated_instances.tsv", rows, delimiter="\t"), preset_dict("potato")


WMT_CASES: dict[str, Callable[[Path], Path]] = {
    "wmt13-names": wmt13,
    "wmt14-names-and-codes": wmt14,
    "wmt15-pairwise": wmt15,
    "wmt16-pairwise": wmt16,
    "wmt-trueskill-placeholders": trueskill,
}
MAPPED_CASES: dict[str, Callable[[Path], tuple[Path, dict[str, Any]]]] = {
    **{f"crowdflower-full-{k}": _cf_case(k, True) for k in (1, 3, 5)},
    **{f"crowdflower-aggregated-{k}": _cf_case(k, False) for k in (1, 3, 5)},
    "mturk": mturk,
    "mturk-formula-texts": formula_texts,
    "mturk-semicolons": mturk_semicolons,
    "appraise-csv": appraise_csv,
    "appraise-jsonl": appraise_jsonl,
    "potato-tsv": potato,
}


# --------------------------------------------------------------------------------------
# What must survive


def snapshot(campaign: Campaign) -> dict[str, Any]:
    """Everything a round trip must keep, without ids and import bookkeeping."""
    criteria = {
        c.name: (c.scale, c.scale_settings, c.content_checks, c.question, c.show_input)
        for c in campaign.criteria.all()
    }
    scores: dict[int, list[tuple[Any, ...]]] = {}
    for pk, *score in JudgementScore.objects.filter(
        judgement__criterion__campaign=campaign
    ).values_list("judgement", "output__system__label", "score", "rank", "coverage", "checks"):
        scores.setdefault(pk, []).append((*score[:-1], tuple(score[-1])))
    judgements = []
    for pk, criterion, worker, item, started, submitted, metadata in Judgement.objects.filter(
        criterion__campaign=campaign
    ).values_list(
        "pk",
        "criterion__name",
        "worker__external_id",
        "task__item__external_id",
        "started_at",
        "submitted_at",
        "metadata",
    ):
        kept = {k: v for k, v in metadata.items() if k not in IMPORT_KEYS}
        judgements.append(
            (
                criterion,
                worker,
                item,
                started,
                submitted,
                tuple(sorted(scores[pk])),
                json.dumps(kept, sort_keys=True),
            )
        )
    workers: dict[int, list[str]] = {}
    for task, worker in Judgement.objects.filter(criterion__campaign=campaign).values_list(
        "task", "worker__external_id"
    ):
        workers.setdefault(task, []).append(worker)
    tasks = sorted(
        (criterion, item, language, tuple(sorted(workers.get(pk, []))))
        for pk, criterion, item, language in Task.objects.filter(campaign=campaign).values_list(
            "pk", "criterion__name", "item__external_id", "language"
        )
    )
    return {
        "criteria": criteria,
        "items": sorted(
            Item.objects.filter(campaign=campaign).values_list("external_id", "input", "language")
        ),
        "outputs": sorted(
            Output.objects.filter(item__campaign=campaign).values_list(
                "item__external_id", "system__label", "text", "language"
            )
        ),
        "judgements": sorted(judgements),
        "tasks": tasks,
    }


def _round_trips(first: Campaign, tmp: Path) -> None:
    before = snapshot(first)
    assert before["judgements"], "the file imported nothing"
    for fmt in ("csv", "jsonl"):
        second = CampaignFactory(slug=f"again-{fmt}")
        for criterion in first.criteria.all():
            path = tmp / f"{criterion.name}.{fmt}"
            path.write_text("".join(export_lines(criterion=criterion, fmt=fmt)), encoding="utf-8")
            mapped_import(campaign=second, path=path, mapping=preset_mapping(f"humaneval-{fmt}"))
        after = snapshot(second)
        for key in before:
            assert after[key] == before[key], f"{fmt}: {key} differ"


@pytest.mark.parametrize("case", sorted(WMT_CASES))
def test_wmt_files_round_trip(tmp_path: Path, case: str) -> None:
    first = CampaignFactory(slug="first")
    wmt_import(campaign=first, path=WMT_CASES[case](tmp_path))
    _round_trips(first, tmp_path)


@pytest.mark.parametrize("case", sorted(MAPPED_CASES))
def test_platform_exports_round_trip(tmp_path: Path, case: str) -> None:
    first = CampaignFactory(slug="first")
    path, mapping = MAPPED_CASES[case](tmp_path)
    mapped_import(campaign=first, path=path, mapping=mapping_parse(mapping))
    _round_trips(first, tmp_path)


def test_the_corpus_keeps_what_each_shape_brings(tmp_path: Path) -> None:
    """The facts the round trips compare are there in the first place."""
    first = CampaignFactory(slug="cf5")
    path, mapping = MAPPED_CASES["crowdflower-full-5"](tmp_path)
    mapped_import(campaign=first, path=path, mapping=mapping_parse(mapping))
    quality = first.criteria.get(name="quality")
    assert quality.content_checks == ["added", "missing", "perfect"]
    checks = {
        tuple(c)
        for c in Judgement.objects.filter(criterion=quality).values_list(
            "scores__checks", flat=True
        )
    }
    assert {("perfect",), ("missing",), ("added",), ("added", "missing")} <= checks
    metadata = Judgement.objects.filter(criterion=quality)[0].metadata
    assert {"_channel", "_trust", "_country", "_id"} <= set(metadata)

    likert = CampaignFactory(slug="cf1")
    path, mapping = MAPPED_CASES["crowdflower-full-1"](tmp_path)
    mapped_import(campaign=likert, path=path, mapping=mapping_parse(mapping))
    criterion = likert.criteria.get()
    assert criterion.scale == "likert" and len(criterion.likert_levels) == 6

    wmt = CampaignFactory(slug="wmt14")
    wmt_import(campaign=wmt, path=wmt14(tmp_path))
    assert set(Item.objects.filter(campaign=wmt).values_list("language", flat=True)) == {"en"}
    assert Item.objects.filter(campaign=wmt, external_id="cs-en:1").exists()


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_a_likert_criterion_keeps_its_scale_levels_and_alpha(tmp_path: Path, fmt: str) -> None:
    """A Likert criterion used to come back as magnitude (or as levels the scores fit),
    so its agreement changed; its definition now travels with the export."""
    from annotations.selectors.agreement import criterion_agreement
    from annotations.services.criteria import criterion_from_preset

    first = CampaignFactory(slug="likert")
    fluency = criterion_from_preset(campaign=first, preset="fluency")  # 1-5, descriptors
    path, mapping = MAPPED_CASES["crowdflower-full-3"](tmp_path)
    mapping["criteria"] = [{"name": "fluency", "score": "rating{i}", "checks": "check{i}"}]
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    for row in rows:  # scores 1..5 on the preset's scale
        for i in (1, 2, 3):
            row[f"rating{i}"] = str(1 + (int(row[f"rating{i}"]) - 1) % 5)
    mapped_import(campaign=first, path=_dicts(path, rows), mapping=mapping_parse(mapping))
    exported = tmp_path / f"fluency.{fmt}"
    exported.write_text("".join(export_lines(criterion=fluency, fmt=fmt)), encoding="utf-8")
    second = CampaignFactory(slug="again")
    mapped_import(campaign=second, path=exported, mapping=preset_mapping(f"humaneval-{fmt}"))
    again = second.criteria.get(name="fluency")
    assert again.scale == "likert"
    assert again.likert_levels == fluency.likert_levels
    assert again.content_checks == fluency.content_checks
    assert snapshot(second)["judgements"] == snapshot(first)["judgements"]  # checks too
    before, after = criterion_agreement(criterion=fluency), criterion_agreement(criterion=again)
    assert before.score_alpha is not None
    assert after.score_alpha == pytest.approx(before.score_alpha, abs=1e-12)


def test_the_commands_export_and_reimport_any_criterion(tmp_path: Path, capsys) -> None:
    """``export_judgements`` then ``import_ratings --mapping humaneval-csv`` (and the
    JSONL pair): an informativeness criterion, which no E2E preset reads, comes back."""
    from django.core.management import call_command

    first = CampaignFactory(slug="cmd")
    path, mapping = MAPPED_CASES["crowdflower-full-5"](tmp_path)
    mapping["criteria"][0]["name"] = "informativeness"
    mapped_import(campaign=first, path=path, mapping=mapping_parse(mapping))
    for fmt in ("csv", "jsonl"):
        out = tmp_path / f"out.{fmt}"
        call_command(
            "export_judgements",
            "cmd",
            "--criterion",
            "informativeness",
            "--format",
            fmt,
            "-o",
            str(out),
        )
        call_command(
            "import_ratings", str(out), "--mapping", f"humaneval-{fmt}", "--campaign", f"c{fmt}"
        )
        assert "criteria created:      informativeness" in capsys.readouterr().out
        again = Campaign.objects.get(slug=f"c{fmt}")
        assert snapshot(again) == snapshot(first)
