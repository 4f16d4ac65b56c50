"""The criteria step of a column-mapped rating import (``annotations.importing.mapped``):
the file's criteria found in the campaign or created (as the file's definition gives
them, from a criterion preset, the mapping's scale, or a scale the scores fit), each
score checked against a Likert criterion's levels; and what the preview says an import
would give each criterion."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TypeGuard

from annotations.importing.parsers.mapped import ParsedMapped
from annotations.importing.parsers.mapped.cells import CHECK_KEYS
from annotations.importing.parsers.mapped.mapping import (
    FROM_DEFINITION,
    CriterionColumns,
    Mapping,
)
from annotations.models import Campaign, Criterion, Judgement
from annotations.selectors.criteria import criterion_by_name
from annotations.services.criteria import (
    CRITERION_PRESETS,
    criterion_create_imported,
    likert_levels_inferred,
    likert_settings,
    magnitude_settings,
)
from common.errors import DomainError, ImportFileError


def _preset_fits(preset: dict[str, Any] | None, columns: CriterionColumns) -> TypeGuard[dict]:
    """A new criterion takes its name's preset unless the mapping says otherwise."""
    return preset is not None and columns.scale in ("", preset["scale"]) and not columns.levels


def _criterion_from_definition(
    *, campaign: Campaign, name: str, definition: dict[str, Any], parsed: ParsedMapped, field: str
) -> Criterion:
    """A new criterion as the file's definition gives it (humaneval's exports), under
    the criteria service's rules: a definition they refuse is an error naming the
    file, the line that gives it and its column."""
    try:
        return criterion_create_imported(
            campaign=campaign,
            name=name,
            question=str(definition.get("question") or f"{name} (imported)"),
            show_input=bool(definition.get("show_input", True)),
            scale=definition["scale"],
            scale_settings=dict(definition.get("scale_settings") or {}),
            content_checks=list(definition.get("content_checks") or []),
            standard_input=str(definition.get("standard_input") or ""),
            standard_text=str(definition.get("standard_text") or ""),
        )
    except DomainError as exc:
        raise ImportFileError(
            f"the definition of criterion '{name}' is refused ({exc}); nothing was written.",
            file=parsed.file,
            line=parsed.definition_lines.get(name),
            field=field,
        ) from exc


def _criterion(
    *,
    campaign: Campaign,
    columns: CriterionColumns,
    parsed: ParsedMapped,
    definition: dict[str, Any] | None = None,
    definition_field: str = "",
) -> tuple[Criterion, bool, str]:
    """The campaign's criterion of that name, or a new one (as the file's definition
    gives it, else from the preset of that name when there is one, else of the
    mapping's scale and levels, else of a scale the scores fit), and how its scale was
    chosen (said in the import's summary). Content checks found in the file are offered
    by a criterion created without a definition; a criterion created for a file without
    content checks offers none (not even its preset's)."""
    scale_wanted = columns.scale or (definition or {}).get("scale", "")
    existing = criterion_by_name(campaign, columns.name)
    if existing is not None:
        if scale_wanted and existing.scale != scale_wanted:
            raise DomainError(
                f"Criterion '{columns.name}' of campaign '{campaign.slug}' has the scale "
                f"'{existing.scale}'; the {'mapping' if columns.scale else 'file'} says "
                f"'{scale_wanted}'. Map the scores to another criterion name, or change the "
                "mapping's scale."
            )
        return existing, False, ""
    if definition is not None:
        created = _criterion_from_definition(
            campaign=campaign,
            name=columns.name,
            definition=definition,
            parsed=parsed,
            field=definition_field,
        )
        return created, True, f"{_scale_text(created)}, as the file's definition gives it"
    ticked = {
        c for j in parsed.judgements if j.criterion == columns.name for cs in j.checks for c in cs
    }
    offered = [k for k in CHECK_KEYS if k in ticked] if columns.checks else []
    try:
        new, how = _criterion_new(
            campaign=campaign, columns=columns, parsed=parsed, content_checks=offered
        )
    except DomainError as exc:
        raise DomainError(f"Criterion '{columns.name}': {exc}") from exc
    return new, True, how


def _scale_text(criterion: Criterion) -> str:
    """The criterion's scale in words: 'Likert 1-5 (levels 1, 2, 3, 4, 5)', 'magnitude'."""
    if criterion.scale != Criterion.Scale.LIKERT:
        return str(criterion.scale)
    values = [lv.get("value") for lv in (criterion.scale_settings or {}).get("levels") or []]
    shown = ", ".join(str(v) for v in values)
    return f"Likert (levels {shown})"


