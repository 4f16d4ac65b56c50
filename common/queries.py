"""Query helpers every app may use.

The prepared queries (:class:`PreparedQuery`, :class:`PreparedUpdate`,
:class:`PreparedInsert`) compile a queryset once per connection and then run its SQL with
new parameters, which the worker hot path needs (the load benchmark). To do so they use
Django internals that are not public API: ``SQLCompiler.as_sql`` / ``select`` /
``klass_info`` / ``annotation_col_map`` / ``has_composite_fields`` / ``get_converters``,
``get_related_populators`` and the insert compiler's ``assemble_as_sql``. They were
verified on the Django minor versions in :data:`VERIFIED_DJANGO`; pyproject.toml pins
Django to them, importing this module on any other version raises at start-up, and
``tests/common/test_queries.py`` checks every prepared query against the plain ORM's
results and SQL. To move to a new Django: run those tests on it, then add its version.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import re
import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import chain
from typing import Any, Generic, TypeVar

import django
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import (
    IntegrityError,
    InterfaceError,
    OperationalError,
    connections,
    models,
    transaction,
)
from django.db.models.query import (
    FlatValuesListIterable,
    ModelIterable,
    ValuesListIterable,
    get_related_populators,
)
from django.db.models.sql import InsertQuery, UpdateQuery
from django.db.transaction import TransactionManagementError

from common.errors import DomainError

T = TypeVar("T")
M = TypeVar("M", bound=models.Model)

#: Django (major, minor) versions whose internals this module was verified on.
VERIFIED_DJANGO: frozenset[tuple[int, int]] = frozenset({(5, 2)})


def django_verified(version: tuple[int, ...] = django.VERSION[:2]) -> None:
    """Raise unless ``version`` is one whose internals the prepared queries were verified on."""
    if tuple(version[:2]) not in VERIFIED_DJANGO:
        raise ImproperlyConfigured(
            f"common/queries.py uses Django internals verified on "
            f"{', '.join(f'{a}.{b}' for a, b in sorted(VERIFIED_DJANGO))}, not on "
            f"{version[0]}.{version[1]}: run tests/common/test_queries.py on it, then add it "
            "to VERIFIED_DJANGO"
        )


django_verified()

#: Errors of a database that dropped the connection, restarted or cannot be reached: they
#: say nothing about the work that met them, so background work (ranking chunks, import
#: jobs) is given back and retried, never failed, for one of them.
TRANSIENT_DATABASE_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError)


# The one database this project uses.
_ALIAS = "default"


def connection_lost() -> bool:
    """Whether this thread's database connection was closed under it (terminated by the
    server, a restart, a failover). psycopg2 may then raise a ``SystemError`` or another
    non-database error, not one of ``TRANSIENT_DATABASE_ERRORS``."""
    raw = connections[_ALIAS].connection
    return raw is not None and bool(getattr(raw, "closed", 0))


def transient_error(exc: BaseException) -> BaseException | None:
    """What background work retries ``exc`` as, or None when it is the work's own
    failure: ``exc`` itself when it is one of ``TRANSIENT_DATABASE_ERRORS``, an
    ``OperationalError`` when the connection was closed under another error
    (:func:`connection_lost`: the failure could not be written anyway), caused by ``exc``.
    Raise it ``from`` its ``__cause__``."""
    if isinstance(exc, TRANSIENT_DATABASE_ERRORS):
        return exc
    if connection_lost():
        lost = OperationalError(f"the database connection was lost ({exc})")
        lost.__cause__ = exc
        return lost
    return None


# Prepared querysets ----------------------------------------------------------------------

#: The parameter types a prepared query takes: how each is written in SQL parameters.
_KINDS: dict[type, Callable[[Any, Any], Any]] = {
    int: lambda value, connection: int(value),
    str: lambda value, connection: str(value),
    dt.datetime: lambda value, connection: connection.ops.adapt_datetimefield_value(value),
}


def _marker(kind: type, index: int, variant: int) -> Any:
    """A stand-in value for parameter ``index``; the two variants differ, so the SQL
    parameters that carry it are the ones that differ between two compilations."""
    if kind is int:
        # Inside the range of every integer column, positive ones included: Django turns
        # a lookup outside a column's range into an empty result (no SQL). A constant
        # of the query that happens to be equal is told apart by the other variant.
        return 20_000 + 100 * index + variant
    if kind is str:
        return f"\x01prepared-{index}-{variant}\x01"
    return dt.datetime(2001 + variant, 1, 1, 0, 0, index, tzinfo=dt.UTC)


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[int, str], ...]  # (position in params, parameter name)
    compiler: Any
    iterable: type
    locks: bool
    # Model rows: the model, its columns and where they are, related populators.
    model: Any = None
    init_list: tuple[str, ...] = ()
    start: int = 0
    end: int = 0
    populators: tuple[Any, ...] = ()
    annotations: tuple[tuple[str, int], ...] = ()
    # The columns' converters (``results_iter`` would build them again for every call).
    converters: Any = None


class _Prepared:
    """What prepared reads and writes share: the compiled SQL per connection and shape,
    and the parameters' places in it."""

    def __init__(self, build: Callable[..., Any], **params: type) -> None:
        for name, kind in params.items():
            if kind not in _KINDS:
                raise TypeError(f"{name}: a prepared query takes int, str or datetime")
        self.build = build
        self.params = params
        self.key = f"{build.__module__}.{build.__qualname__}"

    def _run(self, shape: tuple[Hashable, ...], values: dict[str, Any]) -> tuple[_Compiled, Any]:
        """The compiled statement and a cursor that has run it with ``values``."""
        if values.keys() != self.params.keys():
            raise TypeError(f"{self.key} takes {sorted(self.params)}, got {sorted(values)}")
        connection = connections[_ALIAS]
        # Keyed by this object (not its builder's name: two closures may share one).
        cache: dict[tuple[_Prepared, tuple[Hashable, ...]], _Compiled] = vars(
            connection
        ).setdefault("_prepared_queries", {})
        compiled = cache.get((self, shape))
        if compiled is None:
            compiled = cache[(self, shape)] = self._compile(shape, connection)
        if compiled.locks and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(compiled.params)
        for position, name in compiled.slots:
            params[position] = _KINDS[self.params[name]](values[name], connection)
        cursor = connection.cursor()
        _execute(connection, cursor, compiled.sql, params)
        return compiled, cursor

    def _statement(self, built: Any, connection: Any) -> tuple[str, tuple[Any, ...], _Compiled]:
        """The SQL, its parameters and what running it needs, from what ``build`` gave."""
        raise NotImplementedError

    def _compile(self, shape: tuple[Hashable, ...], connection: Any) -> _Compiled:
        names = list(self.params)
        variants = []
        for variant in (0, 1):
            markers = {name: _marker(self.params[name], i, variant) for i, name in enumerate(names)}
            adapted = {n: _KINDS[self.params[n]](m, connection) for n, m in markers.items()}
            variants.append((*self._statement(self.build(*shape, **markers), connection), adapted))
        (sql, params, compiled, adapted), (sql_b, params_b, _, adapted_b) = variants
        if sql != sql_b or len(params) != len(params_b):
            raise ValueError(f"{self.key}: the SQL depends on a parameter's value")
        slots = []
        for position, (a, b) in enumerate(zip(params, params_b, strict=True)):
            if a == b:
                continue
            name = next((n for n in names if adapted[n] == a and adapted_b[n] == b), None)
            if name is None:
                raise ValueError(
                    f"{self.key}: SQL parameter {position} is not a parameter as given"
                )
            slots.append((position, name))
        return replace(compiled, sql=sql, params=params, slots=tuple(slots))


