"""The column-mapped ratings import into a campaign: criteria, items, outputs, tasks,
saved presets, the background job, and export -> import round trips."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from annotations.exports.judgements import export_lines
from annotations.importing.jobs import import_job_run
from annotations.importing.mapped import (
    mapped_import,
    mapped_import_upload,
    mapped_preview_upload,
    mapped_upload,
)
from annotations.importing.mappings import mapping_parse, mapping_resolve, rating_mapping_save
from annotations.importing.outputs import Upload
from annotations.importing.parsers.mapped.mapping import mapping_from_dict
from annotations.importing.parsers.presets import mapping_renamed, preset_mapping
from annotations.models import (
    Campaign,
    Criterion,
    ImportJob,
    Item,
    Judgement,
    Output,
    RatingMapping,
    System,
    Task,
)
from annotations.services.criteria import CRITERION_PRESETS
from annotations.tasks import RUNNERS
from common.errors import DomainError, ImportFileError
from tests.annotations.importing.conftest import rows3, three_slot_mapping, write_csv
from tests.annotations.importing.parsers.test_presets import FILES
from tests.factories import CampaignFactory, CriterionFactory, OutputFactory

pytestmark = pytest.mark.django_db


def judgements_of(campaign: Campaign) -> list[tuple[Any, ...]]:
    """Every judgement as (criterion, worker, item, ((system, score, rank), ...)), sorted."""
    rows = []
    for j in Judgement.objects.filter(criterion__campaign=campaign).select_related(
        "criterion", "worker", "task__item"
    ):
        scores = tuple(
            (s.output.system.label, s.score, s.rank)
            for s in j.scores.select_related("output__system").order_by("slot", "id")
        )
        rows.append((j.criterion.name, j.worker.external_id, j.task.item.external_id, scores))
    return sorted(rows)


def test_three_outputs_two_criteria(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    s = mapped_import(
        campaign=campaign,
        path=write_csv(tmp_path / "r.csv", rows3()),
        mapping=mapping_from_dict(three_slot_mapping()),
    )
    assert (s.rows, s.judgements, s.workers, s.items_created, s.outputs_created) == (2, 4, 2, 1, 3)
    assert set(s.criteria_created) == {"fluency", "adequacy"}
    fluency = Criterion.objects.get(campaign=campaign, name="fluency")
    assert fluency.scale == Criterion.Scale.LIKERT
    # fluency is a criterion preset: created from it (its question, its five levels).
    assert fluency.question == CRITERION_PRESETS["fluency"]["question"]
    assert [lv["value"] for lv in fluency.likert_levels] == [1, 2, 3, 4, 5]
    # adequacy holds 2.5: not a Likert scale; 0..100 makes it a slider.
    assert Criterion.objects.get(campaign=campaign, name="adequacy").scale == "slider"
    assert Item.objects.get(campaign=campaign).input == "a source"
    assert Output.objects.get(item__campaign=campaign, system__label="B").text == "tb"
    # Both judges saw the same item and systems: one task per criterion, two judgements.
    assert Task.objects.filter(campaign=campaign).count() == 2
    assert all(t.judgements.count() == 2 for t in Task.objects.filter(campaign=campaign))
    assert judgements_of(campaign)[0] == (
        "adequacy",
        "w1",
        "s1",
        (("A", 4.0, 3.0), ("B", 5.0, 1.0), ("C", 5.0, 1.0)),
    )
    j = Judgement.objects.filter(worker__external_id="w2").first()
    assert j is not None and j.metadata["source"] == "r.csv" and j.metadata["line"] == 3


def test_existing_outputs_kept_and_shown_text_recorded(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    OutputFactory(
        item__campaign=campaign,
        item__external_id="s1",
        item__input="a source",
        system__label="A",
        system__campaign=campaign,
        text="Stored A.",
    )
    s = mapped_import(
        campaign=campaign,
        path=write_csv(tmp_path / "r.csv", rows3()),
        mapping=mapping_from_dict(three_slot_mapping()),
    )
    assert s.outputs_created == 2 and s.texts_differing == 4
    assert Output.objects.get(item__campaign=campaign, system__label="A").text == "Stored A."


def test_existing_criterion_with_another_scale_writes_nothing(
    tmp_path: Path, counts: Callable[[], dict[str, int]]
) -> None:
    campaign = CampaignFactory()
    CriterionFactory(campaign=campaign, name="adequacy", scale=Criterion.Scale.MAGNITUDE)
    mapping = three_slot_mapping()
    mapping["criteria"][1]["scale"] = "likert"
    before = counts()
    with pytest.raises(DomainError, match=r"adequacy.*magnitude.*likert"):
        mapped_import(
            campaign=campaign,
            path=write_csv(tmp_path / "r.csv", rows3()),
            mapping=mapping_from_dict(mapping),
        )
    assert counts() == before


def test_existing_criterion_is_used(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    fluency = CriterionFactory(campaign=campaign, name="fluency", scale=Criterion.Scale.SLIDER)
    s = mapped_import(
        campaign=campaign,
        path=write_csv(tmp_path / "r.csv", rows3()),
        mapping=mapping_from_dict(three_slot_mapping()),
    )
    assert s.criteria_created == ("adequacy",)
    assert fluency.judgements.count() == 2


def test_bad_row_writes_nothing(tmp_path: Path, counts: Callable[[], dict[str, int]]) -> None:
    campaign = CampaignFactory()
    rows = rows3()
    rows[2][-1] = "lots"
    before = counts()
    with pytest.raises(ImportFileError) as err:
        mapped_import(
            campaign=campaign,
            path=write_csv(tmp_path / "r.csv", rows),
            mapping=mapping_from_dict(three_slot_mapping()),
        )
    assert (err.value.line, err.value.field) == (3, "ade3")
    assert counts() == before


def test_same_file_twice_refused(tmp_path: Path, counts: Callable[[], dict[str, int]]) -> None:
    campaign = CampaignFactory()
    path = write_csv(tmp_path / "r.csv", rows3())
    mapping = mapping_from_dict(three_slot_mapping())
    mapped_import(campaign=campaign, path=path, mapping=mapping)
    before = counts()
    with pytest.raises(ImportFileError, match="imported before"):
        mapped_import(campaign=campaign, path=path, mapping=mapping)
    assert counts() == before


def test_item_with_another_input(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    OutputFactory(item__campaign=campaign, item__external_id="s1", item__input="other")
    with pytest.raises(ImportFileError) as err:
        mapped_import(
            campaign=campaign,
            path=write_csv(tmp_path / "r.csv", rows3()),
            mapping=mapping_from_dict(three_slot_mapping()),
        )
    assert (err.value.line, err.value.field) == (2, "src")


def test_saved_presets() -> None:
    campaign = CampaignFactory()
    mapping = mapping_from_dict(three_slot_mapping())
    saved = rating_mapping_save(campaign=campaign, name="my-study", mapping=mapping)
    assert RatingMapping.objects.get(pk=saved.pk).mapping == mapping.to_dict()
    assert mapping_resolve(campaign=campaign, name="my-study") == mapping
    assert mapping_resolve(campaign=campaign, name="wmt") == preset_mapping("wmt")
    # Saving again under the name replaces it.
    other = mapping_from_dict(three_slot_mapping(worker="annotator"))
    rating_mapping_save(campaign=campaign, name="my-study", mapping=other)
    assert mapping_resolve(campaign=campaign, name="my-study") == other
    assert RatingMapping.objects.filter(campaign=campaign).count() == 1
    with pytest.raises(DomainError, match="built-in"):
        rating_mapping_save(campaign=campaign, name="mturk", mapping=mapping)
    with pytest.raises(DomainError, match="letters"):
        rating_mapping_save(campaign=campaign, name="my study!", mapping=mapping)
    with pytest.raises(DomainError, match="my-study"):
        mapping_resolve(campaign=campaign, name="nope")
    assert mapping_resolve(campaign=None, name="potato") == preset_mapping("potato")


def test_mapping_parse_errors() -> None:
    with pytest.raises(DomainError, match="not valid JSON"):
        mapping_parse("{")
    with pytest.raises(DomainError, match="field 'slots'"):
        mapping_parse(json.dumps(three_slot_mapping(slots=12)))


def test_upload_errors_name_the_upload(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    rows = rows3()
    rows[1][HEADER_INDEX_FLU1] = "x"
    data = write_csv(tmp_path / "r.csv", rows).read_bytes()
    with pytest.raises(ImportFileError) as err:
        mapped_import_upload(
            campaign=campaign,
            upload=Upload(name="mine.csv", data=data),
            mapping=mapping_from_dict(three_slot_mapping()),
        )
    assert (err.value.file, err.value.line, err.value.field) == ("mine.csv", 2, "flu1")
    assert str(tmp_path) not in str(err.value) and "/tmp" not in str(err.value)
    preview = mapped_preview_upload(
        upload=Upload(name="mine.csv", data=write_csv(tmp_path / "ok.csv", rows3()).read_bytes()),
        mapping=mapping_from_dict(three_slot_mapping()),
        rows=1,
    )
    assert preview.file == "mine.csv" and len(preview.rows) == 1


HEADER_INDEX_FLU1 = rows3()[0].index("flu1")


def test_large_upload_becomes_a_job(tmp_path: Path, settings: Any) -> None:
    settings.IMPORT_INLINE_MAX_BYTES = 10
    campaign = CampaignFactory()
    data = write_csv(tmp_path / "r.csv", rows3()).read_bytes()
    outcome = mapped_upload(
        campaign=campaign,
        upload=Upload(name="big.csv", data=data),
        mapping=mapping_from_dict(three_slot_mapping()),
    )
    assert outcome.result is None and outcome.job is not None
    assert not Judgement.objects.exists()
    job = import_job_run(job=outcome.job, runners=RUNNERS)
    assert job.status == ImportJob.Status.DONE, job.error
    assert job.summary["judgements"] == 4 and job.rows_done == 4
    assert job.summary["file"] == "big.csv" and job.data == b""
    assert Judgement.objects.filter(criterion__campaign=campaign).count() == 4


def test_failing_job_records_the_place(tmp_path: Path, settings: Any) -> None:
    settings.IMPORT_INLINE_MAX_BYTES = 10
    campaign = CampaignFactory()
    rows = rows3()
    rows[2][HEADER_INDEX_FLU1] = "bad"
    outcome = mapped_upload(
        campaign=campaign,
        upload=Upload(name="big.csv", data=write_csv(tmp_path / "r.csv", rows).read_bytes()),
        mapping=mapping_from_dict(three_slot_mapping()),
    )
    assert outcome.job is not None
    job = import_job_run(job=outcome.job, runners=RUNNERS)
    assert job.status == ImportJob.Status.FAILED
    assert job.summary == {
        "file": "big.csv",
        "line": 3,
        "field": "flu1",
        "reason": job.summary["reason"],
    }
    assert not Judgement.objects.exists()


# --------------------------------------------------------------------------------------
# Round trips: export -> import through the matching preset gives the same judgements


def _export(campaign: Campaign, criterion: str, fmt: str, path: Path) -> Path:
    c = Criterion.objects.get(campaign=campaign, name=criterion)
    path.write_text("".join(export_lines(criterion=c, fmt=fmt)), encoding="utf-8")
    return path


def test_round_trip_e2e_csv(tmp_path: Path) -> None:
    first = CampaignFactory(slug="first")
    mapped_import(
        campaign=first, path=FILES["e2e-quality"](tmp_path), mapping=preset_mapping("e2e-quality")
    )
    exported = _export(first, "quality", "csv", tmp_path / "out.csv")
    second = CampaignFactory(slug="second")
    mapped_import(campaign=second, path=exported, mapping=preset_mapping("e2e-quality"))
    assert judgements_of(second) == judgements_of(first)
    times = lambda c: sorted(  # noqa: E731
        Judgement.objects.filter(criterion__campaign=c).values_list("started_at", "submitted_at")
    )
    assert times(second) == times(first)
    texts = lambda c: sorted(  # noqa: E731
        Output.objects.filter(item__campaign=c).values_list("item__input", "system__label", "text")
    )
    assert texts(second) == texts(first)


def test_round_trip_wmt(tmp_path: Path) -> None:
    first = CampaignFactory(slug="first")
    mapped_import(campaign=first, path=FILES["wmt"](tmp_path), mapping=preset_mapping("wmt"))
    exported = _export(first, "ranking", "wmt", tmp_path / "out.wmt.csv")
    second = CampaignFactory(slug="second")
    mapped_import(campaign=second, path=exported, mapping=preset_mapping("wmt"))
    assert judgements_of(second) == judgements_of(first)


@pytest.mark.parametrize("name", sorted(FILES))
def test_round_trip_through_jsonl_export(tmp_path: Path, name: str) -> None:
    """Each preset's file imported, exported as JSONL, re-imported with the JSONL preset:
    the same judgements, outputs and times."""
    first = CampaignFactory(slug="first")
    mapping = preset_mapping(name)
    mapped_import(campaign=first, path=FILES[name](tmp_path), mapping=mapping)
    criterion = first.criteria.get().name  # "*" presets: the name the file gives
    exported = _export(first, criterion, "jsonl", tmp_path / "out.jsonl")
    second = CampaignFactory(slug="second")
    mapped_import(
        campaign=second,
        path=exported,
        mapping=mapping_renamed(preset_mapping("humaneval-jsonl"), criterion),
    )
    assert judgements_of(second) == judgements_of(first)
    assert sorted(
        Judgement.objects.filter(criterion__campaign=second).values_list("submitted_at", flat=True)
    ) == sorted(
        Judgement.objects.filter(criterion__campaign=first).values_list("submitted_at", flat=True)
    )
    outputs = lambda c: sorted(  # noqa: E731
        Output.objects.filter(item__campaign=c).values_list(
            "item__external_id", "item__input", "system__label", "text"
        )
    )
    assert outputs(second) == outputs(first)


def test_score_agreement_on_an_imported_multi_judge_file(tmp_path: Path) -> None:
    """Four judges rating the same three outputs of each item (each in their own slot
    order, no unit column) form one task per item; Krippendorff's alpha on the scores
    equals the krippendorff package's (interval, one coder per judge)."""
    import krippendorff
    import numpy as np

    from annotations.selectors.agreement import criterion_agreement

    rng = np.random.default_rng(5)
    systems, judges, items = ["a", "b", "c"], [f"j{n}" for n in range(4)], 5
    header = ["judge", "seg", "src", "sys1", "sys2", "sys3", "q1", "q2", "q3"]
    rows = [header]
    matrix = np.full((len(judges), items * len(systems)), np.nan)
    for item in range(items):
        for c, judge in enumerate(judges):
            order = [systems[i] for i in rng.permutation(3)]
            scores = [int(s) for s in rng.integers(1, 6, size=3)]
            if c == 3 and item == 4:
                continue  # a judge who skipped an item: missing values in the oracle
            rows.append([judge, f"i{item}", f"input {item}", *order, *map(str, scores)])
            for system, score in zip(order, scores, strict=True):
                matrix[c, item * 3 + systems.index(system)] = score
    campaign = CampaignFactory()
    mapped_import(
        campaign=campaign,
        path=write_csv(tmp_path / "multi.csv", rows),
        mapping=mapping_from_dict(
            {
                "format": "csv",
                "worker": "judge",
                "item": "seg",
                "input": "src",
                "system": "sys{i}",
                "criteria": [{"name": "overall", "score": "q{i}", "scale": "likert"}],
            }
        ),
    )
    assert Task.objects.filter(campaign=campaign).count() == items
    ours = criterion_agreement(criterion=Criterion.objects.get(campaign=campaign))
    expected = krippendorff.alpha(reliability_data=matrix, level_of_measurement="interval")
    assert ours.score_alpha == pytest.approx(expected, abs=1e-9)
    assert ours.workers == 4 and ours.judgements == 19


