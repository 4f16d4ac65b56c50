"""WMT relative-ranking CSV (the WMT13-16 manual evaluation exports).

Columns used: ``segmentId``, ``judgeId``, ``system{i}Id`` and ``system{i}rank`` for
i = 1..k (k = 2..5, as many as the header has). Rank 1 is the best; ties share a rank.
A row with a rank of -1 (a system the judge did not rank) is skipped and counted.
Other columns (``srclang``, ``documentId``, ...) are ignored.

The files carry no output texts and no times.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from annotations.errors import ImportFileError
from annotations.importers.common import CsvTable

MAX_SYSTEMS = 5


@dataclass(frozen=True)
class WMTRanking:
    """One ranked row: the segment, the judge, the systems and their ranks (1 = best)."""

    line: int
    segment_id: str
    judge_id: str
    systems: tuple[str, ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True)
class ParsedWMT:
    file: str
    systems_per_row: int
    rankings: list[WMTRanking]
    skipped_unranked: int


def parse_wmt_csv(path: Path) -> ParsedWMT:
    table = CsvTable(path)
    file, header_line, names = table.file, table.header_line, table.names
    table.require(("segmentId", "judgeId", "system1Id", "system1rank", "system2Id", "system2rank"))
    k = 2
    while k < MAX_SYSTEMS and f"system{k + 1}Id" in names:
        k += 1
    table.require(f"system{i}rank" for i in range(1, k + 1))
    # Only the columns used are read (a WMT file has a dozen more per row).
    used = ["segmentId", "judgeId"]
    used += [f"system{i}{part}" for i in range(1, k + 1) for part in ("Id", "rank")]
    index = [(name, table.index[name]) for name in used]
    rankings: list[WMTRanking] = []
    skipped = 0
    for line, record in table.records():
        values = {name: record[i].strip() for name, i in index}
        for column in ("segmentId", "judgeId"):
            if not values[column]:
                raise ImportFileError("the value is empty.", file=file, line=line, field=column)
        ranks: list[int] = []
        for i in range(1, k + 1):
            raw = values[f"system{i}rank"]
            try:
                rank = int(raw)
            except ValueError:
                rank = 0
            if rank != -1 and not 1 <= rank <= k:
                raise ImportFileError(
                    f"'{raw}' is not a rank from 1 to {k} (or -1 for unranked).",
                    file=file,
                    line=line,
                    field=f"system{i}rank",
                )
            ranks.append(rank)
        if -1 in ranks:
            skipped += 1
            continue
        systems: list[str] = []
        for i in range(1, k + 1):
            system = values[f"system{i}Id"]
            if not system:
                raise ImportFileError(
                    "the value is empty.", file=file, line=line, field=f"system{i}Id"
                )
            if system in systems:
                raise ImportFileError(
                    f"system '{system}' appears twice in the row.",
                    file=file,
                    line=line,
                    field=f"system{i}Id",
                )
            systems.append(system)
        rankings.append(
            WMTRanking(
                line=line,
                segment_id=values["segmentId"],
                judge_id=values["judgeId"],
                systems=tuple(systems),
                ranks=tuple(ranks),
            )
        )
    if not rankings and not skipped:
        raise ImportFileError("the file has a header but no rankings.", file=file, line=header_line)
    return ParsedWMT(file=file, systems_per_row=k, rankings=rankings, skipped_unranked=skipped)
