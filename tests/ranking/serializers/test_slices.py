"""The slices API's answer (ranking/serializers/slices.py): a null cell where a slice's
run does not rank a system."""

from __future__ import annotations

from ranking.selectors.runs import Row
from ranking.serializers.slices import SlicesSerializer


def test_a_system_a_slice_does_not_rank_gets_a_null_cell() -> None:
    row = Row(system="s0", value=0.5, spread=0.1, rank_lo=1, rank_hi=2, cluster=None, comparisons=9)
    data = SlicesSerializer(
        {
            "criterion": "quality",
            "by": "language",
            "slices": [],
            "not_ranked": ["en"],
            "systems": [{"system": "s0", "by_slice": [row, None]}],
        }
    ).data
    assert data["systems"] == [
        {
            "system": "s0",
            "by_slice": [{"value": 0.5, "rank_lo": 1, "rank_hi": 2, "cluster": None}, None],
        }
    ]