@pytest.mark.parametrize("status", ["archived", "closed", "draft"])
def test_an_archived_campaign_takes_no_ratings(
    tmp_path: Path, counts: Callable[[], dict[str, int]], status: str
) -> None:
    """Archived means read-only: the import is refused before any criterion, item or
    output is made. A closed campaign (where imported releases live) still takes them."""
    campaign = CampaignFactory(status=status)
    before = counts()
    path = write_csv(tmp_path / "r.csv", rows3())
    if status != "archived":
        assert (
            mapped_import(
                campaign=campaign, path=path, mapping=mapping_from_dict(three_slot_mapping())
            ).judgements
            == 4
        )
        return
    with pytest.raises(DomainError, match="is archived, so it is read-only: nothing was imported"):
        mapped_import(campaign=campaign, path=path, mapping=mapping_from_dict(three_slot_mapping()))
    assert counts() == before


@pytest.mark.django_db
def test_mturk_rejected_assignments_are_left_out_and_said(tmp_path: Path) -> None:
    """Rejected MTurk work (the requester refused it) was imported as judgements, with
    nothing said; the preset's skip_rows now leave it out, and the notes count it."""
    from tests.annotations.importing.parsers.test_presets import mturk_file

    path = mturk_file(tmp_path)
    text = path.read_text()
    lines = text.splitlines()
    lines[1] = lines[1].replace("Submitted", "Rejected", 1)
    path.write_text("\n".join(lines) + "\n")
    campaign = CampaignFactory()
    result = mapped_import(campaign=campaign, path=path, mapping=preset_mapping("mturk"))
    assert result.left_out == {"AssignmentStatus": {"Rejected": 1}}
    assert result.judgements == len(lines) - 2
    assert "Left out 1 row where AssignmentStatus is Rejected (the mapping's skip_rows)." in (
        result.notes()
    )
    assert result.summary()["left_out"] == {"AssignmentStatus": {"Rejected": 1}}
    # every row rejected: refused, saying why nothing is left
    path.write_text(text.replace("Submitted", "Rejected"))
    with pytest.raises(ImportFileError, match="skip_rows left out 2 row"):
        mapped_import(campaign=CampaignFactory(), path=path, mapping=preset_mapping("mturk"))