class PreparedQuery(_Prepared, Generic[T]):
    """A queryset built and compiled to SQL once per database connection, then run with
    new parameter values: for the few queries a hot request runs every time, where
    building and compiling the queryset costs more than running it.

    ``build(*shape, **params)`` returns the queryset (model rows, ``values_list`` or
    ``values_list(flat=True)``; no prefetching). ``params`` name its parameters and their
    types (``int``, ``str``, ``datetime``): it is called with stand-in values of those
    types and must only pass them to lookups that take the value as it is (``pk=``,
    ``id__gte=``, ``expires_at__lte=``; not ``__contains``). ``shape`` is the
    hashable arguments that change the query's form (one compilation each); a form may
    leave a parameter out.

    Compiled per connection (a thread's own, as Django's are): a compiler keeps its
    connection. A query that cannot be prepared (a parameter that does not reach the
    SQL as it is) fails when it is first run, with the parameter's name.
    """

    def __init__(self, build: Callable[..., models.QuerySet[Any, T]], **params: type) -> None:
        super().__init__(build, **params)

    def __call__(self, *shape: Hashable, **values: Any) -> list[T]:
        compiled, cursor = self._run(shape, values)
        with cursor:
            rows = cursor.fetchall()
        return list(_rows(compiled, rows, _ALIAS))

    def _statement(
        self, built: models.QuerySet[Any, T], connection: Any
    ) -> tuple[str, tuple[Any, ...], _Compiled]:
        queryset = built
        if getattr(queryset, "_prefetch_related_lookups", ()) or getattr(
            queryset, "_known_related_objects", {}
        ):
            raise ValueError(f"{self.key}: a prepared query cannot prefetch")
        compiler = queryset.query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        columns = [column[0] for column in compiler.select[0 : compiler.col_count]]
        if compiler.has_composite_fields(columns) or compiler.has_extra_select:
            raise ValueError(f"{self.key}: no composite keys or extra() columns")
        compiled = _Compiled(
            sql="",
            params=(),
            slots=(),
            compiler=compiler,
            iterable=queryset._iterable_class,
            locks=bool(queryset.query.select_for_update)
            and connection.features.has_select_for_update,
            converters=compiler.get_converters(columns),
        )
        if compiled.iterable is ModelIterable:
            info = compiler.klass_info
            start, end = info["select_fields"][0], info["select_fields"][-1] + 1
            compiled = replace(
                compiled,
                model=info["model"],
                init_list=tuple(f[0].target.attname for f in compiler.select[start:end]),
                start=start,
                end=end,
                populators=tuple(
                    get_related_populators(info, compiler.select, queryset.db)  # type: ignore[call-arg]
                ),
                annotations=tuple(compiler.annotation_col_map.items()),
            )
        elif compiled.iterable not in (ValuesListIterable, FlatValuesListIterable):
            raise ValueError(f"{self.key}: model rows, values_list or flat values only")
        return sql, tuple(params), compiled


