"""What the load benchmark's crowd worker reads from the pages and posts back, apart from
Locust (which patches the standard library when imported): the consent form's signed
identity, the task form's action, its score fields and content-check boxes."""

from __future__ import annotations

import random
import re

IDENTITY = re.compile(r'name="identity"\s+value="([^"]+)"|value="([^"]+)"\s+name="identity"')
ACTION = re.compile(r'<form[^>]*action="([^"]*/task/[0-9]+/)"')
SCORE = re.compile(r'name="score_([0-9]+)"')
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
