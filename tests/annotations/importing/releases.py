"""Small files in the shape of public releases, and their import through a mapping."""

from __future__ import annotations

FLUENCY = {
    "format": "csv",
    "worker": "worker",
    "item": "item",
    "slots": 1,
    "system": "system",
    "output": "output",
    "criteria": [{"name": "fluency", "score": "score", "scale": "likert"}],
}


ROWS = [
    ["worker", "item", "system", "output", "score"],
    ["w1", "1", "A", "hello", "3"],
    ["w2", "1", "A", "hello world", "4"],
]


# 6. A constant system; the 'aggregate' worker said ------------------------------------

HANNA_LIKE = [
    ["story_id", "worker", "story", "relevance"],
    ["s1", "u1", "Once upon", "4"],
    ["s2", "u1", "A dragon", "2"],
]