class PreparedUpdate(_Prepared):
    """``queryset.update(**fields)`` compiled once per connection, as
    :class:`PreparedQuery` compiles a read: ``build(*shape, **params)`` returns the
    queryset (of one table: no joins) and the fields to set; calling it returns the
    number of rows updated. No signals are sent (``update()`` sends none either).

    ``returning`` (field names): the statement also returns these columns of the rows
    it updated (``UPDATE ... RETURNING``, PostgreSQL and SQLite 3.35+), read with
    :meth:`rows`: one statement where a locking read and an update would be two.
    """

    def __init__(
        self,
        build: Callable[..., tuple[models.QuerySet[Any], dict[str, Any]]],
        *,
        returning: Sequence[str] = (),
        **params: type,
    ) -> None:
        super().__init__(build, **params)
        self.returning = tuple(returning)

    def __call__(self, *shape: Hashable, **values: Any) -> int:
        _, cursor = self._run(shape, values)
        with cursor:
            return int(cursor.rowcount)

    def rows(self, *shape: Hashable, **values: Any) -> list[tuple[Any, ...]]:
        """The ``returning`` columns of the rows updated (converters applied)."""
        if not self.returning:
            raise TypeError(f"{self.key} returns no columns")
        compiled, cursor = self._run(shape, values)
        with cursor:
            rows = cursor.fetchall()
        return list(_rows(compiled, rows, _ALIAS))

    def _statement(
        self, built: tuple[models.QuerySet[Any], dict[str, Any]], connection: Any
    ) -> tuple[str, tuple[Any, ...], _Compiled]:
        queryset, fields = built
        query: Any = queryset.query.chain(UpdateQuery)
        query.add_update_values(fields)
        compiler = query.get_compiler(connection=connection)
        compiler.pre_sql_setup()
        if query.related_updates or len(query.alias_map) > 1:
            raise ValueError(f"{self.key}: a prepared update is of one table")
        sql, params = compiler.as_sql()
        converters = None
        if self.returning:
            meta = queryset.model._meta
            columns = [meta.get_field(name) for name in self.returning]
            clause, clause_params = connection.ops.return_insert_columns(columns)
            sql, params = f"{sql} {clause}", (*params, *clause_params)
            converters = compiler.get_converters([f.get_col(meta.db_table) for f in columns])
        compiled = _Compiled("", (), (), compiler, ValuesListIterable, False, converters=converters)
        return sql, tuple(params), compiled


