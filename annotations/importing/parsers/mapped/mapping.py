"""The mapping of a rating file: which column means what (see the package's docstring
for the format), in its JSON form or as a :class:`Mapping`, and its own rules, checked
before any file is read. Pure: no Django."""

from __future__ import annotations

import re
from collections.abc import Mapping as MappingType
from dataclasses import asdict, dataclass
from typing import Any

from common.converters import whole_number
from common.nul import nul_message, nul_path

FORMATS = ("csv", "tsv", "jsonl")
MIN_SLOTS, MAX_SLOTS = 1, 10
#: The mapping's optional one-column-per-row fields (besides ``item``), in the order a
#: file's columns are checked.
PER_ROW_FIELDS: tuple[str, ...] = (
    "worker",
    "input",
    "unit",
    "language",
    "input_language",
    "started_at",
    "submitted_at",
    "definition",
    "metadata_json",
)
#: time formats besides strptime patterns: ISO 8601, or seconds since 1970 (UTC)
TIME_ISO, TIME_EPOCH = "iso", "epoch"
#: a criterion's name: lower-case letters, digits, _ and -
CRITERION_NAME = re.compile(r"^[a-z0-9_-]{1,64}$")


class MappingError(ValueError):
    """The mapping itself is wrong (before any file is read); ``field`` names the setting."""

    def __init__(self, message: str, *, field: str) -> None:
        self.field = field
        super().__init__(f"mapping, field '{field}': {message}")


@dataclass(frozen=True)
class CriterionColumns:
    """One criterion of a mapping: its name, its score pattern, and how to read it.

    ``scale`` (``likert``, ``magnitude``, ``slider`` or "" for "whatever the campaign
    has") is used to create the criterion when the campaign lacks it, and checked
    against it when it exists.
    """

    name: str
    score: str
    ranks: bool = False
    scale: str = ""
    checks: str = ""  # content checks per slot (pattern)
    coverage: str = ""  # coverage labels per slot, kept as written (pattern)
    rank: str = ""  # ranks per slot kept as given beside the scores (pattern)
    #: the Likert levels (whole numbers) of a criterion the import creates, instead of
    #: levels inferred from the scores
    levels: tuple[int, ...] = ()


