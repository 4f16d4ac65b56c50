"""The raw bulk writer of large imports: ids allocated first, then multi-row
``INSERT`` statements on SQLite and one streamed ``COPY`` per table on PostgreSQL, no
model instances (imports are linear).

Where the time goes (100,000 WMT rows = 1.3 million rows in 7 tables):
on SQLite, index maintenance and the per-row cost of the statement; on PostgreSQL,
index maintenance during ``COPY`` and, at commit, one foreign-key trigger per row and
foreign key, about 3 microseconds each (``SET CONSTRAINTS ALL IMMEDIATE`` only moves
them to the end of each ``COPY``, the total is the same). Copied columns have no
foreign-key check (COPIES in annotations.models): 2.0 million checks instead of 3.1.
"""

from __future__ import annotations

import csv
import functools
import gc
import io
import itertools
import json
import logging
import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast

from django.db import DatabaseError, connections, models, router, transaction
from django.utils import timezone

logger = logging.getLogger(__name__)

BATCH_SIZE = 2000
# Rows per executemany call of the raw bulk inserter (and per progress report).
INSERT_CHUNK = 5000
# PostgreSQL: a table that an import (or a campaign's design) has grown by at least
# autovacuum's threshold for analysing, 50 rows plus 10% of the rows its statistics count
# (``autovacuum_analyze_threshold``, ``autovacuum_analyze_scale_factor``), is analysed as
# soon as the writing transaction commits. Until autovacuum gets to it (a minute or more;
# never where it is off), the planner takes the table for the size it was: the first
# ranking of a large WMT file read its scores by nested loops (1.2 s of a 25 s rank
# command), and after importing the released E2E ratings (7,218 judgements, under the
# 10,000 rows that used to be the rule) a run's summary of its inputs took 0.74 s
# instead of 14 ms and each worker's read of the scores 0.59 s instead of 0.09 s.
ANALYZE_BASE_ROWS = 50
ANALYZE_SCALE = 0.1


# --------------------------------------------------------------------------------------
# The raw bulk inserter


