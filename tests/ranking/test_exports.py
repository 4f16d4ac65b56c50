import json

import pytest

from ranking.exports import FORMATS, Row, parse_csv, render
from ranking.plots import rank_range_plot

ROWS = [
    Row("slug", 0.300, 0.01, 1, 1, 1, 1200),
    Row("tuda", 0.228, 0.02, 2, 4, 2, 1100),
    Row("gong_x", 0.213, 0.02, 2, 5, 2, 1000),
    Row("sheff2", -0.5, 0.03, 20, 21, 3, 900),
]


def test_table_looks_like_table_11():
    text = render(ROWS, "table")
    lines = text.splitlines()
    assert lines[0].split() == ["#", "TrueSkill", "Range", "System"]
    assert lines[2].split() == ["1", "0.300", "1", "slug"]
    # A rule between clusters, the cluster number only on the cluster's first line.
    assert lines[3].startswith("---")
    assert lines[4].split() == ["2", "0.228", "2-4", "tuda"]
    assert lines[5].split() == ["0.213", "2-5", "gong_x"]
    assert lines[7].split() == ["3", "-0.500", "20-21", "sheff2"]


def test_latex_uses_booktabs_with_a_rule_between_clusters():
    text = render(ROWS, "latex")
    body = text.splitlines()
    assert r"\toprule" in body and r"\bottomrule" in body
    first = body.index(r"1 & 0.300 & 1 & slug \\")
    assert body[first + 1] == r"\midrule"
    assert r"& gong\_x \\" in text  # escaped
    assert body.count(r"\midrule") == 3  # under the header and between the three clusters
    assert "2--4" in text


def test_markdown_and_json():
    md = render(ROWS, "markdown").splitlines()
    assert md[0].startswith("| # | TrueSkill")
    assert md[2] == "| 1 | 0.300 | 1 | slug |"
    data = json.loads(render(ROWS, "json", meta={"method": "wmt14"}))
    assert data["method"] == "wmt14"
    assert data["ranking"][1]["system"] == "tuda"
    assert data["ranking"][1]["rank_hi"] == 4


def test_csv_round_trip():
    assert parse_csv(render(ROWS, "csv")) == [
        Row(
            r.system,
            round(r.value, 6),
            round(r.spread, 6),
            r.rank_lo,
            r.rank_hi,
            r.cluster,
            r.comparisons,
        )
        for r in ROWS
    ]


def test_unknown_format_is_refused():
    with pytest.raises(ValueError, match="Unknown format 'xml'"):
        render(ROWS, "xml")
    assert "xml" not in FORMATS


@pytest.mark.parametrize("fmt,magic", [("svg", b"<svg"), ("png", b"\x89PNG")])
def test_plot_draws_every_system(fmt, magic):
    image = rank_range_plot(ROWS, fmt=fmt, title="quality")
    assert magic in image[:400]
    if fmt == "svg":
        for row in ROWS:
            assert row.system.encode() in image
