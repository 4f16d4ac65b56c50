"""The ``import_e2e`` command; a failure leaves no campaign."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotations.models import Campaign, Criterion, Judgement
from annotations.services.criteria import E2E_NATURALNESS_QUESTION, E2E_QUALITY_QUESTION

pytestmark = pytest.mark.django_db


def test_import_e2e(e2e_folder: Path, counts) -> None:
    out = StringIO()
    call_command("import_e2e", str(e2e_folder), campaign="small", stdout=out)
    text = out.getvalue()
    for line in (
        "systems:                  5",
        "items:                    2",
        "criteria:                 2",
        "judgements:               5",
        "identical-output groups:  1",
        "workers:                  3",
    ):
        assert line in text
    campaign = Campaign.objects.get(slug="small")
    questions = dict(Criterion.objects.filter(campaign=campaign).values_list("name", "question"))
    assert questions == {"quality": E2E_QUALITY_QUESTION, "naturalness": E2E_NATURALNESS_QUESTION}
    assert Judgement.objects.filter(criterion__name="naturalness").count() == 2
    # RankME's check{i} answers are the quality question's content checks, as the
    # e2e-quality preset reads them (they were kept as coverage labels only, and the
    # content-check table read 0% of every check)
    from annotations.models import JudgementScore

    quality = JudgementScore.objects.filter(judgement__criterion__name="quality")
    answers = {(s.coverage, tuple(s.checks)) for s in quality}
    assert all(
        checks == {"ok": ("perfect",), "both": ("added", "missing")}.get(label, (label,))
        for label, checks in answers
    )
    assert any(checks for _, checks in answers)

    before = counts()
    with pytest.raises(CommandError, match="already holds imported E2E judgements"):
        call_command("import_e2e", str(e2e_folder), campaign="small", stdout=StringIO())
    assert counts() == before


def test_import_e2e_failure_leaves_no_campaign(e2e_folder: Path, counts) -> None:
    """The ratings fail after outputs were written: the whole import rolls back."""
    path = e2e_folder / "naturalness.csv"
    path.write_text(path.read_text(encoding="utf-8").replace(",2,", ",1,", 1), encoding="utf-8")
    before = counts()
    with pytest.raises(CommandError) as info:
        call_command("import_e2e", str(e2e_folder), campaign="small", stdout=StringIO())
    assert (
        str(path) in str(info.value) and "line 2" in str(info.value) and "'mr'" in str(info.value)
    )
    assert counts() == before