def scale_inferred(scores: list[float]) -> tuple[str, list[int], str]:
    """The scale a criterion gets when neither the campaign, a definition, a preset nor
    the mapping gives one: (scale, Likert levels, from what). Whole numbers from 0 to 10
    make a Likert scale from min(1, lowest) to the highest (at least two levels: an
    all-zero yes/no question gets 0 and 1), numbers from 0 to 100 a slider, any other a
    magnitude estimate."""
    if not scores:
        return str(Criterion.Scale.MAGNITUDE), [], "no scores"
    low, high = min(scores), max(scores)
    seen = f"{len(scores)} scores from {low:g} to {high:g}"
    levels = likert_levels_inferred(scores)
    if levels is not None and low >= 0 and high <= 10:
        return str(Criterion.Scale.LIKERT), levels, f"whole numbers: {seen}"
    if low >= 0 and high <= 100:
        return str(Criterion.Scale.SLIDER), [], f"numbers from 0 to 100: {seen}"
    return str(Criterion.Scale.MAGNITUDE), [], f"numbers beyond 0-100 or fractions: {seen}"


def _criterion_new(
    *,
    campaign: Campaign,
    columns: CriterionColumns,
    parsed: ParsedMapped,
    content_checks: list[str],
) -> tuple[Criterion, str]:
    """A new criterion (through the criteria service, its refusals naming the criterion
    by ``_criterion``) offering ``content_checks``, and how its scale was chosen."""
    preset = CRITERION_PRESETS.get(columns.name)
    if _preset_fits(preset, columns):
        criterion = criterion_create_imported(
            campaign=campaign, preset=columns.name, content_checks=content_checks
        )
        return criterion, f"{_scale_text(criterion)}, from the criterion preset '{columns.name}'"
    scores = [s for j in parsed.judgements if j.criterion == columns.name for s in j.scores]
    scale, levels, reason = scale_inferred(scores)
    how = f"inferred from the file ({reason}); give scale and levels in the mapping to choose"
    if columns.levels:
        scale, levels, how = str(Criterion.Scale.LIKERT), list(columns.levels), "the mapping's"
    elif columns.scale:
        how = "the mapping's"
        if columns.scale == Criterion.Scale.LIKERT:
            levels = likert_levels_inferred(scores) or []
            if not levels:
                raise DomainError(
                    "a Likert scale needs whole-number scores (or its levels in the mapping)."
                )
            how = f"the mapping's scale, levels inferred from the file ({len(scores)} scores)"
        scale = columns.scale
    settings_: dict[str, Any]
    if scale == Criterion.Scale.LIKERT:
        # Ranks (1 = best, stored as k + 1 - rank) are a relative ranking of the outputs
        # shown together, as WMT's: the datasheet says so, not "absolute scores"
        # (``Criterion.of_ranks``).
        source = Criterion.RANKS_SOURCE if columns.ranks else "mapped-import"
        settings_ = {**likert_settings(levels), "source": source}
    elif scale == Criterion.Scale.MAGNITUDE:
        settings_ = magnitude_settings()
    else:
        settings_ = {}
    criterion = criterion_create_imported(
        campaign=campaign,
        name=columns.name,
        question=f"{columns.name} (imported)",
        show_input=True,
        scale=scale,
        scale_settings=settings_,
        content_checks=content_checks,
    )
    return criterion, f"{_scale_text(criterion)}, {how}"


def _level_values(settings: dict[str, Any] | None) -> list[float]:
    """The values of a Likert scale's levels (``scale_settings["levels"]``), in order;
    entries without a numeric value left out."""
    return [
        level["value"]
        for level in (settings or {}).get("levels") or []
        if isinstance(level, dict) and isinstance(level.get("value"), int | float)
    ]


def _likert_check(
    *,
    mapping: Mapping,
    parsed: ParsedMapped,
    columns: CriterionColumns,
    criterion: Criterion,
    source: str,
) -> None:
    """Every score of a Likert criterion is one of its levels: a score outside them is
    refused, naming the file, line, score column, the levels allowed and where they come
    from (``source``: a preset, the mapping, the campaign's criterion)."""
    if criterion.scale != Criterion.Scale.LIKERT:
        return
    allowed = set(_level_values(criterion.scale_settings))
    levels = sorted(allowed)
    for j in parsed.judgements:
        if j.criterion != criterion.name:
            continue
        for n, score in enumerate(j.scores):
            if score not in allowed:
                raise ImportFileError(
                    f"'{score:g}' is not a level of criterion '{criterion.name}' "
                    f"(Likert levels: {', '.join(f'{v:g}' for v in levels)}, {source}); "
                    "nothing was written. Give the mapping this criterion's own levels "
                    "(levels=1 2 3 ...) or map it to another name.",
                    file=parsed.file,
                    line=j.line,
                    field=mapping.column(columns.score, mapping.first + n),
                )


