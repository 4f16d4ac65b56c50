"""WMT relative-ranking CSV (the WMT13-16 manual evaluation exports).

Columns used: ``segmentId``, ``judgeId`` (or ``judgeID``), ``system{i}Id`` and
``system{i}rank`` for i = 1..k (k = 2..5, as many as the header has). Rank 1 is the
best; ties share a rank. A row with a rank of -1 (a system the judge did not rank) is
skipped and counted. ``trglang`` (when present) is the language of the outputs.
``srclang`` and ``trglang`` may be BCP 47 or ISO 639 codes (``de``, ``deu``, ``cze``),
English language names (``French``, ``English``: WMT13's exports and wmt-trueskill's
samples) or a placeholder for none (``-1``, as wmt-trueskill's ``xml2csv.py`` writes,
or blank): a placeholder leaves the language to the campaign. A file of several
language pairs reuses segment ids across pairs: its items are then named
``<srclang>-<trglang>:<segmentId>``. ``rankingID`` (WMT15-16: the pairwise rows cut
from one five-way ranking share it) is kept with each judgement, and so are, when the
file has them, ``srcIndex`` (the segment's index in the source document), ``documentId``,
``system{i}Number`` and ``srclang`` (as BCP 47); ``-1`` in them (and a blank) means
"not given" and is not kept. Other columns are ignored.

The header shapes of the years (all read alike):

- WMT13-15 five-way (Appraise's ``export_wmt1x_results``, wmt-trueskill's samples):
  ``srclang,trglang,srcIndex,documentId,segmentId,judgeId,system1Number,system1Id,
  ...,system5Number,system5Id,system1rank,...,system5rank``;
- WMT15 pairwise (``xml2csv.py`` of the WMT15 repository): ``srclang,trglang,srcIndex,
  segmentId,judgeID,system1Id,system1rank,system2Id,system2rank,rankingID``;
- WMT16 pairwise (Appraise's ``export_wmt16_results``): the same with ``judgeId``;
- wmt-trueskill's ``xml2csv.py``: ``-1`` languages and ``judgeID``, any column order.

The files carry no output texts and no times.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from annotations.core.outputs import system_label
from annotations.importing.parsers.common import CsvTable, id_bounded, ranked_within, row_language
from common.errors import ImportFileError

MAX_SYSTEMS = 5
#: the judge's column: ``judgeId`` in Appraise's exports, ``judgeID`` in the xml2csv scripts
JUDGE_COLUMNS = ("judgeId", "judgeID")


@dataclass(frozen=True)
class WMTRanking:
    """One ranked row: the segment (the item's id), the judge, the systems and their
    ranks (1 = best), and the outputs' language ("" when the file has no ``trglang``)."""

    line: int
    segment_id: str
    judge_id: str
    systems: tuple[str, ...]
    ranks: tuple[int, ...]
    language: str = ""
    ranking_id: str = ""  # WMT15-16's rankingID ("" when the file has none)
    #: the ranks as written when they were re-ranked within the row (a pair of a
    #: five-way ranking: ranks 1 and 3 become 1 and 2); () when kept as written
    ranks_written: tuple[int, ...] = ()
    source_language: str = ""  # srclang as BCP 47 ("" when not given)
    src_index: str = ""  # srcIndex as written ("" when absent or -1)
    document_id: str = ""  # documentId as written ("" when absent or -1)
    system_numbers: tuple[str, ...] = ()  # system{i}Number as written; () when none given


@dataclass(frozen=True)
class ParsedWMT:
    file: str
    systems_per_row: int
    rankings: list[WMTRanking]
    skipped_unranked: int


# A rank as WMT writes it plainly (others go through ``_rank``). Pairwise rows (WMT15-16)
# keep the ranks of the five-way ranking they were cut from: ranks up to 5 are read in
# any row, and re-ranked within a row of fewer.
_RANK_OF = {str(rank): rank for rank in (-1, *range(1, MAX_SYSTEMS + 1))}


@dataclass(frozen=True, slots=True)
class _Columns:
    """Where the columns used are in a record (None: the file has no such column); only
    these are read (a WMT file has a dozen more per row)."""

    k: int  # systems per row
    judge: str  # the judge column's name
    segment_at: int
    judge_at: int
    ranking_at: int | None
    system_at: list[int]
    rank_at: list[int]
    src_index_at: int | None
    document_at: int | None
    number_at: list[int | None]
    target_at: int | None
    source_at: int | None


def _columns(table: CsvTable) -> _Columns:
    """The header's columns (the required ones checked), and k from the system columns."""
    names = table.names
    judge_column = next((c for c in JUDGE_COLUMNS if c in names), JUDGE_COLUMNS[0])
    table.require(("segmentId", judge_column, "system1Id", "system1rank", "system2Id"))
    table.require(("system2rank",))
    k = 2
    while k < MAX_SYSTEMS and f"system{k + 1}Id" in names:
        k += 1
    table.require(f"system{i}rank" for i in range(1, k + 1))
    index = table.index
    return _Columns(
        k=k,
        judge=judge_column,
        segment_at=index["segmentId"],
        judge_at=index[judge_column],
        ranking_at=index.get("rankingID"),
        system_at=[index[f"system{i}Id"] for i in range(1, k + 1)],
        rank_at=[index[f"system{i}rank"] for i in range(1, k + 1)],
        src_index_at=index.get("srcIndex"),
        document_at=index.get("documentId"),
        number_at=[index.get(f"system{i}Number") for i in range(1, k + 1)],
        target_at=index.get("trglang"),
        source_at=index.get("srclang"),
    )


def _row_languages(
    record: list[str], at: _Columns, languages: dict[str, str], *, file: str, line: int
) -> tuple[str, str]:
    """The row's target and source languages ("" when the file has no such column)."""
    language = source = ""
    if at.target_at is not None:
        language = row_language(
            record[at.target_at], languages, file=file, line=line, field="trglang", names=True
        )
    if at.source_at is not None:
        source = row_language(
            record[at.source_at], languages, file=file, line=line, field="srclang", names=True
        )
    return language, source


def _ranks_unusual(
    record: list[str], rank_at: list[int], *, file: str, line: int
) -> tuple[int, ...]:
    """The row's ranks when some are not written plainly ("01", "+2"); anything but a
    rank from 1 to 5 (or -1: unranked) is an error."""
    ranks = tuple(_rank(record[i].strip(), MAX_SYSTEMS) for i in rank_at)
    if 0 in ranks:
        i = ranks.index(0)
        raise ImportFileError(
            f"'{record[rank_at[i]].strip()}' is not a rank from 1 to {MAX_SYSTEMS} "
            "(or -1 for unranked).",
            file=file,
            line=line,
            field=f"system{i + 1}rank",
        )
    return ranks


def _ranking(
    record: list[str],
    at: _Columns,
    *,
    file: str,
    line: int,
    segment: str,
    judge: str,
    ranks: tuple[int, ...],
    language: str,
    source: str,
) -> WMTRanking:
    """A ranked row (its systems checked: none empty, none twice)."""
    systems = tuple(
        id_bounded(
            system_label(record[i].strip()), "system", file=file, line=line, field=f"system{n}Id"
        )
        for n, i in enumerate(at.system_at, start=1)
    )
    if not all(systems) or len(set(systems)) < at.k:
        _refuse_systems(systems, file=file, line=line)
    written: tuple[int, ...] = ()
    if max(ranks) > at.k:  # a pair cut from a five-way ranking: rank within the row
        written = ranks
        ranks = ranked_within(ranks)
    numbers = tuple(_given(record[i]) if i is not None else "" for i in at.number_at)
    return WMTRanking(
        line=line,
        segment_id=segment,
        judge_id=judge,
        systems=systems,
        ranks=ranks,
        language=language,
        ranking_id=record[at.ranking_at].strip() if at.ranking_at is not None else "",
        ranks_written=written,
        source_language=source,
        src_index=_given(record[at.src_index_at]) if at.src_index_at is not None else "",
        document_id=_given(record[at.document_at]) if at.document_at is not None else "",
        system_numbers=numbers if any(numbers) else (),
    )


def parse_wmt_csv(path: Path) -> ParsedWMT:
    table = CsvTable(path)
    file, header_line = table.file, table.header_line
    at = _columns(table)
    languages: dict[str, str] = {}  # as written -> checked
    rankings: list[WMTRanking] = []
    pairs: set[tuple[str, str]] = set()
    sources: list[str] = []  # per ranking, its srclang as written
    skipped = 0
    for line, record in table.records():
        segment, judge = record[at.segment_at].strip(), record[at.judge_at].strip()
        id_bounded(segment, "item", file=file, line=line, field="segmentId")
        id_bounded(judge, "worker", file=file, line=line, field=at.judge)
        for column, value in (("segmentId", segment), (at.judge, judge)):
            if not value:
                raise ImportFileError("the value is empty.", file=file, line=line, field=column)
        language, source = _row_languages(record, at, languages, file=file, line=line)
        if at.target_at is not None:
            pairs.add((source, language))
        ranks = tuple(_RANK_OF.get(record[i].strip(), 0) for i in at.rank_at)
        if 0 in ranks:  # not written plainly ("01", "+2") or not a rank at all
            ranks = _ranks_unusual(record, at.rank_at, file=file, line=line)
        if -1 in ranks:
            skipped += 1
            continue
        rankings.append(
            _ranking(
                record,
                at,
                file=file,
                line=line,
                segment=segment,
                judge=judge,
                ranks=ranks,
                language=language,
                source=source,
            )
        )
        sources.append(source)
    if not rankings and not skipped:
        raise ImportFileError("the file has a header but no rankings.", file=file, line=header_line)
    if len(pairs) > 1:  # segment ids repeat across language pairs: name items by pair
        rankings = [
            replace(r, segment_id=f"{source or 'und'}-{r.language or 'und'}:{r.segment_id}")
            for r, source in zip(rankings, sources, strict=True)
        ]
    return ParsedWMT(file=file, systems_per_row=at.k, rankings=rankings, skipped_unranked=skipped)


def _given(raw: str) -> str:
    """A cell as written, "" for WMT's "not given" (``-1``, or blank)."""
    value = raw.strip()
    return "" if value in ("-1", "") else value


def _refuse_systems(systems: tuple[str, ...], *, file: str, line: int) -> None:
    """The first empty or repeated system of a row, as an error."""
    seen: list[str] = []
    for i, system in enumerate(systems, start=1):
        if not system:
            raise ImportFileError("the value is empty.", file=file, line=line, field=f"system{i}Id")
        if system in seen:
            raise ImportFileError(
                f"system '{system}' appears twice in the row.",
                file=file,
                line=line,
                field=f"system{i}Id",
            )
        seen.append(system)


def _rank(raw: str, k: int) -> int:
    """A rank from 1 to k, -1 (unranked), or 0 for anything else."""
    try:
        rank = int(raw)
    except ValueError:
        return 0
    return rank if rank == -1 or 1 <= rank <= k else 0
