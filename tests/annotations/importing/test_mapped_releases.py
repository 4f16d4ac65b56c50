"""Importing the shapes of public releases (RankME's CrowdFlower CSVs, the HANNA user study)
through a mapping (annotations/importing/mapped.py): each test writes the small file it needs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from annotations.exports.judgements import csv_lines, jsonl_lines
from annotations.importing.mapped import mapped_import
from annotations.importing.mappings import mapping_parse, mapping_resolve
from annotations.models import Criterion, Item, Judgement, JudgementScore
from common.errors import ImportFileError
from tests.annotations.importing.conftest import model_counts, write_csv
from tests.annotations.importing.releases import FLUENCY, HANNA_LIKE, ROWS
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def _import(campaign: Any, path: Path, mapping: dict[str, Any]) -> Any:
    return mapped_import(campaign=campaign, path=path, mapping=mapping_parse(mapping))


# 1. Exports keep the text the worker saw -------------------------------------------------


def test_exports_write_the_text_each_worker_saw_and_a_round_trip_keeps_it(tmp_path):
    campaign = CampaignFactory()
    result = _import(campaign, write_csv(tmp_path / "a.csv", ROWS), FLUENCY)
    assert result.texts_differing == 1
    criterion = Criterion.objects.get(campaign=campaign, name="fluency")
    records = [json.loads(line) for line in jsonl_lines(criterion=criterion)]
    seen = {r["worker_id"]: r["outputs"][0]["text"] for r in records}
    assert seen == {"w1": "hello", "w2": "hello world"}
    rows = list(csv_lines(criterion=criterion))
    assert "hello world" in rows[2] and "hello world" not in rows[1]

    # Round trip through both exports: the second campaign shows w2 "hello world" too.
    for fmt, lines in (("jsonl", jsonl_lines), ("csv", csv_lines)):
        path = tmp_path / f"export.{fmt}"
        path.write_text("".join(lines(criterion=criterion)), encoding="utf-8")
        other = CampaignFactory()
        mapped_import(
            campaign=other,
            path=path,
            mapping=mapping_resolve(campaign=None, name=f"humaneval-{fmt}"),
        )
        shown = {
            s.judgement.worker.external_id: s.judgement.task.task_outputs.get(
                output=s.output
            ).shown_text
            for s in JudgementScore.objects.filter(judgement__criterion__campaign=other)
        }
        assert shown == {"w1": "hello", "w2": "hello world"}, fmt


# 2. Likert scores outside the levels ---------------------------------------------------


def test_a_likert_score_outside_the_presets_levels_is_refused(tmp_path):
    campaign = CampaignFactory()
    _import(campaign, write_csv(tmp_path / "a.csv", ROWS), FLUENCY)
    before = model_counts()
    bad = [ROWS[0], ["w3", "2", "A", "x", "9"]]
    with pytest.raises(ImportFileError) as err:
        _import(campaign, write_csv(tmp_path / "b.csv", bad), FLUENCY)
    assert (err.value.file, err.value.line, err.value.field) == (
        str(tmp_path / "b.csv"),
        2,
        "score",
    )
    assert "1, 2, 3, 4, 5" in err.value.reason and "'9'" in err.value.reason
    assert model_counts() == before


def test_likert_scores_outside_a_criterions_levels_are_refused(tmp_path):
    campaign = CampaignFactory()
    levels = [{"value": v, "label": str(v), "descriptor": ""} for v in range(1, 7)]
    Criterion.objects.create(
        campaign=campaign,
        name="six",
        question="?",
        scale="likert",
        scale_settings={"levels": levels},
    )
    mapping = {**FLUENCY, "criteria": [{"name": "six", "score": "score", "scale": "likert"}]}
    for value in ("9", "0"):
        bad = [ROWS[0], ["w3", "2", "A", "x", value]]
        with pytest.raises(ImportFileError) as err:
            _import(campaign, write_csv(tmp_path / f"b{value}.csv", bad), mapping)
        assert err.value.line == 2 and err.value.field == "score"
        assert "1, 2, 3, 4, 5, 6" in err.value.reason
    assert not Judgement.objects.exists()


def _humaneval_csv(path: Path, definition: dict[str, Any]) -> Path:
    """One row of humaneval's CSV export, score 1, giving ``definition``."""
    header = [
        "_unit_id",
        "_worker_id",
        "_started_at",
        "_created_at",
        "mr",
        "item_id",
        "_language",
        "sys1",
        "ref1",
        "score1",
        "rank1",
        "content_checks1",
        "check1",
        "_criterion",
        "_metadata",
    ]
    row = [
        "u1",
        "w1",
        "01/01/2020 10:00:00",
        "01/01/2020 10:01:00",
        "in",
        "1",
        "en",
        "A",
        "t",
        "1",
        "1",
        "",
        "",
        json.dumps(definition),
        "{}",
    ]
    return write_csv(path, [header, row])