def _allocate_ids(model: type[models.Model], n: int) -> list[int]:
    """``n`` fresh primary keys of ``model``'s table (inside the writing transaction).

    PostgreSQL draws them from the column's sequence; SQLite, whose writing transaction
    holds the database's write lock from its start (``transaction_mode`` IMMEDIATE),
    continues after the highest id it ever gave (``sqlite_sequence``).
    """
    connection = connections[router.db_for_write(model)]
    table = model._meta.db_table
    pk = str(model._meta.pk.column)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                [table, pk, n],
            )
            return sorted(row[0] for row in cursor.fetchall())
        cursor.execute(
            f"SELECT COALESCE((SELECT MAX({connection.ops.quote_name(pk)}) FROM {table}), 0), "
            "COALESCE((SELECT seq FROM sqlite_sequence WHERE name = %s), 0)",
            [table],
        )
        highest, seq = cursor.fetchone()
        start = max(highest, seq) + 1
    return list(range(start, start + n))


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a large import runs.

    An import makes millions of small objects (rows, tuples) and no reference cycles;
    the collector would walk all of them again and again as they pile up. Reference
    counting still frees everything. The collector is turned back on only if it was on.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def bulk_insert(
    *,
    model: type[models.Model],
    fields: Sequence[str],
    rows: Sequence[Sequence[Any]],
    progress: Callable[[int], None] | None = None,
    ids: bool = True,
) -> list[int]:
    """Insert ``rows`` (tuples of the values of ``fields``, foreign keys as ids) and
    return their new ids, in order. Other fields take their model default.

    ``ids=False``: the caller needs no ids (rows nothing refers to, such as scores);
    PostgreSQL then numbers the rows itself as they arrive instead of handing out the
    ids first (drawing a million ids one by one costs seconds), and ``[]`` is returned.

    The ORM's ``bulk_create`` builds a model instance per row and prepares every value
    through its field: for the million rows of a large WMT file that is most of the
    import's time. Here ids are allocated first, values of the few field types used
    are adapted once per distinct value, and the rows go in chunks: on SQLite as
    ``INSERT`` statements of about a hundred rows each (constant columns written into
    the statement), on PostgreSQL as one ``COPY`` fed while the chunks are built.
    Two statements per chunk on SQLite, one ``COPY`` per call on PostgreSQL, whatever
    the number of rows. Call inside the writing transaction. ``progress(n)`` after
    each chunk of n rows.
    """
    if not rows:
        return []
    connection = connections[router.db_for_write(model)]
    if connection.vendor not in ("sqlite", "postgresql"):  # pragma: no cover
        objs = model._default_manager.bulk_create(
            [model(**dict(zip(fields, row, strict=True))) for row in rows],
            batch_size=BATCH_SIZE,
        )
        return [o.pk for o in objs]
    assert connection.in_atomic_block, "bulk_insert runs inside the writing transaction"
    meta = model._meta
    named = [cast("models.Field[Any, Any]", meta.get_field(name)) for name in fields]
    rest: list[models.Field[Any, Any]] = [
        f for f in meta.concrete_fields if not f.primary_key and f.name not in fields
    ]
    constants = _constants(rest, connection)
    adapters = _adapters(named, connection)
    # PostgreSQL numbers rows nobody needs the ids of itself (the column's default).
    drawn = ids or connection.vendor != "postgresql"
    columns = [str(f.column) for f in ((meta.pk,) if drawn else ()) + (*named, *rest)]
    quoted = ", ".join(connection.ops.quote_name(c) for c in columns)
    table = connection.ops.quote_name(meta.db_table)
    # SQLite: constant columns go into the statement as literals, so that a row's
    # parameters are (pk, *row) and nothing is appended per row.
    literals = [_sql_literal(c) for c in constants]
    inline = connection.vendor == "sqlite" and None not in literals
    values = ["%s"] * (1 + len(named)) + (
        cast("list[str]", literals) if inline else ["%s"] * len(constants)
    )
    new_ids = _allocate_ids(model, len(rows)) if drawn else []
    chunks = _chunks(
        rows,
        new_ids,
        pairs=[(i, adapt) for i, adapt in enumerate(adapters) if adapt is not None],
        drawn=drawn,
        suffix=() if inline else tuple(constants),
        progress=progress,
    )
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            nullable = [str(f.column) for f in (*named, *rest) if f.null]
            _copy(connection, cursor, _copy_sql(connection, table, quoted, nullable), chunks)
            analyze_when_grown(model=model, rows=len(rows))
        else:
            width = 1 + len(named) + (0 if inline else len(constants))
            _insert_sqlite(cursor, f"INSERT INTO {table} ({quoted}) VALUES", values, width, chunks)
    return new_ids if ids else []


def _constants(rest: list[models.Field[Any, Any]], connection: Any) -> list[Any]:
    """The values of the fields a bulk insert is not given: their defaults (now, for a
    time set on creation), as the database takes them."""
    now = timezone.now()
    return [
        json.dumps(f.get_default(), cls=f.encoder)
        if isinstance(f, models.JSONField) and connection.vendor == "postgresql"
        else f.get_db_prep_save(
            now
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
            else f.get_default(),
            connection=connection,
        )
        for f in rest
    ]


def _adapters(
    named: list[models.Field[Any, Any]], connection: Any
) -> list[Callable[[Any], Any] | None]:
    """Per given field, what turns a value into what the database takes (None: as is)."""
    adapters: list[Callable[[Any], Any] | None] = []
    for f in named:
        if isinstance(f, models.DateTimeField):
            # Imported judgements share few distinct times: adapt each once.
            adapters.append(
                functools.lru_cache(maxsize=4096)(connection.ops.adapt_datetimefield_value)
            )
        elif isinstance(f, models.JSONField):
            adapters.append(_json_adapter(f, connection))
        else:
            adapters.append(None)
    return adapters


def _chunks(
    rows: Sequence[Sequence[Any]],
    new_ids: list[int],
    *,
    pairs: list[tuple[int, Callable[[Any], Any]]],
    drawn: bool,
    suffix: tuple[Any, ...],
    progress: Callable[[int], None] | None,
) -> Iterator[list[tuple[Any, ...]]]:
    """The parameters of the rows, chunk by chunk; progress after each chunk."""
    for start in range(0, len(rows), INSERT_CHUNK):
        chunk = rows[start : start + INSERT_CHUNK]
        pks = new_ids[start : start + INSERT_CHUNK]
        if pairs:
            chunk = [_adapted(row, pairs) for row in chunk]
        if not drawn:
            params = [(*row, *suffix) for row in chunk] if suffix else list(map(tuple, chunk))
        elif suffix:
            params = [(pk, *row, *suffix) for pk, row in zip(pks, chunk, strict=True)]
        else:
            params = [(pk, *row) for pk, row in zip(pks, chunk, strict=True)]
        yield params
        if progress is not None:
            progress(len(params))


