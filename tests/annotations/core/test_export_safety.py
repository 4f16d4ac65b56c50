import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annotations.core.export_safety import (
    csv_cell,
    csv_cell_read,
    csv_row,
    latex_escape,
    markdown_escape,
)


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_formula_starts_are_neutralised(start: str) -> None:
    assert csv_cell(f'{start}HYPERLINK("http://x")') == f'\'{start}HYPERLINK("http://x")'


@pytest.mark.parametrize("value", ["-0.308", "+1", "12", "-1e-3", 0.5, -2, None, ""])
def test_numbers_and_empty_cells_pass(value: object) -> None:
    assert csv_cell(value) == value


@pytest.mark.parametrize(
    ("text", "cell"),
    [("'=x", "''=x"), ("''-1", "'''-1"), ("'-1", "''-1"), ("'tis", "'tis"), ("-1", "-1")],
)
def test_a_text_already_quoted_is_quoted_again(text: str, cell: str) -> None:
    """Without the second apostrophe, '=x and =x would be written alike, and reading
    the file back could not tell them apart."""
    assert csv_cell(text) == cell
    assert csv_cell_read(cell) == text


@given(st.text(alphabet="'=+-@\t\r0123456789.eax ", max_size=8))
def test_reading_a_cell_back_gives_the_text_written(text: str) -> None:
    assert csv_cell_read(str(csv_cell(text))) == text


def test_row_round_trips_through_csv() -> None:
    buffer = io.StringIO()
    csv.writer(buffer).writerow(csv_row(["=1+1", "ok", -0.5]))
    assert next(csv.reader(io.StringIO(buffer.getvalue()))) == ["'=1+1", "ok", "-0.5"]


def test_latex_specials_are_inert() -> None:
    assert latex_escape(r"\input{/etc/passwd}") == r"\textbackslash{}input\{/etc/passwd\}"
    assert latex_escape("a & b % c $ d # e _ f ~ g ^ h") == (
        r"a \& b \% c \$ d \# e \_ f \textasciitilde{} g \textasciicircum{} h"
    )
    assert latex_escape("two\nlines\r\nhere") == "two lines here"


def test_latex_drops_control_and_bidi_override_characters() -> None:
    assert latex_escape("a\x00b\u202ecd\x1b[31m") == "abcd[31m"


def test_markdown_cells_keep_the_table() -> None:
    assert markdown_escape("a|b\nc") == "a\\|b c"
    assert markdown_escape("back\\slash") == "back\\\\slash"


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert\\(1\\)&gt;"),
        ("<!-- hidden -->", "&lt;\\!-- hidden --&gt;"),
        ("[x](javascript:alert(1))", "\\[x\\]\\(javascript:alert\\(1\\)\\)"),
        ("![x](https://evil.example/t.png)", "\\!\\[x\\]\\(https://evil.example/t.png\\)"),
        ("<https://evil.example>", "&lt;https://evil.example&gt;"),
        ("**bold** _it_ `code` ~~del~~", "\\*\\*bold\\*\\* \\_it\\_ \\`code\\` \\~\\~del\\~\\~"),
        ("&lt; is an entity", "&amp;lt; is an entity"),
        ("# heading", "\\# heading"),
        ("- item", "\\- item"),
        ("1. item", "1\\. item"),
        ("5.1 a numbered question", "5.1 a numbered question"),
        ("$x^2$", "\\$x\\^2\\$"),
        ("a\u202eb\x00c", "abc"),
        ("e2e-baseline v1.0", "e2e-baseline v1.0"),
    ],
)
def test_markdown_escapes_html_and_markdown(text: str, escaped: str) -> None:
    assert markdown_escape(text) == escaped


def test_escaped_markdown_renders_as_the_text_itself() -> None:
    from markdown_it import MarkdownIt

    text = "<b>x</b> [a](javascript:alert(1)) *e* `c` | &amp; # - 1. $ \\ ~"
    html = MarkdownIt("commonmark", {"html": True}).render(markdown_escape(text))
    # One paragraph of the text, HTML-escaped by the renderer: no tag, link or emphasis.
    assert (
        html
        == "<p>" + text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") + "</p>\n"
    )


def test_a_csv_cell_keeps_bidirectional_controls_so_data_round_trips() -> None:
    """A CSV export is data: Arabic text wrapping a Latin name in isolates re-imports as
    it was (dropping them split systems and changed texts on a round trip)."""
    text = "مطعم \u2068Blue Spice 1\u2069 يقدم"
    assert csv_cell(text) == text
    assert csv_cell("\u2067=1+1\u2069") == "\u2067=1+1\u2069"  # a formula only at its start