def test_a_humaneval_csv_criterion_with_levels_zero_refuses_one(tmp_path):
    campaign = CampaignFactory()
    definition = {
        "name": "zero",
        "scale": "likert",
        "question": "?",
        "scale_settings": {"levels": [{"value": 0, "label": "0"}, {"value": 2, "label": "2"}]},
        "content_checks": [],
    }
    with pytest.raises(ImportFileError) as err:
        mapped_import(
            campaign=campaign,
            path=_humaneval_csv(tmp_path / "h.csv", definition),
            mapping=mapping_resolve(campaign=None, name="humaneval-csv"),
        )
    assert err.value.line == 2 and err.value.field == "score1" and "0, 2" in err.value.reason
    assert not Judgement.objects.exists() and not Criterion.objects.exists()


@pytest.mark.parametrize(
    ("scale_settings", "why"),
    [
        ({"levels": [{"value": 0, "label": "0"}]}, "at least two levels"),
        ({"levels": [{"value": "low"}, {"value": 1}]}, "whole-number value"),
    ],
)
def test_a_definition_the_criteria_service_refuses_is_refused_naming_where(
    tmp_path, scale_settings, why
):
    """A criterion an import creates obeys the criteria service's rules: a Likert scale
    of one level, or of a level without a whole-number value, is refused as the designer's
    page and the API refuse it (it was created before), naming the file, the line and the
    definition's column; nothing is written."""
    campaign = CampaignFactory()
    definition = {
        "name": "odd",
        "scale": "likert",
        "question": "?",
        "scale_settings": scale_settings,
        "content_checks": [],
    }
    with pytest.raises(ImportFileError) as err:
        mapped_import(
            campaign=campaign,
            path=_humaneval_csv(tmp_path / "h.csv", definition),
            mapping=mapping_resolve(campaign=None, name="humaneval-csv"),
        )
    assert Path(err.value.file).name == "h.csv"
    assert (err.value.line, err.value.field) == (2, "_criterion")
    assert "'odd'" in err.value.reason and why in err.value.reason
    assert not Judgement.objects.exists() and not Criterion.objects.exists()


# 3. An input given for an item that exists without one ---------------------------------


def test_an_input_fills_an_item_that_has_none_and_the_summary_says_so(tmp_path):
    campaign = CampaignFactory()
    bare = {**FLUENCY, "output": "", "criteria": [{"name": "fluency", "score": "score"}]}
    _import(
        campaign,
        write_csv(
            tmp_path / "a.csv", [["worker", "item", "system", "score"], ["w1", "7", "A", "3"]]
        ),
        bare,
    )
    assert Item.objects.get(campaign=campaign, external_id="7").input == ""
    result = _import(
        campaign,
        write_csv(
            tmp_path / "b.csv",
            [["worker", "item", "input", "system", "score"], ["w2", "7", "the input", "A", "4"]],
        ),
        {**bare, "input": "input"},
    )
    assert Item.objects.get(campaign=campaign, external_id="7").input == "the input"
    assert result.inputs_filled == 1 and result.summary()["inputs_filled"] == 1


@pytest.mark.parametrize(
    "system", [{"system": {"value": "explainer"}}, {"system_value": "explainer"}]
)
def test_a_constant_system_imports_a_file_without_a_system_column(tmp_path, system):
    campaign = CampaignFactory()
    mapping = {
        "format": "csv",
        "worker": "worker",
        "item": "story_id",
        "output": "story",
        "criteria": [{"name": "relevance", "score": "relevance"}],
        **system,
    }
    parsed = mapping_parse(mapping)
    assert parsed.system_value == "explainer" and parsed.to_dict()["system_value"] == "explainer"
    result = _import(campaign, write_csv(tmp_path / "h.csv", HANNA_LIKE), mapping)
    assert result.judgements == 2
    labels = set(JudgementScore.objects.values_list("output__system__label", flat=True))
    assert labels == {"explainer"}


# 7. Scales inferred: said, chosen by the mapping; no content checks added -------------


def test_an_all_zero_question_gets_two_levels_and_the_summary_says_it_was_inferred(tmp_path):
    campaign = CampaignFactory()
    rows = [["worker", "item", "system", "answer"], ["w1", "1", "A", "0"], ["w2", "1", "A", "0"]]
    mapping = {**FLUENCY, "output": "", "criteria": [{"name": "yesno", "score": "answer"}]}
    result = _import(campaign, write_csv(tmp_path / "z.csv", rows), mapping)
    levels = Criterion.objects.get(name="yesno").scale_settings["levels"]
    assert [lv["value"] for lv in levels] == [0, 1]
    (note,) = [n for n in result.notes() if "yesno" in n]
    assert "inferred from the file" in note and "2 scores from 0 to 0" in note