@dataclass(frozen=True)
class Mapping:
    """Which column means what in a rating file (see the module docstring)."""

    format: str
    item: str
    system: str
    criteria: tuple[CriterionColumns, ...]
    worker: str = ""
    input: str = ""
    output: str = ""
    unit: str = ""
    language: str = ""
    #: the input's language per row (a translation's source); "" = the outputs'
    input_language: str = ""
    slots: int = 0
    first: int = 1
    started_at: str = ""
    submitted_at: str = ""
    time_format: str = ""
    metadata: tuple[str, ...] = ()
    skip_values: tuple[str, ...] = ()
    definition: str = ""  # a column holding the criterion's definition (JSON)
    metadata_json: str = ""  # a column holding a JSON object of metadata
    #: a CSV/TSV file without a header line: its columns' names, in order
    columns: tuple[str, ...] = ()
    #: the one system of every row when the file has no system column (one output per
    #: row); JSON: ``"system": {"value": "explainer"}`` or ``"system_value"``
    system_value: str = ""
    #: the cells are written as humaneval's CSV export writes them: the apostrophe it
    #: puts before a text starting with = + - @ (so no spreadsheet runs it) is taken off
    formula_quoted: bool = False
    #: columns that, where the file has them, hold one value on every row: a file of
    #: one language pair (WMT's ``srclang``, ``trglang``), so that items keyed by their
    #: segment never merge two pairs' segments into one ranking
    one_value: tuple[str, ...] = ()
    #: per-row columns a file may lack, read as empty where it does: the ``wmt`` preset's
    #: ``trglang`` (the outputs' language, left to the campaign's when a file has none)
    optional: tuple[str, ...] = ()
    #: other names a column goes by, read where the file lacks the mapped name: the
    #: ``wmt`` preset's ``judgeId`` is ``judgeID`` in WMT15-16's and xml2csv's files
    aliases: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: rows left out (counted) when a column holds one of these values: the ``mturk``
    #: preset leaves out ``AssignmentStatus`` ``Rejected`` (work the requester refused)
    skip_rows: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The JSON form; settings that are optional and unset are left out."""
        data = asdict(self)
        for key in (
            "input_language",
            "definition",
            "metadata_json",
            "columns",
            "system_value",
            "formula_quoted",
            "one_value",
            "optional",
            "aliases",
            "skip_rows",
        ):
            if not data[key]:
                del data[key]
        for key in ("aliases", "skip_rows"):
            if key in data:
                data[key] = {name: list(others) for name, others in getattr(self, key)}
        for key in ("columns", "one_value", "optional"):
            if key in data:
                data[key] = list(getattr(self, key))
        data["criteria"] = [
            {
                k: list(v) if k == "levels" else v
                for k, v in asdict(c).items()
                if v or k not in ("checks", "coverage", "rank", "levels")
            }
            for c in self.criteria
        ]
        data["metadata"] = list(self.metadata)
        data["skip_values"] = list(self.skip_values)
        return data

    def column(self, pattern: str, i: int) -> str:
        return pattern.replace("{i}", str(i))


_STR_FIELDS = (
    "format",
    "item",
    "system",
    "worker",
    "input",
    "language",
    "input_language",
    "output",
    "unit",
    "started_at",
    "submitted_at",
    "time_format",
    "definition",
    "metadata_json",
    "system_value",
)
#: a criterion named so takes the name its ``definition`` column gives
FROM_DEFINITION = "*"
#: RankME's ``check{i}`` answers -> the platform's content checks


#: a criterion's Likert levels: at most as many, each within as much either side of 0, as
#: a criterion takes (``annotations.services.criteria``: ``LIKERT_LEVELS_MAX``,
#: ``LEVEL_VALUE_MAX``); a 5,000-digit level was a 500 (Python's int() refuses it)
LEVELS_MAX = 101
LEVEL_MAX = 1_000_000
#: the most criteria one mapping reads
CRITERIA_MAX = 50


def _levels(value: Any, *, field: str) -> tuple[int, ...]:
    """A criterion's Likert levels: a list of whole numbers (or their comma-separated
    text), sorted."""
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list):
        raise MappingError("expected a list of whole numbers.", field=field)
    if len(value) > LEVELS_MAX:
        raise MappingError(f"at most {LEVELS_MAX} levels ({len(value)} given).", field=field)
    levels: set[int] = set()
    for v in value:
        if isinstance(v, str) and re.fullmatch(r"-?\d{1,7}", v):  # digits bounded first
            v = int(v)
        if not isinstance(v, int) or isinstance(v, bool) or abs(v) > LEVEL_MAX:
            raise MappingError(
                f"'{str(v)[:20]}' is not a whole number from -{LEVEL_MAX:,} to {LEVEL_MAX:,}.",
                field=field,
            )
        levels.add(v)
    return tuple(sorted(levels))


_CRITERION_KEYS = ("name", "score", "ranks", "scale", "checks", "coverage", "rank", "levels")


def _system_constant(data: MappingType[str, Any]) -> MappingType[str, Any]:
    """``data`` with a constant system (``"system": {"value": "explainer"}``) moved to
    ``system_value``."""
    system = data.get("system", "")
    if not isinstance(system, MappingType):
        return data
    if set(system) != {"value"} or not isinstance(system["value"], str):
        raise MappingError('a constant system is written {"value": "label"}.', field="system")
    if data.get("system_value"):
        raise MappingError("give the constant system once.", field="system_value")
    return {**data, "system": "", "system_value": system["value"]}


def _setting_values(data: MappingType[str, Any]) -> dict[str, Any]:
    """The mapping's settings but its criteria: texts, whole numbers, lists of texts."""
    values: dict[str, Any] = {}
    for key in _STR_FIELDS:
        value = data.get(key, "")
        if not isinstance(value, str):
            raise MappingError("expected a text.", field=key)
        if len(value) > NAMED_LIST_TEXT_MAX:
            raise MappingError(f"at most {NAMED_LIST_TEXT_MAX} characters.", field=key)
        values[key] = value.strip()
    for key in ("slots", "first"):
        value = data.get(key, 0 if key == "slots" else 1)
        if isinstance(value, str) and whole_number(value.strip()) is not None:
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise MappingError("expected a whole number.", field=key)
        values[key] = value
    for key in ("metadata", "skip_values", "columns", "one_value", "optional"):
        value = data.get(key, [])
        if isinstance(value, str):
            value = [v for v in value.split(",")]
        if not isinstance(value, list) or not all(
            isinstance(v, str | int) and not isinstance(v, bool) for v in value
        ):
            raise MappingError("expected a list of texts.", field=key)
        if len(value) > LIST_MAX:
            raise MappingError(f"at most {LIST_MAX} entries.", field=key)
        if any(len(str(v)) > NAMED_LIST_TEXT_MAX for v in value):
            raise MappingError(
                f"an entry has more than {NAMED_LIST_TEXT_MAX} characters.", field=key
            )
        if not isinstance(data.get(key), str) and any(not str(v).strip() for v in value):
            # a JSON list's "" was dropped unseen (skip_values [""] then skipped nothing)
            raise MappingError(
                "an entry is empty: list settings take texts (an empty score cell is refused "
                "by its line, never skipped).",
                field=key,
            )
        comma = next((str(v) for v in value if "," in str(v)), None)
        if comma is not None:  # the page's form would save it as two entries
            raise MappingError(
                f"'{comma[:40]}' holds a comma, which the import page uses to separate "
                "these texts.",
                field=key,
            )
        values[key] = tuple(str(v).strip() for v in value if str(v).strip())
    values["aliases"] = _named_lists(
        data.get("aliases", {}), field="aliases", example='{"judgeId": ["judgeID"]}', unique=True
    )
    values["skip_rows"] = _named_lists(
        data.get("skip_rows", {}),
        field="skip_rows",
        example='{"AssignmentStatus": ["Rejected"]}',
        unique=False,
    )
    quoted = data.get("formula_quoted", False)
    if not isinstance(quoted, bool):
        raise MappingError("expected true or false.", field="formula_quoted")
    values["formula_quoted"] = quoted
    return values


