"""Unicode's bidirectional controls, defined once for the pages and the exports. Pure.

The embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) reorder the text
that follows them ("Trojan Source", CVE-2021-42574): HTML pages drop them
(``common.middleware.DropBidiControlsMiddleware``) and so do the exports read as text
(LaTeX, Markdown, plain text: ``annotations.core.export_safety``); the data exports (CSV,
JSONL) keep every text exactly, so that they re-import as they were.
"""

from __future__ import annotations

#: the code points of the bidirectional embeddings, overrides and isolates
BIDI_CONTROLS: tuple[int, ...] = (*range(0x202A, 0x202F), *range(0x2066, 0x206A))

#: the same, as the body of a regular-expression character class
BIDI_CLASS = "".join(f"\\u{cp:04x}" for cp in BIDI_CONTROLS)
