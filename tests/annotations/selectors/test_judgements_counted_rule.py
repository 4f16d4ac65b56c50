"""Which judgements count is written once, in ``annotations/selectors/judgements.py``.

Other modules ask it (``judgements_counted``, ``scores_counted``, ``counted_q``,
``judgements_left_out``, ``regular_q``, ``score_counts``); none spells task or assignment
kinds as string literals in a query, none reads ``COUNTED_TASK_KINDS`` to build the rule
again, and none names the regular role of a score or task output itself.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.db.models import Count

from annotations.models import Judgement, JudgementScore, TaskOutput
from annotations.selectors.judgements import regular_q, score_counts, scores_counted
from tests.factories import WorkerFactory, judgement_of, task_with_outputs

REPO = Path(__file__).resolve().parents[3]
HOME = REPO / "annotations" / "selectors" / "judgements.py"
LITERAL_KIND = re.compile(r"""(?:task|assignment)__kind(?:__in)?\s*=\s*[\[(]?\s*["']""")
REGULAR_ROLE = re.compile(r"""Role\.REGULAR|role\w*\s*(?:==|!=|=)\s*["']regular["']""")
# Where the regular role may be named besides the rule's home, and why.
REGULAR_ROLE_ELSEWHERE = {
    # the field's default and the check constraint of its choices
    "annotations/models/judgements.py": "the default role of a score",
    "annotations/models/tasks.py": "the role's choices, default and constraint",
    # an attention check's own computation: its degraded copy against the originals it
    # was made from, not which scores count
    "annotations/services/quality.py": "an attention check's originals",
}


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


def test_the_regular_role_is_named_only_where_the_rule_lives():
    found = sorted(
        {
            str(path.relative_to(REPO))
            for path in _sources()
            if REGULAR_ROLE.search(path.read_text())
        }
        - set(REGULAR_ROLE_ELSEWHERE)
    )
    assert found == [], f"ask regular_q or score_counts (selectors.judgements): {found}"


@pytest.mark.django_db
def test_regular_q_and_score_counts_keep_the_same_scores_and_outputs():
    task = task_with_outputs()
    judgement = judgement_of(task, WorkerFactory(campaign=task.campaign), [1.0, 2.0, 3.0])
    # the third output as an attention check's degraded copy, in the task and its score
    TaskOutput.objects.filter(task=task, slot=2).update(role=TaskOutput.Role.DEGRADED)
    JudgementScore.objects.filter(judgement=judgement, slot=2).update(role=TaskOutput.Role.DEGRADED)
    scores = list(JudgementScore.objects.filter(judgement=judgement))
    kept = {s.pk for s in scores if score_counts(role=s.role)}
    assert len(kept) == 2
    assert set(JudgementScore.objects.filter(regular_q()).values_list("pk", flat=True)) == kept
    assert set(scores_counted(criterion=task.criterion).values_list("pk", flat=True)) == kept
    assert TaskOutput.objects.filter(regular_q(), task=task).count() == 2
    counted = Judgement.objects.annotate(n=Count("scores", filter=regular_q(prefix="scores__")))
    assert counted.get(pk=judgement.pk).n == 2