#: the most columns ``aliases`` or ``skip_rows`` name, the most texts each lists, and the
#: longest text: bounded like every input (a preset of 3,000 x 20 values made a 300 KB
#: page and an import of 3,000 notes)
NAMED_LISTS_MAX = 20
NAMED_LIST_TEXT_MAX = 200
#: the most entries a plain list setting holds (``metadata``, ``skip_values``, ``columns``,
#: ``one_value``, ``optional``): a file's columns, with room (a saved preset of 50,000
#: skip values made a 355 KB page); each entry, and each text setting, at most
#: ``NAMED_LIST_TEXT_MAX`` characters
LIST_MAX = 500
#: characters the page's one-line form of these settings uses as separators, which a
#: column name or value therefore cannot hold (the page would save another mapping)
NAMED_LIST_SEPARATORS = ("=", ",", ";")


def _named_lists(
    value: Any, *, field: str, example: str, unique: bool
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A JSON object of texts to lists of texts (``aliases``: each column's other names,
    none named twice when ``unique``; ``skip_rows``: each column's values), bounded
    (:data:`NAMED_LISTS_MAX`, :data:`NAMED_LIST_TEXT_MAX`), without the page form's
    separators (:data:`NAMED_LIST_SEPARATORS`)."""
    if not isinstance(value, MappingType):
        raise MappingError(f"expected an object such as {example}.", field=field)
    if len(value) > NAMED_LISTS_MAX:
        raise MappingError(f"at most {NAMED_LISTS_MAX} columns.", field=field)
    pairs: list[tuple[str, tuple[str, ...]]] = []
    seen: set[str] = set()
    for name, others in value.items():
        place = f"{field}.{str(name)[:40]}"
        if isinstance(others, str):
            others = [others]
        if not isinstance(others, list) or not all(isinstance(o, str) for o in others):
            raise MappingError("expected a list of texts.", field=place)
        if len(others) > NAMED_LISTS_MAX:
            raise MappingError(f"at most {NAMED_LISTS_MAX} texts.", field=place)
        names = tuple(o.strip() for o in others if o.strip())
        if not name.strip() or not names:
            raise MappingError(f"expected a column and its texts, as {example}.", field=field)
        for text in (name.strip(), *names):
            if len(text) > NAMED_LIST_TEXT_MAX:
                raise MappingError(
                    f"a text of at most {NAMED_LIST_TEXT_MAX} characters.", field=place
                )
            if any(mark in text for mark in NAMED_LIST_SEPARATORS):
                raise MappingError(
                    f"'{text[:40]}' holds one of {' '.join(NAMED_LIST_SEPARATORS)}, which "
                    "the import page uses to separate these texts.",
                    field=place,
                )
        for other in (name.strip(), *names) if unique else ():
            if other in seen:
                raise MappingError(f"'{other[:40]}' is named twice.", field=place)
            seen.add(other)
        pairs.append((name.strip(), names))
    return tuple(pairs)


def _criterion_from_dict(c: Any, where: str) -> CriterionColumns:
    """One criterion of a mapping from its JSON form (``where``: its place, for errors)."""
    if not isinstance(c, MappingType):
        raise MappingError("expected an object with name and score.", field=where)
    for key in c:
        if key not in _CRITERION_KEYS:
            raise MappingError("unknown setting.", field=f"{where}.{key}")
    texts = {}
    for key in ("name", "score", "scale", "checks", "coverage", "rank"):
        value = c.get(key, "")
        if not isinstance(value, str):
            raise MappingError("expected a text.", field=f"{where}.{key}")
        if len(value) > NAMED_LIST_TEXT_MAX:
            raise MappingError(f"at most {NAMED_LIST_TEXT_MAX} characters.", field=f"{where}.{key}")
        texts[key] = value.strip()
    name, score, scale, checks, coverage, rank = texts.values()
    for key, column in (
        ("score", score),
        ("checks", checks),
        ("coverage", coverage),
        ("rank", rank),
    ):
        if any(mark in column for mark in (",", "\n", "\r")):
            # the page's form writes a criterion as one line of comma-separated settings
            raise MappingError(
                f"'{column[:40]}' holds a comma or a line break, which the import page uses "
                "to separate a criterion's settings.",
                field=f"{where}.{key}",
            )
    ranks = c.get("ranks", False)
    if not isinstance(ranks, bool):
        raise MappingError("expected true or false.", field=f"{where}.ranks")
    levels = _levels(c.get("levels", []), field=f"{where}.levels")
    return CriterionColumns(
        name=name,
        score=score,
        ranks=ranks,
        scale=scale,
        checks=checks,
        coverage=coverage,
        rank=rank,
        levels=levels,
    )


def mapping_from_dict(data: MappingType[str, Any]) -> Mapping:
    """A mapping from its JSON form, checked; a wrong setting is a :class:`MappingError`."""
    if not isinstance(data, MappingType):
        raise MappingError("a mapping is a JSON object.", field="mapping")
    where = nul_path(data)
    if where is not None:  # PostgreSQL stores no NUL; no driver encodes a lone surrogate
        raise MappingError(nul_message("the setting"), field=where or "mapping")
    known = {
        *_STR_FIELDS,
        "criteria",
        "slots",
        "first",
        "metadata",
        "skip_values",
        "columns",
        "one_value",
        "optional",
        "aliases",
        "skip_rows",
    }
    known.add("formula_quoted")
    for key in data:
        if key not in known:
            raise MappingError(f"unknown setting (known: {', '.join(sorted(known))}).", field=key)
    values = _setting_values(_system_constant(data))
    criteria = data.get("criteria")
    if not isinstance(criteria, list) or not criteria:
        raise MappingError(
            "at least one criterion (name and score pattern) is needed.", field="criteria"
        )
    if len(criteria) > CRITERIA_MAX:
        raise MappingError(f"at most {CRITERIA_MAX} criteria.", field="criteria")
    parsed = [_criterion_from_dict(c, f"criteria[{n}]") for n, c in enumerate(criteria)]
    mapping = Mapping(criteria=tuple(parsed), **values)
    mapping_check(mapping)
    return mapping


def mapping_single_slot(mapping: Mapping) -> bool:
    """One output per row: ``slots`` is 1, or the system pattern names one column (no
    ``{i}``) and ``slots`` is 0 or 1, or the system is a constant."""
    return (
        mapping.slots == 1
        or (mapping.slots == 0 and "{i}" not in mapping.system)
        or bool(mapping.system_value)
    )


def _check_system(mapping: Mapping) -> None:
    """The format, the item column, and a system column or a constant system."""
    if mapping.format not in FORMATS:
        raise MappingError(
            f"'{mapping.format}' is not one of {', '.join(FORMATS)}.", field="format"
        )
    if not mapping.item:
        raise MappingError("this column is required.", field="item")
    if not mapping.system and not mapping.system_value:
        raise MappingError(
            'this column is required (or a constant system: {"value": "label"}).',
            field="system",
        )
    if mapping.system and mapping.system_value:
        raise MappingError(
            "either a system column or a constant system, not both.", field="system_value"
        )
    if mapping.system_value and mapping.slots not in (0, 1):
        raise MappingError(
            "a constant system means one output per row: set slots to 1.", field="slots"
        )


def _check_patterns(mapping: Mapping, single: bool) -> None:
    """Per-slot patterns hold ``{i}`` (unless one output per row); per-row columns never."""
    for key in ("system", "output"):
        pattern = getattr(mapping, key)
        if pattern and "{i}" not in pattern and not single:
            raise MappingError(
                f"the pattern '{pattern}' lacks {{i}} (the slot number); without it, set "
                "slots to 1 (one output per row).",
                field=key,
            )
    per_row = [(key, getattr(mapping, key)) for key in ("item", *PER_ROW_FIELDS)] + [
        ("metadata", column) for column in mapping.metadata
    ]
    for key, column in per_row:
        if "{i}" in column:
            raise MappingError("a per-row column cannot hold {i}.", field=key)


def _check_layout(mapping: Mapping) -> None:
    """The number of slots, the columns of a file without a header, the first slot's
    number, and a time format when times are read."""
    if mapping.slots != 0 and not MIN_SLOTS <= mapping.slots <= MAX_SLOTS:
        raise MappingError(
            f"{mapping.slots} outputs per row: expected {MIN_SLOTS} to {MAX_SLOTS} (0 = as "
            "many as the header has).",
            field="slots",
        )
    if mapping.columns and mapping.format == "jsonl":
        raise MappingError("a JSONL file names its keys itself.", field="columns")
    if len(set(mapping.columns)) < len(mapping.columns):
        raise MappingError("a column is named twice.", field="columns")
    if mapping.first not in (0, 1):
        raise MappingError("slots are numbered from 1 or from 0.", field="first")
    if (mapping.started_at or mapping.submitted_at) and not mapping.time_format:
        raise MappingError(
            f"give the time format: '{TIME_ISO}', '{TIME_EPOCH}' or a strptime pattern.",
            field="time_format",
        )


def _check_criterion_name(mapping: Mapping, c: CriterionColumns, where: str) -> None:
    """A criterion's name: a name, or ``*`` (the file's definition gives it)."""
    if c.name == FROM_DEFINITION:
        if not mapping.definition or len(mapping.criteria) != 1:
            raise MappingError(
                f"'{FROM_DEFINITION}' (the name the file gives) needs the 'definition' "
                "column and a single criterion.",
                field=f"{where}.name",
            )
    elif not CRITERION_NAME.match(c.name):
        raise MappingError(
            f"'{c.name}' is not a criterion name (lower-case letters, digits, _ and -).",
            field=f"{where}.name",
        )


def _check_criterion(c: CriterionColumns, where: str, single: bool) -> None:
    """A criterion's columns and scale (its name is ``_check_criterion_name``'s)."""
    if not c.score:
        raise MappingError("give the score column.", field=f"{where}.score")
    if "{i}" not in c.score and not single:
        raise MappingError(
            f"the score pattern '{c.score}' lacks {{i}} (the slot number); without it, "
            "set slots to 1 (one output per row).",
            field=f"{where}.score",
        )
    if c.rank and c.ranks:
        raise MappingError(
            "either the scores are ranks (ranks) or the ranks have a column (rank).",
            field=f"{where}.rank",
        )
    for key in ("checks", "coverage", "rank"):
        pattern = getattr(c, key)
        if pattern and "{i}" not in pattern and not single:
            raise MappingError(
                f"the pattern '{pattern}' lacks {{i}} (the slot number).",
                field=f"{where}.{key}",
            )
    if c.scale not in ("", "likert", "magnitude", "slider"):
        raise MappingError(
            f"'{c.scale}' is not a scale (likert, magnitude, slider).",
            field=f"{where}.scale",
        )
    if c.levels and (c.scale not in ("", "likert") or c.ranks or len(c.levels) < 2):
        raise MappingError(
            "levels are those of a Likert scale: at least two whole numbers.",
            field=f"{where}.levels",
        )


def _check_optional(mapping: Mapping) -> None:
    """``optional`` names only the language columns or metadata columns (not the item, the
    worker, the systems or the scores, which every row needs)."""
    allowed = {mapping.language, mapping.input_language, *mapping.metadata} - {
        "",
        mapping.item,
        mapping.worker,
    }
    for column in mapping.optional:
        if column not in allowed:
            raise MappingError(
                f"'{column[:40]}' is not one of the mapping's language or metadata columns (nor its "
                "item or worker): only those may be optional (a file without them is read "
                "as if they were empty).",
                field="optional",
            )


def _identity_columns(mapping: Mapping) -> list[tuple[str, str]]:
    """(setting, column) of what each row says about whom and what: the item, the worker,
    the system and output patterns, the unit, the input, and each criterion's score, rank,
    checks and coverage patterns (those set)."""
    roles = ("item", "worker", "system", "output", "unit", "input")
    named = [(key, getattr(mapping, key)) for key in roles]
    for n, c in enumerate(mapping.criteria):
        named += [
            (f"criteria[{n}].{key}", getattr(c, key))
            for key in ("score", "rank", "checks", "coverage")
        ]
    return [(key, column) for key, column in named if column]


#: identity columns that may be one column: items keyed by their input or by their one
#: output's text, one task (unit) per item or per input
_MAY_SHARE = ({"item", "output"}, {"item", "unit"}, {"item", "input"}, {"input", "unit"})


def _check_distinct(mapping: Mapping) -> None:
    """Each identity column (:func:`_identity_columns`) is a column of its own: a worker
    read from the item column made every item its own worker; and no other name
    (``aliases``) is a column the mapping reads as something else. The input, the unit
    and (one output per row) the output may be the item's column: items keyed by their
    input, one task per item, or texts rated alone and keyed by themselves."""
    seen: dict[str, str] = {}
    for key, column in _identity_columns(mapping):
        if column in seen and {key, seen[column]} not in _MAY_SHARE:
            raise MappingError(
                f"'{column[:40]}' is also the {seen[column]} column: the item, worker, "
                "system, output, unit, input and each score, rank, checks and coverage "
                "column must be different columns (the input and the unit may be the "
                "item's, and a lone output too).",
                field=key,
            )
        seen[column] = key
    read = {
        column: key
        for key, column in [
            *_identity_columns(mapping),
            *((key, getattr(mapping, key)) for key in PER_ROW_FIELDS),
            *(("metadata", column) for column in mapping.metadata),
        ]
        if column
    }
    for name, others in mapping.aliases:
        for other in others:
            if other in read and other != name:
                raise MappingError(
                    f"'{other[:40]}' is the mapping's {read[other]} column: it cannot also "
                    f"be another name of '{name[:40]}'.",
                    field=f"aliases.{name[:40]}",
                )


def mapping_check(mapping: Mapping) -> None:
    """The mapping's own rules, before any file is read."""
    _check_system(mapping)
    single = mapping_single_slot(mapping)
    _check_patterns(mapping, single)
    _check_layout(mapping)
    _check_optional(mapping)
    _check_distinct(mapping)
    names: set[str] = set()
    for n, c in enumerate(mapping.criteria):
        where = f"criteria[{n}]"
        _check_criterion_name(mapping, c, where)
        if c.name in names:
            raise MappingError(f"criterion '{c.name}' is mapped twice.", field=f"{where}.name")
        names.add(c.name)
        _check_criterion(c, where, single)
