"""Markdown exports carry no raw HTML or live Markdown from names and questions (the
ranking tables printed a system named ``<img src=x onerror=...>`` as it was)."""

from __future__ import annotations

import pytest

from ranking.exports.runs import Row, render
from reports.exports.datasheet import datasheet_markdown
from reports.selectors.datasheet import datasheet_for
from reports.services.datasheet import datasheet_answers_update
from tests.factories import CampaignFactory, CriterionFactory
from tests.flows.security.inert import markdown_problems

IMG = "<img src=x onerror=alert(1)>"
LINK = "[click](javascript:alert(1))"


def test_a_ranking_table_in_markdown_shows_a_hostile_system_name_as_text():
    rows = [Row(IMG, 0.3, 0.01, 1, 1, 1, 10), Row(LINK, 0.1, 0.01, 2, 2, 2, 10)]
    meta = {"campaign": "<script>x</script>", "excluded_workers": [IMG]}
    md = render(rows, "markdown", title=f"{IMG} *x*", meta=meta)
    assert markdown_problems(md) == []
    assert "&lt;img src=x onerror=alert\\(1\\)&gt;" in md


@pytest.mark.django_db
def test_the_datasheet_in_markdown_shows_hostile_questions_and_answers_as_text():
    campaign = CampaignFactory(name=IMG)
    CriterionFactory(campaign=campaign, name="quality", question=f"{IMG} {LINK}")
    datasheet_answers_update(campaign=campaign, answers={"5.1": f"{LINK} <b>bold</b>"})
    md = datasheet_markdown(datasheet_for(campaign=campaign))
    assert markdown_problems(md) == []
    assert "\\[click\\]\\(javascript:alert\\(1\\)\\) &lt;b&gt;bold&lt;/b&gt;" in md


def test_the_plain_table_carries_no_terminal_escape_or_bidi_override():
    rows = [Row("red\x1b[31m\u202egnp.exe", 0.3, 0.01, 1, 1, 1, 10)]
    text = render(rows, "table", title="T\x07itle")
    assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text
    assert "red[31mgnp.exe" in text and "Title" in text


@pytest.mark.django_db
def test_the_datasheet_latex_keeps_a_criterion_label_inside_the_item_argument():
    from reports.exports.datasheet import datasheet_latex
    from tests.flows.security.inert import latex_problems

    campaign = CampaignFactory(name="c")
    CriterionFactory(campaign=campaign, name="quality", question=r"\input{x} ]")
    tex = datasheet_latex(datasheet_for(campaign=campaign))
    assert r"\item[{4.1.1 [quality]}]" in tex
    assert latex_problems(tex, table_columns=False) == []
