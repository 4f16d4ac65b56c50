"""An item's input as a worker reads it: an E2E meaning representation
(``name[Cotto], eatType[coffee shop]``) as (attribute, value) pairs. Pure: no Django.

The task page (``selectors.judgements``), the designer's sample page
(``selectors.campaigns``), the standard's box (``templatetags.rankme``) and the datasheet
(``reports.selectors.datasheet``) read inputs this way.
"""

from __future__ import annotations

import re

_MR_PAIR = re.compile(r"\s*([^\[\],]+?)\s*\[([^\]]*)\]\s*(?:,|$)")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def attribute_label(name: str) -> str:
    """``eatType`` -> ``eat type``; ``customer rating`` stays."""
    return _CAMEL.sub(" ", name.strip()).lower()


def mr_attributes(text: str) -> list[tuple[str, str]] | None:
    """An E2E meaning representation as (attribute, value) pairs, or None if it is not one.

    >>> mr_attributes("name[Cotto], eatType[coffee shop]")
    [('name', 'Cotto'), ('eat type', 'coffee shop')]
    """
    text = text.strip()
    pairs: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        match = _MR_PAIR.match(text, pos)
        if match is None or match.end() == pos:
            return None
        pairs.append((attribute_label(match.group(1)), match.group(2).strip()))
        pos = match.end()
    return pairs or None