def _copy_sql(connection: Any, table: str, quoted: str, nullable: list[str]) -> str:
    """COPY in CSV form: text is quoted, so "" is an empty text; in nullable columns a
    quoted "" (how the csv module writes None) is NULL. JSON goes as its text."""
    return "COPY {} ({}) FROM STDIN WITH (FORMAT csv{})".format(
        table,
        quoted,
        ", FORCE_NULL ({})".format(", ".join(connection.ops.quote_name(c) for c in nullable))
        if nullable
        else "",
    )


def _copy(
    connection: Any, cursor: Any, copy_sql: str, chunks: Iterator[list[tuple[Any, ...]]]
) -> None:
    """PostgreSQL: one COPY per table, fed as it is built: the server parses and indexes
    rows while the next chunk is prepared (psycopg2's executemany would be a round trip
    per row). The raw cursor's errors are Django's, as every other query's: a dropped
    connection is an OperationalError the job retries."""
    with connection.wrap_database_errors:
        cursor.cursor.copy_expert(copy_sql, _CsvStream(chunks), size=1 << 20)


def _insert_sqlite(
    cursor: Any,
    insert: str,
    values: list[str],
    width: int,
    chunks: Iterator[list[tuple[Any, ...]]],
) -> None:
    """SQLite: ``insert`` (``INSERT INTO table (columns) VALUES``) of the chunks, many
    rows per statement; ``values`` are a row's placeholders and literals, ``width`` the
    number of its parameters."""
    # Index pages of a large import stay in memory (the default cache is 2 MB).
    cursor.execute("PRAGMA cache_size = -262144")
    # Many rows per INSERT (within the 999 parameters of older SQLite builds):
    # SQLite then runs one statement per hundred rows, not one per row.
    per = max(1, 999 // width)
    row_sql = "({})".format(", ".join(values))
    sql = f"{insert} {row_sql}"
    many_sql = f"{insert} " + ", ".join([row_sql] * per)
    for params in chunks:
        # Two statements per chunk whatever its size (either may have no rows):
        # the whole groups of rows, then the rows left over.
        full = len(params) // per * per
        flat = list(itertools.chain.from_iterable(params[:full]))
        step = per * width
        cursor.executemany(many_sql, [flat[i : i + step] for i in range(0, full * width, step)])
        cursor.executemany(sql, params[full:])


def analyze_when_grown(*, model: type[models.Model], rows: int) -> None:
    """Once the writing transaction commits (at once outside one), ``ANALYZE`` the
    table of ``model``, to which it wrote ``rows`` new rows, when it has grown by
    autovacuum's threshold: ``ANALYZE_BASE_ROWS`` plus ``ANALYZE_SCALE`` of the rows its
    statistics count (PostgreSQL; SQLite plans without them). Call after writing rows in
    bulk. A transaction's writes to one table are summed and decided once, at commit,
    together with the changes PostgreSQL counts since the table's last ``ANALYZE``
    (committed trickles such as workers' submissions, where autovacuum is slow or off)."""
    connection = connections[router.db_for_write(model)]
    if connection.vendor != "postgresql" or rows <= 0:
        return
    table = connection.ops.quote_name(model._meta.db_table)
    if not connection.in_atomic_block:
        _analyze_if_grown(connection, table, rows)
        return
    # PostgreSQL 15 and later: have this transaction's counts reported as it commits, so
    # that the decision reads them among the table's changes (and does not add them twice)
    flushed = getattr(connection, "pg_version", 0) >= 150000
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT txid_current(), pg_stat_force_next_flush()"
            if flushed
            else "SELECT txid_current(), NULL"
        )
        txid = cursor.fetchone()[0]
    # This connection's open transaction's rows per table (a connection is one thread's);
    # entries of transactions that ended without committing are dropped here.
    grown: dict[tuple[int, str], int] = connection.__dict__.setdefault("humaneval_grown", {})
    for stale in [key for key in grown if key[0] != txid]:
        del grown[stale]
    key = (txid, table)
    if key in grown:
        grown[key] += rows
        return
    grown[key] = rows
    transaction.on_commit(
        functools.partial(_grown_committed, connection, key, flushed), using=connection.alias
    )