class PreparedInsert(Generic[M]):
    """``model.objects.create(**values)`` (or ``bulk_create`` of a few rows, :meth:`many`)
    with its ``INSERT`` compiled once per connection and number of rows: for the rows a
    hot request adds every time. Every concrete field but an auto primary key is
    written, as ``create()`` writes them (defaults, ``pre_save``); values must be plain
    values (no expressions). The returned instances are saved (primary keys set). No
    signals are sent; this project listens to none."""

    def __init__(self, model: type[M]) -> None:
        self.model = model
        meta = model._meta
        self.fields = [
            f for f in meta.local_concrete_fields if not f.generated and f is not meta.auto_field
        ]
        self.returning = meta.db_returning_fields

    def __call__(self, **values: Any) -> M:
        return self.many([values])[0]

    def many(self, rows: Sequence[dict[str, Any]]) -> list[M]:
        """Insert these rows (field name -> value) in one statement."""
        if not rows:
            return []
        if any(hasattr(v, "resolve_expression") for row in rows for v in row.values()):
            raise ValueError(f"{self.model.__name__}: a prepared insert takes plain values")
        objs = [self.model(**row) for row in rows]
        for obj in objs:
            obj._prepare_related_fields_for_save(operation_name="save")  # type: ignore[attr-defined]
        connection: Any = connections[_ALIAS]
        if len(objs) > 1 and not connection.features.can_return_rows_from_bulk_insert:
            raise ValueError("this database cannot return the keys of several new rows")
        cache: dict[Any, Any] = vars(connection).setdefault("_prepared_queries", {})
        compiled = cache.get((self, len(objs)))
        if compiled is None:
            compiled = cache[(self, len(objs))] = self._compile(objs, connection)
        sql, compiler, converters = compiled
        with connection.cursor() as cursor:
            _execute(connection, cursor, sql, self._params(compiler, objs))
            if len(objs) > 1:
                returned = connection.ops.fetch_returned_insert_rows(cursor)
            elif connection.features.can_return_columns_from_insert:
                returned = [
                    connection.ops.fetch_returned_insert_columns(cursor, compiler.returning_params)
                ]
            else:
                meta = self.model._meta
                returned = [(connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column),)]
        if converters:
            returned = list(compiler.apply_converters(returned, converters))
        for obj, row in zip(objs, returned, strict=True):
            for value, field in zip(row, self.returning, strict=True):
                setattr(obj, field.attname, value)
            obj._state.adding = False
            obj._state.db = _ALIAS
        return objs

    def _params(self, compiler: Any, objs: Sequence[M]) -> tuple[Any, ...]:
        """The statement's parameters, as the compiler's ``as_sql`` lays them out."""
        value_rows = [
            [compiler.prepare_value(f, compiler.pre_save_val(f, obj)) for f in self.fields]
            for obj in objs
        ]
        _, param_rows = compiler.assemble_as_sql(self.fields, value_rows)
        return tuple(chain.from_iterable(param_rows))

    def _compile(self, objs: Sequence[M], connection: Any) -> tuple[str, Any, Any]:
        query = InsertQuery(self.model)
        query.insert_values(self.fields, list(objs))
        compiler: Any = query.get_compiler(connection=connection)
        compiler.returning_fields = self.returning
        ((sql, params),) = compiler.as_sql()
        if len(params) != len(self._params(compiler, objs)):
            raise ValueError(f"{self.model.__name__}: a field's SQL is not one parameter")
        meta = self.model._meta
        if len(objs) > 1 or connection.features.can_return_columns_from_insert:
            columns = [f.get_col(meta.db_table) for f in self.returning]
        else:
            columns = [meta.pk.get_col(meta.db_table)]
        return sql, compiler, compiler.get_converters(columns)


# Server-side prepared statements (PostgreSQL) ---------------------------------------------

_PLACEHOLDER = re.compile(r"%(s|%)")
_statement_names = itertools.count(1)
# SQL text -> (statement name, PREPARE statement, EXECUTE template), for this process.
_server_statements: dict[str, tuple[str, str, str]] = {}
_server_statements_lock = threading.Lock()


def _server_statement(sql: str, n_params: int) -> tuple[str, str, str]:
    found = _server_statements.get(sql)
    if found is None:
        with _server_statements_lock:
            found = _server_statements.get(sql)
            if found is None:
                name = f"he_prepared_{next(_statement_names)}"
                numbers = itertools.count(1)
                body = _PLACEHOLDER.sub(
                    lambda m: f"${next(numbers)}" if m.group(1) == "s" else "%", sql
                )
                arguments = f"({', '.join(['%s'] * n_params)})" if n_params else ""
                found = _server_statements[sql] = (
                    name,
                    f"PREPARE {name} AS {body}",
                    f"EXECUTE {name}{arguments}",
                )
    return found