def _quality_mapping(*, slots: int):
    """Columns worker, item, sys{i}, out{i} and q{i}: a magnitude criterion "quality"."""
    return mapping_from_dict(
        {
            "format": "csv",
            "worker": "worker",
            "item": "item",
            "slots": slots,
            "system": "sys{i}",
            "output": "out{i}",
            "criteria": [{"name": "quality", "score": "q{i}", "scale": "magnitude"}],
        }
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("score", "said"),
    [("-5", "'-5' is a negative score"), ("1e300", "'1e300' is larger than any score")],
)
def test_a_score_the_platform_cannot_store_is_refused_with_its_place(
    tmp_path: Path, counts: Callable[[], dict[str, int]], score: str, said: str
) -> None:
    """A reviewer's file: a negative magnitude score failed the database's check with a
    traceback (IntegrityError), and 1e300 overflowed the means; both are refused now,
    naming file, line and column, with nothing written."""
    path = write_csv(
        tmp_path / "neg.csv",
        [
            ["worker", "item", "sys1", "sys2", "sys3", "out1", "out2", "out3", "q1", "q2", "q3"],
            ["w1", "i1", "A", "B", "C", "a", "b", "c", "0", score, "20"],
        ],
    )
    mapping = _quality_mapping(slots=3)
    campaign = CampaignFactory()
    before = counts()
    with pytest.raises(ImportFileError) as refused:
        mapped_import(campaign=campaign, path=path, mapping=mapping)
    assert (refused.value.line, refused.value.field) == (2, "q2")
    assert said in str(refused.value)
    assert counts() == before