def _grown_committed(connection: Any, key: tuple[int, str], flushed: bool) -> None:
    """After commit: decide once for a table on the rows its transaction wrote to it
    (already among the table's counted changes when ``flushed``)."""
    rows = connection.__dict__.get("humaneval_grown", {}).pop(key, 0)
    _analyze_if_grown(connection, key[1], rows, among=flushed)


def _analyze_if_grown(connection: Any, table: str, rows: int, *, among: bool = False) -> None:
    """``ANALYZE`` ``table`` when its growth passes the threshold of
    :func:`analyze_when_grown` (after commit): ``rows`` written plus the changes
    PostgreSQL counts since its last ``ANALYZE``, or, ``among``: the rows are among
    those changes (reported at commit), so the larger of the two. Statistics only: a
    failure (a role that does not own the table) is logged, and autovacuum will analyse
    the table later."""
    try:
        with connection.cursor() as cursor:
            # reltuples: the rows counted at the last ANALYZE (-1: never analysed)
            cursor.execute(
                "SELECT c.reltuples, COALESCE(s.n_mod_since_analyze, 0) FROM pg_class c "
                "LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.oid = %s::regclass",
                [table],
            )
            found = cursor.fetchone()
            counted, changed = (max(float(found[0]), 0.0), int(found[1])) if found else (0.0, 0)
            grown = max(rows, changed) if among else rows + changed
            if grown >= ANALYZE_BASE_ROWS + ANALYZE_SCALE * counted:
                cursor.execute(f"ANALYZE {table}")
    except DatabaseError:
        logger.warning("ANALYZE %s after a bulk write failed", table, exc_info=True)


def _adapted(row: Sequence[Any], pairs: list[tuple[int, Callable[[Any], Any]]]) -> list[Any]:
    values = list(row)
    for i, adapt in pairs:
        values[i] = adapt(values[i])
    return values


def _sql_literal(value: Any) -> str | None:
    """A constant as an SQL literal, or None when it must be a parameter."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int | float) and math.isfinite(value):
        return repr(value)
    # Django's SQLite cursor rewrites "%s" and "%%": a text with "%" stays a parameter.
    if isinstance(value, str) and "\x00" not in value and "%" not in value:
        return "'" + value.replace("'", "''") + "'"
    return None


class _CsvStream(io.TextIOBase):
    """A read-only text stream of CSV lines made lazily from chunks of rows (for COPY)."""

    def __init__(self, chunks: Iterator[list[tuple[Any, ...]]]) -> None:
        self._chunks = chunks
        self._buffer = ""

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> str:
        while size is None or size < 0 or len(self._buffer) < size:
            params = next(self._chunks, None)
            if params is None:
                break
            out = io.StringIO()
            csv.writer(out, quoting=csv.QUOTE_NONNUMERIC).writerows(params)
            self._buffer += out.getvalue()
        if size is None or size < 0:
            size = len(self._buffer)
        data, self._buffer = self._buffer[:size], self._buffer[size:]
        return data


def _json_adapter(f: models.JSONField[Any], connection: Any) -> Callable[[Any], Any]:
    """A JSON field's value as the database takes it, adapted once per distinct object:
    rows often share one value (every judgement of k outputs has the same display
    order), and the memo keeps each object alive, so its id cannot be reused."""
    memo: dict[int, tuple[Any, Any]] = {}

    def adapt(value: Any) -> Any:
        hit = memo.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        if connection.vendor == "postgresql":  # COPY takes JSON as text
            adapted = json.dumps(value, cls=f.encoder)
        else:
            adapted = connection.ops.adapt_json_value(value, f.encoder)
        if isinstance(value, list | dict) and len(memo) < 4096:
            memo[id(value)] = (value, adapted)
        return adapted

    return adapt
