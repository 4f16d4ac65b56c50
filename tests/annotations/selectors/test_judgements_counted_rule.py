"""Which judgements count is written once, in ``annotations/selectors/judgements.py``.

Other modules ask it (``judgements_counted``, ``scores_counted``, ``counted_q``,
``judgements_left_out``); none spells task or assignment kinds as string literals in a
query, and none reads ``COUNTED_TASK_KINDS`` to build the rule again.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
HOME = REPO / "annotations" / "selectors" / "judgements.py"
LITERAL_KIND = re.compile(r"""(?:task|assignment)__kind(?:__in)?\s*=\s*[\[(]?\s*["']""")


def _sources() -> list[Path]:
    return [
        path
        for app in ("annotations", "ranking", "reports", "common")
        for path in (REPO / app).rglob("*.py")
        if "migrations" not in path.parts and path != HOME
    ]


def test_no_query_spells_a_kind_as_a_string():
    found = [
        f"{path.relative_to(REPO)}:{n}"
        for path in _sources()
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if LITERAL_KIND.search(line)
    ]
    assert found == [], f"use the model's Kind choices or selectors.judgements: {found}"


def test_the_counted_kinds_are_read_only_where_the_rule_lives():
    found = [str(p.relative_to(REPO)) for p in _sources() if "COUNTED_TASK_KINDS" in p.read_text()]
    assert found == [], f"ask annotations.selectors.judgements instead: {found}"