@pytest.mark.django_db
def test_a_system_label_in_two_unicode_forms_is_one_system(tmp_path: Path) -> None:
    """A reviewer's file named "Système" with the accented letter on one row and with a
    combining accent (NFD) on another: two systems, both shown "Système", ranked apart."""
    import unicodedata

    from annotations.models import System

    composed = "Syst\u00e8me"
    decomposed = unicodedata.normalize("NFD", composed)
    assert composed != decomposed
    path = write_csv(
        tmp_path / "uni.csv",
        [
            ["worker", "item", "sys1", "sys2", "out1", "out2", "q1", "q2"],
            ["w1", "i1", composed, "B", "x1", "y1", "120", "80"],
            ["w2", "i2", decomposed, "B", "x2", "y2", "90", "110"],
        ],
    )
    mapping = _quality_mapping(slots=2)
    campaign = CampaignFactory()
    mapped_import(campaign=campaign, path=path, mapping=mapping)
    assert sorted(System.objects.filter(campaign=campaign).values_list("label", flat=True)) == [
        "B",
        composed,
    ]


@pytest.mark.django_db
def test_a_skip_rows_column_the_file_lacks_altogether_is_noted(tmp_path: Path) -> None:
    """An MTurk file as another tool saves it, without AssignmentStatus: imported, and
    the notes say the preset's skip_rows left nothing out (a near miss is refused)."""
    from tests.annotations.importing.parsers.test_presets import mturk_file

    path = mturk_file(tmp_path)
    rows = list(csv.reader(path.read_text().splitlines()))
    at = rows[0].index("AssignmentStatus")
    path.write_text("\n".join(",".join(r[:at] + r[at + 1 :]) for r in rows) + "\n")
    result = mapped_import(campaign=CampaignFactory(), path=path, mapping=preset_mapping("mturk"))
    assert result.judgements == len(rows) - 1 and result.skip_rows_absent == ("AssignmentStatus",)
    assert (
        "The file has no AssignmentStatus column: the mapping's skip_rows left no row out by it."
        in result.notes()
    )