def test_the_mapping_gives_the_levels_of_a_new_criterion(tmp_path):
    campaign = CampaignFactory()
    rows = [["worker", "item", "system", "answer"], ["w1", "1", "A", "0"], ["w2", "1", "A", "1"]]
    mapping = {
        **FLUENCY,
        "output": "",
        "criteria": [{"name": "binary", "score": "answer", "levels": [0, 1]}],
    }
    assert mapping_parse(mapping).to_dict()["criteria"][0]["levels"] == [0, 1]
    result = _import(campaign, write_csv(tmp_path / "z.csv", rows), mapping)
    criterion = Criterion.objects.get(name="binary")
    assert criterion.scale == "likert"
    assert [lv["value"] for lv in criterion.scale_settings["levels"]] == [0, 1]
    assert any("binary" in n and "the mapping's" in n for n in result.notes())
    # Levels 1-7 given: a 0 is refused.
    other = CampaignFactory()
    seven = {
        **mapping,
        "criteria": [{"name": "binary", "score": "answer", "levels": "1,2,3,4,5,6,7"}],
    }
    with pytest.raises(ImportFileError) as err:
        _import(other, write_csv(tmp_path / "y.csv", rows), seven)
    assert err.value.line == 2 and "1, 2, 3, 4, 5, 6, 7" in err.value.reason


def test_the_informativeness_preset_adds_no_content_checks_to_an_import_without_them(tmp_path):
    campaign = CampaignFactory()
    rows = [["worker", "item", "system", "info"], ["w1", "1", "A", "80"]]
    mapping = {**FLUENCY, "output": "", "criteria": [{"name": "informativeness", "score": "info"}]}
    result = _import(campaign, write_csv(tmp_path / "i.csv", rows), mapping)
    criterion = Criterion.objects.get(name="informativeness")
    assert criterion.scale == "magnitude" and criterion.content_checks == []
    assert any("criterion preset 'informativeness'" in n for n in result.notes())


# 5. Presets for the RankME paper's release (jeknov/RankME), headers as released --------

CF = ["_created_at", "_channel", "_trust", "_worker_id", "_country", "_region", "_city"]


MR = "name[Blue Spice], eatType[coffee shop], area[city centre]"


REFS = [
    "Blue Spice is a coffee shop in the city centre.",
    "Blue Spice is a pub in the city centre.",
    "Blue Spice is a coffee shop in the city centre.",
]


TEAMS = ["slug2slug", "sheffield_v2", "baseline"]


WHO = ["11/21/2017 22:16:54", "instagc", "0.9249", "22150704", "USA", "MN", "Lindstrom"]


def _release_import(tmp_path: Path, name: str, rows: list[list[str]], preset: str) -> Any:
    campaign = CampaignFactory()
    path = write_csv(tmp_path / name, rows)
    return campaign, mapped_import(
        campaign=campaign, path=path, mapping=mapping_resolve(campaign=None, name=preset)
    )


def test_rankme_setup1_preset_reads_stp1_rankme_as_released(tmp_path):
    header = CF + [
        f"{c}{i}" for c in ("informativeness", "naturalness", "quality") for i in (1, 2, 3)
    ]
    header += ["mr", "mr_id", "primary", "ref1", "ref2", "ref3", "team1", "team2", "team3"]
    row = [*WHO, "100", "75", "100", "100", "90", "100", "100", "60", "100"]
    row += [MR, "1", "yes", *REFS, *TEAMS]
    campaign, result = _release_import(
        tmp_path, "f1204736.csv", [header, row], "rankme-crowdflower-setup1"
    )
    assert result.criteria == ("informativeness", "naturalness", "quality")
    assert result.judgements == 3 and result.outputs_created == 3
    quality = Criterion.objects.get(campaign=campaign, name="quality")
    scores = dict(
        JudgementScore.objects.filter(judgement__criterion=quality).values_list(
            "output__system__label", "score"
        )
    )
    assert scores == {"slug2slug": 100, "sheffield_v2": 60, "baseline": 100}
    j = Judgement.objects.filter(criterion=quality).get()
    assert j.metadata["_channel"] == "instagc" and j.metadata["primary"] == "yes"
    assert j.worker.external_id == "22150704" and j.submitted_at.month == 11
    informativeness = Criterion.objects.get(campaign=campaign, name="informativeness")
    assert informativeness.content_checks == []