def _criteria_columns(mapping: Mapping, parsed: ParsedMapped) -> list[CriterionColumns]:
    """The mapping's criteria, one named ``*`` becoming each name the file's
    definitions give."""
    out: list[CriterionColumns] = []
    for columns in mapping.criteria:
        if columns.name != FROM_DEFINITION:
            out.append(columns)
            continue
        names = dict.fromkeys(j.criterion for j in parsed.judgements)
        out += [replace(columns, name=name) for name in names]
    return out


def mapped_criteria_store(
    *, campaign: Campaign, mapping: Mapping, parsed: ParsedMapped, source: str
) -> tuple[dict[str, Criterion], list[str], list[str]]:
    """The file's criteria by name, created when the campaign lacks them; the names
    created, and how each created one got its scale. A criterion that holds the
    judgements of a file of this name already is an error."""
    criteria: dict[str, Criterion] = {}
    created: list[str] = []
    scales: list[str] = []  # how each criterion created got its scale
    for columns in _criteria_columns(mapping, parsed):
        criterion, new, how = _criterion(
            campaign=campaign,
            columns=columns,
            parsed=parsed,
            definition=parsed.definitions.get(columns.name),
            definition_field=mapping.definition,
        )
        criteria[columns.name] = criterion
        _likert_check(
            mapping=mapping,
            parsed=parsed,
            columns=columns,
            criterion=criterion,
            source=how.removeprefix(f"{_scale_text(criterion)}, ")
            if new
            else "the campaign's criterion",
        )
        if new:
            created.append(columns.name)
            scales.append(f"{columns.name}: {how}")
        elif Judgement.objects.filter(criterion=criterion, metadata__source=source).exists():
            raise ImportFileError(
                f"criterion '{criterion.name}' of campaign '{campaign.slug}' already holds the "
                "judgements of a file with this name (imported before?); nothing was written.",
                file=parsed.file,
            )
    return criteria, created, scales


def mapped_preview_scales(
    *, campaign: Campaign | None, mapping: Mapping, parsed: ParsedMapped
) -> list[str]:
    """Per criterion of the mapping, the scale an import would give it, and from what
    (the preview says so before anything is written). A scale inferred here is
    inferred from the previewed rows only; the import infers it from every row."""
    notes: list[str] = []
    for columns in _criteria_columns(mapping, parsed):
        name = columns.name
        existing = criterion_by_name(campaign, name) if campaign is not None else None
        preset = CRITERION_PRESETS.get(name)
        if existing is not None:
            how = f"the campaign's criterion: {_scale_text(existing)}"
        elif name in parsed.definitions:
            how = f"new, {parsed.definitions[name].get('scale')} as the file's definition gives it"
        elif _preset_fits(preset, columns):
            values = _level_values(preset.get("scale_settings"))
            shown = f" (levels {', '.join(map(str, values))})" if values else ""
            how = f"new, {preset['scale']}{shown} from the criterion preset '{name}'"
        elif columns.levels:
            how = f"new, Likert with the mapping's levels {', '.join(map(str, columns.levels))}"
        elif columns.scale:
            how = f"new, {columns.scale} (the mapping's scale)"
        else:
            scores = [x for j in parsed.judgements if j.criterion == name for x in j.scores]
            scale, levels, reason = scale_inferred(scores)
            shown = f" (levels {', '.join(map(str, levels))})" if levels else ""
            how = (
                f"new, {scale}{shown} inferred from the {len(parsed.rows)} rows shown "
                f"({reason}; the import infers from every row): give scale and levels in the "
                "mapping to choose"
            )
        notes.append(f"{name}: {how}." + _off_levels(parsed, name, existing, preset, columns))
    return notes


def _off_levels(
    parsed: ParsedMapped,
    name: str,
    existing: Criterion | None,
    preset: dict[str, Any] | None,
    columns: CriterionColumns,
) -> str:
    """What the preview adds when rows it shows hold scores off the Likert levels it
    states (the campaign's criterion, the preset's or the mapping's): the import would
    refuse them, where the preview passed them."""
    levels: set[float] = set()
    if existing is not None:
        if existing.scale == Criterion.Scale.LIKERT:
            levels = set(_level_values(existing.scale_settings))
        source = "the campaign's criterion"
    elif name in parsed.definitions:
        return ""  # the file's own definition: checked as the import reads it
    elif _preset_fits(preset, columns):
        if preset["scale"] == Criterion.Scale.LIKERT:
            levels = set(_level_values(preset.get("scale_settings")))
        source = f"the criterion preset '{name}'"
    elif columns.levels:
        levels = set(columns.levels)
        source = "the mapping"
    else:
        return ""
    if not levels:
        return ""
    off = sorted({x for j in parsed.judgements if j.criterion == name for x in j.scores} - levels)
    if not off:
        return ""
    shown = ", ".join(f"{v:g}" for v in off[:10])
    return (
        f" The rows shown hold {shown}, not among the levels of {source}: the import would "
        "refuse them. Give the mapping this criterion's own levels (levels=1 2 3 ...) or "
        "map it to another name."
    )
