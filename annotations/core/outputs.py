"""An output to store, as every file parser reads it and the output writer
(``annotations.services.outputs.outputs_store``) takes it. Pure: no Django."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

#: The longest system label and item id kept (``System.label``, ``Item.external_id``).
SYSTEM_LABEL_MAX = 100
ITEM_ID_MAX = 200
#: ... and the longest worker id and task (unit) id an import keeps (``Worker.external_id``,
#: ``Task.external_id``)
WORKER_ID_MAX = 200
UNIT_ID_MAX = 100


def system_label(text: str) -> str:
    """A system's label as stored and matched: Unicode NFC. "Système" typed with a
    combining accent (NFD, as macOS names files) and with the accented letter are one
    system; they were two, both shown "Système", ranked apart."""
    return unicodedata.normalize("NFC", text)


@dataclass(frozen=True)
class OutputRow:
    """One output to store: the item's external id and input, the system (its label in
    NFC, :func:`system_label`), the text, and the item's attributes as (name, value)
    pairs (``core.slices``); the output's language and its input's, where a file gives
    them."""

    item_id: str
    input: str
    system: str
    text: str
    attributes: tuple[tuple[str, str], ...] = ()
    language: str = ""  # BCP 47, checked; "" = the file's, else the campaign's first
    #: the input's language (BCP 47, checked: a translation's source); "" = the output's
    input_language: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "system", system_label(self.system))
