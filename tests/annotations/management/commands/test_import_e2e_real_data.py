"""import_e2e on the released E2E data (skips when ../shared/e2e is absent)."""

from __future__ import annotations

import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotations.models import (
    Criterion,
    Item,
    Judgement,
    JudgementScore,
    System,
    TaskOutput,
    Worker,
)

pytestmark = [pytest.mark.django_db, pytest.mark.e2e_data]


def test_import_e2e_real_data(e2e_dir: Path, counts) -> None:
    out = StringIO()
    start = time.perf_counter()
    call_command("import_e2e", str(e2e_dir), campaign="e2e", stdout=out)
    elapsed = time.perf_counter() - start
    text = out.getvalue()
    for line in (
        "systems:                  21",
        "items:                    630",
        "criteria:                 2",
        "judgements:               7,218",
    ):
        assert line in text
    assert System.objects.count() == 21 and Item.objects.count() == 630
    assert Criterion.objects.count() == 2
    assert Judgement.objects.count() == 7218
    assert JudgementScore.objects.count() == 5 * 7218
    assert Judgement.objects.filter(criterion__name="quality").count() == 2979
    assert Judgement.objects.filter(criterion__name="naturalness").count() == 4239
    # every shown text is the system's output for that MR: ratings and outputs link up
    assert not TaskOutput.objects.exclude(text="").exists()
    assert "shown texts differing from the outputs: 0" in text
    assert not any("USA" in str(m) for m in Worker.objects.values_list("metadata", flat=True))
    assert System.objects.get(label="forge3").metadata["participant"] == "forge"
    assert elapsed < 60  # ~6 s on SQLite on a laptop; generous for CI

    before = counts()
    with pytest.raises(CommandError, match="already holds"):
        call_command("import_e2e", str(e2e_dir), campaign="e2e", stdout=StringIO())
    assert counts() == before


def test_released_quality_ratings_round_trip_and_read_their_checks(e2e_dir: Path, tmp_path) -> None:
    """import_e2e's quality judgements, exported as CSV, re-import through humaneval-csv
    unchanged (coverage labels, metadata, criterion); the released quality.csv read
    through the e2e-quality mapping puts RankME's check{i} into the content checks,
    label for label what import_e2e keeps as coverage."""
    from annotations.exports.judgements import export_lines
    from annotations.importing.mapped import mapped_import
    from annotations.importing.parsers.presets import preset_mapping
    from tests.factories import CampaignFactory
    from tests.flows.test_corpus_round_trip import snapshot

    call_command("import_e2e", str(e2e_dir), campaign="e2e", stdout=StringIO())
    quality = Criterion.objects.get(campaign__slug="e2e", name="quality")
    path = tmp_path / "quality-export.csv"
    path.write_text("".join(export_lines(criterion=quality, fmt="csv")), encoding="utf-8")
    again = CampaignFactory(slug="again")
    mapped_import(campaign=again, path=path, mapping=preset_mapping("humaneval-csv"))
    first, second = snapshot(quality.campaign), snapshot(again)
    assert second["criteria"]["quality"] == first["criteria"]["quality"]
    assert second["judgements"] == [j for j in first["judgements"] if j[0] == "quality"]

    mapped = CampaignFactory(slug="mapped")
    mapped_import(
        campaign=mapped, path=e2e_dir / "quality.csv", mapping=preset_mapping("e2e-quality")
    )
    as_checks = {"ok": ["perfect"], "missing": ["missing"], "added": ["added"]}
    as_checks["both"] = ["added", "missing"]
    expected = sorted(
        (metadata["_id"], system, tuple(as_checks[coverage]))
        for metadata, system, coverage in JudgementScore.objects.filter(
            judgement__criterion=quality
        ).values_list("judgement__metadata", "output__system__label", "coverage")
    )
    got = sorted(
        (metadata["_id"], system, tuple(checks))
        for metadata, system, checks in JudgementScore.objects.filter(
            judgement__criterion__campaign=mapped
        ).values_list("judgement__metadata", "output__system__label", "checks")
    )
    assert got == expected
    assert mapped.criteria.get().content_checks == ["added", "missing", "perfect"]