def _execute(connection: Any, cursor: Any, sql: str, params: Sequence[Any]) -> None:
    """Run a prepared query's SQL. On PostgreSQL (unless
    ``settings.HUMANEVAL_PG_SERVER_PREPARE`` is off, as a transaction-pooling pooler
    needs) as a server-side prepared statement: ``PREPARE``d once per database session,
    then ``EXECUTE``d, so the server parses and plans it once rather than every time.
    The ``PREPARE`` goes through the driver's own cursor: it is not counted as a query
    of the request, so statement counts do not depend on what ran before."""
    if connection.vendor != "postgresql" or not settings.HUMANEVAL_PG_SERVER_PREPARE:
        cursor.execute(sql, params)
        return
    name, prepare, execute = _server_statement(sql, len(params))
    connection.ensure_connection()
    raw = connection.connection
    session = vars(connection).get("_server_prepared")
    if session is None or session[0] is not raw:
        # A new database session (the first, or a reconnection): nothing prepared yet.
        session = vars(connection)["_server_prepared"] = (raw, set())
    if name not in session[1]:
        with raw.cursor() as own:
            own.execute(prepare)
        session[1].add(name)
    cursor.execute(execute, list(params) or None)


def _rows(compiled: _Compiled, rows: list[tuple[Any, ...]], alias: str) -> Iterable[Any]:
    """The fetched rows as the queryset would give them (converters applied)."""
    converted: Iterable[Any] = rows
    if compiled.converters:
        converted = map(tuple, compiled.compiler.apply_converters(converted, compiled.converters))
    if compiled.iterable is ValuesListIterable:
        return converted
    if compiled.iterable is FlatValuesListIterable:
        return (row[0] for row in converted)
    return (_instance(compiled, row, alias) for row in converted)


def _instance(compiled: _Compiled, row: tuple[Any, ...], alias: str) -> Any:
    obj = compiled.model.from_db(alias, compiled.init_list, row[compiled.start : compiled.end])
    for populator in compiled.populators:
        populator.populate(row, obj)
    for name, position in compiled.annotations:
        setattr(obj, name, row[position])
    return obj


def prepared(
    **params: type,
) -> Callable[[Callable[..., models.QuerySet[Any, T]]], PreparedQuery[T]]:
    """Decorator form of :class:`PreparedQuery`: ``@prepared(worker_id=int)``."""

    def decorate(build: Callable[..., models.QuerySet[Any, T]]) -> PreparedQuery[T]:
        return PreparedQuery(build, **params)

    return decorate


def prepared_update(
    *,
    returning: Sequence[str] = (),
    **params: type,
) -> Callable[[Callable[..., tuple[models.QuerySet[Any], dict[str, Any]]]], PreparedUpdate]:
    """Decorator form of :class:`PreparedUpdate`: ``@prepared_update(worker_id=int)``."""

    def decorate(
        build: Callable[..., tuple[models.QuerySet[Any], dict[str, Any]]],
    ) -> PreparedUpdate:
        return PreparedUpdate(build, returning=returning, **params)

    return decorate


def unique_violation(exc: BaseException) -> bool:
    """Whether ``exc`` is a unique constraint's refusal (PostgreSQL's SQLSTATE 23505,
    SQLite's "UNIQUE constraint failed"), not another integrity error."""
    cause = exc.__cause__ or exc
    if getattr(cause, "pgcode", None) == "23505":
        return True
    return str(cause).startswith("UNIQUE constraint failed")


def row_lock(model: type[models.Model], pk: int) -> None:
    """Hold the row's lock (``SELECT ... FOR UPDATE``) until the transaction ends, reading
    nothing: writes that check, then add (a batch, an invitation, an upload's systems), run
    one after the other for that row instead of both passing the check."""
    model._default_manager.select_for_update().filter(pk=pk).values_list("pk").first()


@contextlib.contextmanager
def refused_when_taken(message: str, *, field: str = "") -> Iterator[None]:
    """Run the block in a savepoint; when a unique constraint refuses it (two requests
    creating the same name at once: both checked, one inserted first), raise
    ``DomainError(message)`` as the check made one after the other would, not a 500."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError as exc:
        if not unique_violation(exc):
            raise
        raise DomainError(message, field=field) from exc
