"""An output to store, as every file parser reads it and the output writer
(``annotations.services.outputs.outputs_store``) takes it. Pure: no Django."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OutputRow:
    """One output to store: the item's external id and input, the system, the text, and
    the item's attributes as (name, value) pairs (``core.slices``)."""

    item_id: str
    input: str
    system: str
    text: str
    attributes: tuple[tuple[str, str], ...] = ()
    language: str = ""  # BCP 47, checked; "" = the file's, else the campaign's first
