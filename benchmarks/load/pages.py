"""What the load benchmark's crowd worker reads from the pages and posts back, apart from
Locust (which patches the standard library when imported): the consent form's signed
identity, the task form's action, its score fields and content-check boxes."""

from __future__ import annotations

import random
import re

IDENTITY = re.compile(r'name="identity"\s+value="([^"]+)"|value="([^"]+)"\s+name="identity"')
ACTION = re.compile(r'<form[^>]*action="([^"]*/task/[0-9]+/)"')
SCORE = re.compile(r'name="score_([0-9]+)"')
#: The assignment a task form's action posts to.
ASSIGNMENT = re.compile(r"/task/([0-9]+)/$")
#: A content-check box (``check_<slot>``): a criterion with content checks wants at least
#: one ticked per output, as a worker does.
CHECK = re.compile(r'<input[^>]*name="(check_[0-9]+)"[^>]*value="([^"]+)"')


def unescape(text: str) -> str:
    """An attribute's value as the browser reads it."""
    return text.replace("&amp;", "&").replace("&quot;", '"').replace("&#x27;", "'")


def answers(page: str, slots: list[int]) -> dict[str, str]:
    """What a worker posts for the task page ``page``: a score per slot and, where the
    criterion asks for content checks, one statement ticked per output."""
    posted = {f"score_{s}": str(random.randint(1, 200)) for s in slots}
    for name, value in CHECK.findall(page):
        posted.setdefault(name, value)
    return posted


#: The page's static files (style sheets, scripts), which a new participant's browser
#: loads once (then from its cache: their names carry a hash).
STATIC = re.compile(r'(?:href|src)="(/static/[^"]+)"')
#: The task form's autosave address (``static/js/autosave.js`` posts the form there).
DRAFT_URL = re.compile(r'data-draft-url="([^"]+)"')
#: The last page of a session that ended as planned (every other page without a task
#: form, screened out or stopped, means the hand-out found nothing or refused).
DONE = 'id="done-title"'

#: ``static/js/autosave.js``: a change reaches the server at most this long after it is
#: made (each change is kept in the browser at once; that costs the server nothing).
AUTOSAVE_EVERY = 15.0


def draft_times(
    changes: list[float], think: float, every: float = AUTOSAVE_EVERY
) -> list[tuple[float, int]]:
    """When the task page's autosave posts a draft, for a worker who changes answers at
    ``changes`` (seconds after the page arrived, ascending) and submits at ``think``:
    (time, how many of the changes it carries), as ``static/js/autosave.js`` decides (the
    first change not yet sent sets a save ``every`` seconds later; later changes ride
    along). A save not due by the submit is never sent (the submit carries the answers;
    a page hidden or left before its submit sends one at once, which this load never
    does)."""
    sent: list[tuple[float, int]] = []
    due: float | None = None
    for n, change in enumerate(changes):
        if due is not None and due <= change:
            sent.append((due, n))
            due = None
        if due is None:
            due = change + every
    if due is not None and due <= think:
        sent.append((due, len(changes)))
    return sent
