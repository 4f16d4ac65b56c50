import csv
import io
import json

import pytest

from ranking.exports.plots import rank_range_plot
from ranking.exports.runs import FORMATS, Row, parse_csv, render
from ranking.selectors.data_rule import DataRule

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


# Exports are safe to open --------------------------------------------------------------------

EVIL = [
    Row('=HYPERLINK("http://evil.example","x")', 0.5, 0.01, 1, 1, 1, 40),
    Row(r"\input{/etc/passwd}", 0.2, 0.01, 2, 2, 2, 40),
    Row("pipe|and\nnewline", 0.1, 0.01, 3, 3, 3, 40),
    Row("-2+3", -0.1, 0.01, 4, 4, 4, 40),
]
EVIL_META = {
    "campaign": "@SUM(A1:A2)",
    "criterion": r"q\input{/etc/passwd}",
    "method": "wmt14",
    "seed": 1,
    "excluded_workers": ["=cmd|' /C calc'!A0", "w|2"],
    "unranked": ["+unjudged", r"\write18{rm -rf /}"],
}


def test_csv_cells_cannot_become_formulas():
    # the ranking and its provenance sidecar (the metadata left the ranking CSV)
    rows = [
        row
        for fmt in ("csv", "provenance")
        for row in csv.reader(io.StringIO(render(EVIL, fmt, meta=EVIL_META)))
    ]
    cells = [cell for row in rows for cell in row]
    assert '\'=HYPERLINK("http://evil.example","x")' in cells
    assert "'-2+3" in cells and "'+unjudged" in cells
    assert "'@SUM(A1:A2)" in cells and "'=cmd|' /C calc'!A0, w|2" in cells
    assert "-0.100000" in cells  # a plain negative number stays a number
    dangerous = [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    assert dangerous == ["-0.100000"]


def test_latex_specials_in_every_name_are_inert():
    text = render(EVIL, "latex", title=r"Campaign \input{/etc/passwd} 100% & more", meta=EVIL_META)
    assert r"\input" not in text and r"\write18" not in text
    assert r"\textbackslash{}input\{/etc/passwd\}" in text
    assert r"Campaign \textbackslash{}input\{/etc/passwd\} 100\% \& more" in text
    assert r"\textbackslash{}write18\{rm -rf /\}" in text
    # A newline in a name cannot end a comment or a table row early.
    assert "pipe|and newline" in text
    assert all(
        line.startswith("%")
        or line.endswith(("\\\\", "}", "\\toprule", "\\midrule", "\\bottomrule"))
        for line in text.splitlines()
    ), text


def test_markdown_pipes_and_newlines_cannot_break_the_table():
    lines = render(EVIL, "markdown", title="T|*x*", meta=EVIL_META).splitlines()
    table = [line for line in lines if line.startswith("|")]
    assert all(line.count("|") - line.count("\\|") == 5 for line in table), table
    assert r"| 3 | 0.100 | 3 | pipe\|and newline |" in lines
    assert lines[0] == r"**T\|\*x\***"
    assert any(line.startswith("- excluded workers:") and r"w\|2" in line for line in lines)


def test_plain_table_keeps_one_line_per_system():
    text = render(EVIL, "table", meta=EVIL_META)
    assert "pipe|and newline" in text and "pipe|and\n" not in text


def test_plot_without_clusters_draws_no_cluster_labels():
    image = rank_range_plot(
        ROWS,
        fmt="svg",
        title="quality",
        clusters=False,
        no_clusters=_rule(stable=False).no_clusters_short,
    )
    assert b"slug (1)" not in image
    assert b"no clusters (stability check fails at 200 runs)" in image
    assert b"slug (1)" in rank_range_plot(ROWS, fmt="svg", title="quality")


def _rule(**kwargs):
    fields = {
        "min_comparisons": 30,
        "thin_systems": [],
        "unranked": [],
        "stable": True,
        "runs": 200,
        "suggested_runs": 700,
        **kwargs,
    }
    return DataRule(**fields)


def _meta(rule):
    return {
        "data_rule": {
            "min_comparisons": rule.min_comparisons,
            "met": rule.met,
            "problems": rule.problems,
            "no_clusters": rule.no_clusters,
        }
    }


def test_no_clusters_caption_names_the_split_half_check_when_it_fails():
    """Enough comparisons, but the stability check fails (E2E naturalness at 200 runs):
    the captions say why (the reason stored) and suggest more runs, not more data."""
    rule = _rule(stable=False, reasons=["two random halves of the runs give different clusters"])
    assert rule.enough_comparisons and not rule.met
    meta = _meta(rule)
    table = render(ROWS, "table", meta=meta)
    assert "too little data" not in table
    assert (
        "(No clusters: The stability check fails at 200 runs (two random halves of the runs "
        "give different clusters); rank again with more runs (about 700 "
        "suggested). See the minimum-data rule below.)"
    ) in table
    assert "\\par{\\footnotesize No clusters: The stability check fails at 200 runs" in render(
        ROWS, "latex", meta=meta
    )
    markdown = render(ROWS, "markdown", meta=meta)
    assert "No clusters: The stability check fails at 200 runs" in markdown
    assert "about 700 suggested" in markdown
    assert "comparisons" not in rule.no_clusters_short


def test_no_clusters_caption_names_the_comparisons_when_too_few():
    rule = _rule(thin_systems=[("slug", 6), ("tuda", 12)])
    meta = _meta(rule)
    table = render(ROWS, "table", meta=meta)
    assert "too little data" not in table
    assert (
        "(No clusters: Too few comparisons: 2 system(s) have fewer than 30 "
        "judgements or comparisons (RANKING_MIN_COMPARISONS); collect more judgements for them, then rank again."
    ) in table
    assert "split-half" not in table.split("See the minimum-data rule")[0]
    assert "\\par{\\footnotesize No clusters: Too few comparisons: 2 system(s)" in render(
        ROWS, "latex", meta=meta
    )
    assert rule.no_clusters_short == "fewer than 30 judgements or comparisons"
