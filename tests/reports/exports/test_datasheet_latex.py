"""The datasheet's LaTeX (reports/exports/datasheet.py) keeps its structure whatever the
answers hold, and the E2E and demo datasheets compile."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from annotations.models import Campaign, Criterion, Task
from reports.exports.datasheet import datasheet_latex
from reports.selectors.datasheet import datasheet_for
from reports.services.datasheet import datasheet_answers_update
from tests.reports.datasheet_claims_data import PLATFORM_DEFAULTS, _campaign

pytestmark = pytest.mark.django_db


# LaTeX -----------------------------------------------------------------------------------------

_SPECIAL = re.compile(r"[#%&_~^$]")


def _check_latex(fragment: str) -> None:
    """Compile with pdflatex when it is installed; check the source's structure always."""
    # Control sequences (\item, \\, \{, \%) taken out, and the typeset minus signs:
    # what is left is text and grouping braces.
    text = re.sub(r"\\(?:[a-zA-Z]+|.)", "", fragment.replace("$-$", ""), flags=re.DOTALL)
    depth = 0
    for ch in text:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        assert depth >= 0, "a } closes nothing"
    assert depth == 0, "unbalanced braces"
    assert not _SPECIAL.search(text), _SPECIAL.search(text)
    for line in fragment.splitlines():
        # every \item label braced; every \\ guarded against a following "["
        if line.startswith(r"\item"):
            assert line.startswith(r"\item[{"), line
        assert not re.search(r"\\\\\s*\[", line), line
    pdflatex = shutil.which("pdflatex")
    if pdflatex is None:
        return
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        doc = Path(tmp) / "sheet.tex"
        doc.write_text(
            "\\documentclass{article}\n\\begin{document}\n" + fragment + "\\end{document}\n",
            encoding="utf-8",
        )
        done = subprocess.run(
            [pdflatex, "-interaction=nonstopmode", "-halt-on-error", "sheet.tex"],
            cwd=tmp,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        errors = [line for line in done.stdout.splitlines() if line.startswith("!")]
        assert done.returncode == 0, errors or done.stdout[-2000:]


def test_latex_survives_brackets_labels_and_negative_numbers():
    campaign = _campaign(kind=Task.Kind.REGULAR)
    Criterion.objects.filter(campaign=campaign).update(name="q]x [1")
    datasheet_answers_update(
        campaign=campaign,
        answers={"1.1": "[1] Belz et al.", "3.1.3": "Effect -0.12 at n=30; 2024-05-01."},
    )
    tex = datasheet_latex(datasheet_for(campaign=campaign))
    assert r"\item[{4.3.1 [q]x [1]}]" in tex
    assert r"\\{} [1] Belz et al." in tex
    assert "Effect $-$0.12" in tex and "2024-05-01" in tex
    _check_latex(tex)


def test_the_structure_check_catches_what_broke_before():
    with pytest.raises(AssertionError):
        _check_latex("\\item[4.3.1 [q]x] text \\\\ [1] answer\n")
    with pytest.raises(AssertionError):
        _check_latex("\\item[{1.1}] a_b\n")


@pytest.mark.e2e_data
def test_the_e2e_and_demo_datasheets_compile(e2e_dir):
    from annotations.importing.ratings import e2e_import
    from annotations.services.demo import demo_campaign_seed

    e2e_import(campaign_slug="e2e", folder=e2e_dir)
    e2e = datasheet_for(campaign=Campaign.objects.get(slug="e2e"))
    _check_latex(datasheet_latex(e2e))
    demo = demo_campaign_seed().campaign
    _check_latex(datasheet_latex(datasheet_for(campaign=demo)))
    # What the E2E release does not store is asked, not stated from this platform.
    a = {e.key: e for e in e2e.entries}
    assert "6,012 of the 13,230 outputs" in a["3.1.2"].platform_answer  # one number format
    assert "All 630 items" not in a["3.1.2"].platform_answer
    for claim in PLATFORM_DEFAULTS:
        assert claim not in a["3.3.3"].platform_answer + a["3.2.3"].platform_answer
    # E2E's quality task asked RankME's checklist (check1..5 in the release), which the
    # import now stores as content checks; naturalness asked none
    assert "a checklist was shown" in a["4.3.5@quality"].platform_answer
    assert "checklist" not in a["4.3.5@naturalness"].platform_answer.lower()
    for c in ("quality", "naturalness"):
        assert a[f"4.1.3@{c}"].open