def test_rankme_setup2_quality_preset_reads_its_checks(tmp_path):
    header = [*CF, "check1", "check2", "check3", "quality1", "quality2", "quality3"]
    header += ["mr", "mr_id", "ref1", "ref2", "ref3", "team1", "team2", "team3"]
    row = [*WHO, "ok", "added\nmissing", "missing", "100", "50", "100", MR, "1", *REFS, *TEAMS]
    _campaign, result = _release_import(
        tmp_path, "f1209204.csv", [header, row], "rankme-crowdflower-setup2-quality"
    )
    checks = dict(JudgementScore.objects.values_list("output__system__label", "checks"))
    assert checks == {
        "slug2slug": ["perfect"],
        "sheffield_v2": ["added", "missing"],
        "baseline": ["missing"],
    }
    setup2_inf = [*CF, "inf1", "inf2", "inf3", "mr", "mr_id", "ref1", "ref2", "ref3"]
    setup2_inf += ["team1", "team2", "team3"]
    row = [*WHO, "100", "60", "100", MR, "1", *REFS, *TEAMS]
    _, result = _release_import(
        tmp_path, "f1222521.csv", [setup2_inf, row], "rankme-crowdflower-setup2-informativeness"
    )
    assert result.criteria == ("informativeness",) and result.judgements == 1


def test_rankme_plain_and_likert_presets_read_one_output_per_row(tmp_path):
    header = [*CF, "informativeness", "naturalness", "quality", "mr", "mr_id", "ref", "team"]
    rows = [header] + [[*WHO, "6", "5", "4", MR, "1", REFS[n], TEAMS[n]] for n in range(3)]
    campaign, result = _release_import(tmp_path, "f1204299.csv", rows, "rankme-crowdflower-likert")
    assert result.judgements == 9 and result.rows == 3
    quality = Criterion.objects.get(campaign=campaign, name="quality")
    assert [lv["value"] for lv in quality.scale_settings["levels"]] == [1, 2, 3, 4, 5, 6]
    campaign, result = _release_import(tmp_path, "f1204296.csv", rows, "rankme-crowdflower-plain")
    assert Criterion.objects.get(campaign=campaign, name="quality").scale == "magnitude"
    # Set-up 2's Likert quality: no _channel/_trust, the checks in check_those_that_apply.
    header = [
        "_created_at",
        "_worker_id",
        "_country",
        "_region",
        "_city",
        "check_those_that_apply",
        "quality",
        "mr",
        "mr_id",
        "ref",
        "team",
    ]
    row = [
        "11/21/2017 15:43:32",
        "12115558",
        "USA",
        "OH",
        "Macedonia",
        "ok",
        "6",
        MR,
        "1",
        REFS[0],
        TEAMS[0],
    ]
    campaign, result = _release_import(
        tmp_path, "f1209070.csv", [header, row], "rankme-crowdflower-likert-quality"
    )
    assert JudgementScore.objects.get(judgement__criterion__campaign=campaign).checks == ["perfect"]
    # Set-up 2's PlainME naturalness has no mr_id: items are named by their MR.
    header = [*CF, "naturalness", "mr", "ref", "team"]
    row = [*WHO, "100", MR, REFS[0], TEAMS[0]]
    campaign, result = _release_import(
        tmp_path, "f1209025.csv", [header, row], "rankme-crowdflower-plain-naturalness"
    )
    assert Item.objects.get(campaign=campaign).external_id == MR


def test_a_rankme_setup1_import_round_trips_through_the_jsonl_export(tmp_path):
    from annotations.importing.parsers.presets import mapping_renamed, preset_mapping

    header = CF + [
        f"{c}{i}" for c in ("informativeness", "naturalness", "quality") for i in (1, 2, 3)
    ]
    header += ["mr", "mr_id", "primary", "ref1", "ref2", "ref3", "team1", "team2", "team3"]
    rows = [header]
    for w, worker in enumerate(("101", "102")):
        scores = [str(50 + 10 * ((w + n) % 5)) for n in range(9)]
        rows.append([*WHO[:3], worker, *WHO[4:], *scores, MR, "1", "no", *REFS, *TEAMS])
    first, _ = _release_import(tmp_path, "stp1.csv", rows, "rankme-crowdflower-setup1")
    second = CampaignFactory()

    def stored(campaign: Any) -> list[tuple[Any, ...]]:
        return sorted(
            (
                s.judgement.criterion.name,
                s.judgement.worker.external_id,
                s.output.system.label,
                s.output.text,
                s.score,
                s.judgement.submitted_at,
                s.judgement.metadata.get("_city"),
            )
            for s in JudgementScore.objects.filter(judgement__criterion__campaign=campaign)
        )

    for criterion in first.criteria.all():
        path = tmp_path / f"{criterion.name}.jsonl"
        path.write_text("".join(jsonl_lines(criterion=criterion)), encoding="utf-8")
        mapped_import(
            campaign=second,
            path=path,
            mapping=mapping_renamed(preset_mapping("humaneval-jsonl"), criterion.name),
        )
    assert len(stored(first)) == 18 and stored(second) == stored(first)
