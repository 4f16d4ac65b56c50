"""A mapping without slot numbers has one slot."""

from __future__ import annotations

import pytest

from annotations.importing.parsers.mapped.mapping import MappingError, mapping_from_dict

pytestmark = pytest.mark.django_db


MAPPING = {
    "format": "csv",
    "worker": "_worker_id",
    "unit": "_unit_id",
    "item": "mr_id",
    "input": "mr",
    "slots": 1,
    "system": "team",
    "output": "ref",
    "criteria": [{"name": "quality", "score": "quality", "scale": "likert"}],
}


def test_a_mapping_without_slot_numbers_has_one_slot() -> None:
    mapping = mapping_from_dict({**MAPPING, "slots": 0})
    assert mapping.system == "team"
    with pytest.raises(MappingError) as err:
        mapping_from_dict({**MAPPING, "slots": 3})
    assert err.value.field == "system" and "slots to 1" in str(err.value)
