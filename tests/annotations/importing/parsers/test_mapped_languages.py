"""A per-row language column cannot be a slot pattern."""

from __future__ import annotations

import pytest

from annotations.importing.parsers.mapped.mapping import mapping_from_dict

pytestmark = pytest.mark.django_db


MAPPING = {
    "format": "csv",
    "worker": "worker",
    "item": "item",
    "language": "lang",
    "system": "sys{i}",
    "output": "out{i}",
    "slots": 2,
    "criteria": [{"name": "fluency", "score": "fluency{i}"}],
}


def test_a_per_row_language_column_cannot_be_a_slot_pattern() -> None:
    with pytest.raises(ValueError, match="per-row column"):
        mapping_from_dict({**MAPPING, "language": "lang{i}"})
