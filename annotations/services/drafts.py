"""Drafts: the answers a worker has typed so far on a page, kept on the assignment
(autosave) so that a refresh or another tab pre-fills the page. A draft is never a
judgement: the submit checks and records the answers on its own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from annotations.models import Assignment

# Form fields a draft may hold: a score, a slider's marks, a tie, a content check, each
# of one slot, prefixed ``c<criterion id>-`` on a set-up 1 page.
_DRAFT_FIELD = re.compile(r"^(c[0-9]{1,12}-)?(score|touched|tie|keep|check)_[0-9]{1,4}$")
_DRAFT_MAX_FIELDS = 400
_DRAFT_MAX_VALUE = 40


def draft_clean(answers: Mapping[str, Sequence[str]]) -> dict[str, str | list[str]]:
    """The answer fields of a posted form, as stored in ``Assignment.draft``.

    Only answer fields are kept (no tokens, no flags), each value cut to a few dozen
    characters (a draft only pre-fills the page: the submit checks everything again and
    a cut value is shown, never recorded); content checks keep their list.
    """
    clean: dict[str, str | list[str]] = {}
    for name, values in answers.items():
        if len(clean) >= _DRAFT_MAX_FIELDS or not _DRAFT_FIELD.match(name):
            continue
        kept = [str(v)[:_DRAFT_MAX_VALUE] for v in values][:10]
        clean[name] = kept if "check_" in name else (kept[-1] if kept else "")
    return clean


def assignment_draft_save(
    *, worker_id: int, assignment_id: int, answers: Mapping[str, Sequence[str]]
) -> bool:
    """Keep the answers typed so far on the worker's assignment's page (autosave).

    Returns False, writing nothing, when the assignment is not this worker's or already
    submitted (from this or another tab). An expired one still takes drafts: its worker
    may still submit it (a late answer counts while the task has a free place), so the
    page must not be told the task is done. One conditional
    ``UPDATE`` (autosave is a frequent request: a worker's browser sends one at most
    15 s after a change, or soon after each pause in typing where it keeps no copy of
    its own): the database locks the row and checks the state
    again on its latest version, so a draft arriving after the submit never lands on a
    submitted assignment.
    """
    return bool(
        Assignment.objects.filter(
            pk=assignment_id,
            worker_id=worker_id,
            state__in=(Assignment.State.ACTIVE, Assignment.State.EXPIRED),
        ).update(draft=draft_clean(answers))
    )
