"""The mapping's own rules (``annotations.importing.parsers.mapped.mapping``): a wrong
setting is refused naming it, before any file is read."""

from __future__ import annotations

from typing import Any

import pytest

from annotations.importing.parsers.mapped.mapping import MappingError, mapping_from_dict
from tests.annotations.importing.conftest import three_slot_mapping


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"format": "xlsx"}, "format"),
        ({"slots": -1}, "slots"),
        ({"slots": 11}, "slots"),
        ({"first": 2}, "first"),
        ({"system": "team"}, "system"),
        ({"output": "hyp"}, "output"),
        ({"item": ""}, "item"),
        ({"worker": "judge{i}"}, "worker"),
        ({"criteria": []}, "criteria"),
        ({"criteria": [{"name": "Flu ency", "score": "flu{i}"}]}, "criteria[0].name"),
        ({"criteria": [{"name": "f", "score": "flu"}]}, "criteria[0].score"),
        ({"criteria": [{"name": "f", "score": "f{i}", "scale": "stars"}]}, "criteria[0].scale"),
        (
            {"criteria": [{"name": "f", "score": "f{i}"}, {"name": "f", "score": "g{i}"}]},
            "criteria[1].name",
        ),
        ({"started_at": "t"}, "time_format"),
        ({"colour": "red"}, "colour"),
        # only the language or metadata columns may be missing from a file
        ({"optional": ["judge"]}, "optional"),
        ({"optional": "team{i}"}, "optional"),
        # the worker as a metadata column does not make it optional
        ({"metadata": ["judge"], "optional": ["judge"]}, "optional"),
        ({"language": "seg", "optional": ["seg"]}, "optional"),
        # bounded, as aliases and skip_rows are (a saved 50,000 made a 355 KB page)
        ({"skip_values": [str(n) for n in range(501)]}, "skip_values"),
        ({"metadata": ["m" * 201]}, "metadata"),
        ({"language": "l" * 201}, "language"),
        # each identity column is a column of its own (a worker read from the item's
        # column made every item its own worker)
        ({"worker": "seg"}, "worker"),
        ({"output": "team{i}"}, "output"),
        ({"unit": "judge"}, "unit"),
        ({"worker": "src"}, "input"),
        ({"criteria": [{"name": "f", "score": "hyp{i}"}]}, "criteria[0].score"),
        (
            {"criteria": [{"name": "f", "score": "f{i}"}, {"name": "g", "score": "f{i}"}]},
            "criteria[1].score",
        ),
        ({"criteria": [{"name": "f", "score": "f{i}", "rank": "f{i}"}]}, "criteria[0].rank"),
        # another name of a column cannot be a column the mapping reads as something else
        ({"aliases": {"judge": ["seg"]}}, "aliases.judge"),
        ({"aliases": {"judge": ["src"]}}, "aliases.judge"),
        # a comma in an entry: the page's form would save it as two entries
        ({"metadata": ["a,b"]}, "metadata"),
        ({"skip_values": ["n/a", "none, given"]}, "skip_values"),
        ({"skip_values": [""]}, "skip_values"),
        ({"metadata": ["HITId", " "]}, "metadata"),
        # what no store takes (a 500 on PostgreSQL, or in a preview), named where it is
        ({"item": "seg\ud800"}, "item"),
        ({"aliases": {"judge": ["ju\x00dge"]}}, "aliases.judge[0]"),
        # bounded and typed: a 5,000-digit level was a 500, lists of 100,000 levels and
        # 50,000-character patterns were saved
        (
            {"criteria": [{"name": "f", "score": "f{i}", "levels": "1," + "9" * 5000}]},
            "criteria[0].levels",
        ),
        (
            {"criteria": [{"name": "f", "score": "f{i}", "levels": list(range(102))}]},
            "criteria[0].levels",
        ),
        (
            {"criteria": [{"name": "f", "score": "f{i}", "levels": [1, 10**7]}]},
            "criteria[0].levels",
        ),
        ({"criteria": [{"name": "f", "score": "f{i}" + "x" * 200}]}, "criteria[0].score"),
        ({"criteria": [{"name": "f", "score": ["flu{i}"]}]}, "criteria[0].score"),
        ({"criteria": [{"name": f"c{n}", "score": f"c{n}_{{i}}"} for n in range(51)]}, "criteria"),
        # nor a criterion's column: the page's form writes a criterion as one line
        ({"criteria": [{"name": "f", "score": "flu{i}, likert"}]}, "criteria[0].score"),
        ({"criteria": [{"name": "f", "score": "f{i}", "checks": "c{i}\nx"}]}, "criteria[0].checks"),
    ],
)
def test_mapping_refused(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(MappingError) as err:
        mapping_from_dict(three_slot_mapping(**changes))
    assert err.value.field == field
    assert field in str(err.value)


def test_an_optional_language_round_trips() -> None:
    mapping = mapping_from_dict(three_slot_mapping(language="lang", optional=["lang"]))
    assert mapping.optional == ("lang",)
    assert mapping_from_dict(mapping.to_dict()) == mapping


def test_the_input_the_unit_and_a_lone_output_may_be_the_items_column() -> None:
    """Items keyed by their input (E2E's meaning representation), one task per item, or
    texts rated one per row and keyed by themselves."""
    mapping = mapping_from_dict(three_slot_mapping(input="seg", unit="seg"))
    assert mapping.item == mapping.input == mapping.unit == "seg"
    alone = mapping_from_dict(
        three_slot_mapping(slots=1, item="text", output="text", system="team", input="")
        | {"criteria": [{"name": "fluency", "score": "flu"}]}
    )
    assert alone.item == alone.output == "text"
