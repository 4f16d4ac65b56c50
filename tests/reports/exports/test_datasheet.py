"""The datasheet's LaTeX (reports/exports/datasheet.py) escapes specials."""

from __future__ import annotations

import pytest

from reports.exports.datasheet import datasheet_latex
from reports.selectors.datasheet import datasheet_for
from reports.services.datasheet import datasheet_answers_update

pytestmark = pytest.mark.django_db


def test_latex_escapes_specials(campaign):
    campaign.name = r"R&D_50% $x# {y} ~ ^ \z"
    campaign.save()
    datasheet_answers_update(campaign=campaign, answers={"1.1": "a_b & c"})
    tex = datasheet_latex(datasheet_for(campaign=campaign))
    assert r"R\&D\_50\% \$x\# \{y\} \textasciitilde{} \textasciicircum{} \textbackslash{}z" in tex
    assert r"a\_b \& c" in tex and "a_b & c" not in tex
