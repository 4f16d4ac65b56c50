"""Where a mapping takes the system from: a column or a constant, not both and not neither."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_a_constant_and_a_column_system_together_are_refused():
    from annotations.importing.parsers.mapped.mapping import MappingError, mapping_from_dict

    with pytest.raises(MappingError) as err:
        mapping_from_dict(
            {
                "format": "csv",
                "item": "i",
                "system": "s",
                "system_value": "x",
                "criteria": [{"name": "q", "score": "q"}],
            }
        )
    assert err.value.field == "system_value"
    with pytest.raises(MappingError) as err:
        mapping_from_dict({"format": "csv", "item": "i", "criteria": [{"name": "q", "score": "q"}]})
    assert err.value.field == "system"
