import csv
import io

import pytest

from annotations.core.export_safety import csv_cell, csv_row, latex_escape, markdown_cell


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_formula_starts_are_neutralised(start: str) -> None:
    assert csv_cell(f'{start}HYPERLINK("http://x")') == f'\'{start}HYPERLINK("http://x")'


@pytest.mark.parametrize("value", ["-0.308", "+1", "12", "-1e-3", 0.5, -2, None, ""])
def test_numbers_and_empty_cells_pass(value: object) -> None:
    assert csv_cell(value) == value


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


def test_markdown_cells_keep_the_table() -> None:
    assert markdown_cell("a|b\nc") == "a\\|b c"
    assert markdown_cell("back\\slash") == "back\\\\slash"