def test_rows_whose_judgements_are_all_skipped_write_nothing(tmp_path: Path) -> None:
    """A reviewer's WMT file through the preset: the unranked rows (-1) created systems
    "-1", sysZ and sysY with outputs, 9 outputs for 1 judgement, and ranking then counted
    them as systems without comparisons. import_wmt skips such rows before anything."""
    header = ["srclang", "trglang", "segmentId", "judgeId"]
    header += [f"system{i}{c}" for c in ("Id", "rank") for i in (1, 2, 3)]
    rows = [
        header,
        ["en", "de", "1", "j1", "sysA", "sysB", "sysC", "1", "2", "3"],
        ["en", "de", "2", "j1", "sysA", "sysB", "-1", "1", "2", "-1"],
        ["en", "de", "3", "j1", "sysA", "sysZ", "sysY", "-1", "-1", "-1"],
    ]
    campaign = CampaignFactory()
    summary = mapped_import(
        campaign=campaign,
        path=write_csv(tmp_path / "wmt.csv", rows),
        mapping=preset_mapping("wmt"),
    )
    assert summary.judgements == 1
    assert sorted(System.objects.filter(campaign=campaign).values_list("label", flat=True)) == [
        "sysA",
        "sysB",
        "sysC",
    ]
    assert Output.objects.filter(item__campaign=campaign).count() == 3
    assert list(Item.objects.filter(campaign=campaign).values_list("external_id", flat=True)) == [
        "1"
    ]
