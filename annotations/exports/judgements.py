"""Raw judgements out: E2E-like CSV, JSONL and the WMT ranking CSV, all streamed.

Every function yields text lines from a queryset read with ``iterator(chunk_size=...)``,
so a large campaign never sits in memory; views wrap them in a
``StreamingHttpResponse`` and the ``export_judgements`` command writes them to a file.

Exported are the judgements that count (``selectors.judgements``): regular and imported
tasks, first answers (no repeats), regular outputs (no degraded attention copies). ``include_excluded``
keeps workers an organizer excluded (default: yes, the raw data is complete); every
format says which workers were excluded or flagged, so a reader can leave them out.

The CSV formats are safe to open in a spreadsheet: every cell goes through
``export_safety.csv_cell`` (a worker's own id like ``=HYPERLINK(...)`` is inert text).
Their first line stays the header that E2E and WMT readers expect, so the criterion's
RankME standard (value, input and text) is given in columns of its own on every row
of the E2E-like CSV rather than in a comment line those readers would choke on. JSONL
is raw JSON: values are data there, never formulas.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.db.models import Count, Max, Prefetch, QuerySet

from annotations.core.export_safety import csv_row
from annotations.models import Criterion, Judgement, JudgementScore, TaskOutput
from annotations.selectors.judgements import judgements_counted, regular_q
from common.errors import DomainError
from common.tables import csv_writer

FORMATS: dict[str, tuple[str, str]] = {
    # format: (content type, file extension)
    "csv": ("text/csv; charset=utf-8", "csv"),
    "jsonl": ("application/x-ndjson; charset=utf-8", "jsonl"),
    "wmt": ("text/csv; charset=utf-8", "wmt.csv"),
}

# CrowdFlower's time format, as in the E2E release (UTC).
E2E_TIME_FORMAT = "%m/%d/%Y %H:%M:%S"


@dataclass(frozen=True)
class ExportedOutput:
    slot: int
    system: str
    text: str
    score: float
    rank: float
    coverage: str
    checks: tuple[str, ...] = ()


@dataclass(frozen=True)
class ExportedJudgement:
    judgement_id: int
    unit_id: str
    worker_id: str
    platform: str
    worker_excluded: bool
    worker_flagged: bool
    started_at: datetime
    submitted_at: datetime
    seconds_on_task: float
    too_fast: bool
    item_id: str
    input: str
    item_position: int
    outputs: list[ExportedOutput]
    language: str = "en"
    metadata: dict[str, Any] = field(default_factory=dict)


def judgements_for_export(
    *,
    criterion: Criterion,
    include_excluded: bool = True,
    where: Mapping[str, str] | None = None,
) -> QuerySet[Judgement]:
    """The criterion's counted judgements (``selectors.judgements``) with their items,
    workers and regular scores, oldest first."""
    qs = judgements_counted(
        criterion=criterion, exclude_excluded_workers=not include_excluded, where=where
    )
    scores = (
        JudgementScore.objects.filter(regular_q())
        .select_related("output__system")
        .order_by("slot", "id")
    )
    # The texts a task showed instead of its outputs' own (an import keeps the text each
    # judge saw there): exported as the text of the output, so a round trip keeps it.
    shown = TaskOutput.objects.filter(regular_q()).exclude(text="")
    return (
        qs.select_related("task__item", "worker")
        .prefetch_related(
            Prefetch("scores", queryset=scores),
            Prefetch("task__task_outputs", queryset=shown, to_attr="shown_texts"),
        )
        .order_by("submitted_at", "id")
    )


def judgement_records(
    *,
    criterion: Criterion,
    include_excluded: bool = True,
    chunk_size: int = 500,
    where: Mapping[str, str] | None = None,
) -> Iterator[ExportedJudgement]:
    """The criterion's counted judgements, oldest first, read in chunks. An output's
    text is the text the worker saw: the task's own (``TaskOutput.text``) when set."""
    qs = judgements_for_export(criterion=criterion, include_excluded=include_excluded, where=where)
    for j in qs.iterator(chunk_size=chunk_size):
        task = j.task
        shown = {t.output_id: t.text for t in task.shown_texts}  # type: ignore[attr-defined]
        yield ExportedJudgement(
            judgement_id=j.pk,
            unit_id=task.external_id or str(task.pk),
            worker_id=j.worker.external_id,
            platform=j.worker.platform,
            worker_excluded=j.worker.excluded,
            worker_flagged=j.worker.flagged,
            started_at=j.started_at,
            submitted_at=j.submitted_at,
            seconds_on_task=j.seconds_on_task,
            too_fast=j.too_fast,
            item_id=task.item.external_id,
            input=task.item.input,
            language=task.language,
            metadata=_metadata(j.metadata),
            item_position=task.item.position,
            outputs=[
                ExportedOutput(
                    slot=s.slot,
                    system=s.output.system.label,
                    text=shown.get(s.output_id) or s.output.text,
                    score=s.score,
                    rank=s.rank,
                    coverage=s.coverage,
                    checks=tuple(s.checks or ()),
                )
                for s in j.scores.all()
            ],
        )


#: keys an import adds to a judgement's metadata about the file it read (the file's name
#: and line): they describe that import, not the judgement, and a re-import sets its own
IMPORT_KEYS = frozenset({"source", "line", "wmt_file"})


def _metadata(metadata: Mapping[str, Any] | None) -> dict[str, Any]:
    """A judgement's metadata as exported: what it was imported with (a platform's
    columns: ``_channel``, ``_trust``, ``check1``...), without the import's own keys."""
    return {k: v for k, v in (metadata or {}).items() if k not in IMPORT_KEYS}


def criterion_definition(criterion: Criterion) -> dict[str, Any]:
    """What a re-import needs to create the criterion as it is: its name, scale, scale
    settings (the Likert levels, the standard's value), content checks, question and
    standard (``definition`` of a mapping; the ``humaneval-csv`` and ``humaneval-jsonl``
    presets read it)."""
    return {
        "name": criterion.name,
        "scale": criterion.scale,
        "scale_settings": criterion.scale_settings or {},
        "content_checks": list(criterion.content_checks or []),
        "question": criterion.question,
        "show_input": criterion.show_input,
        "standard_input": criterion.standard_input,
        "standard_text": criterion.standard_text,
    }


def _width(criterion: Criterion) -> int:
    """Output columns: the design's k, or more when a judgement holds more outputs."""
    most = (
        Judgement.objects.filter(criterion=criterion)
        .annotate(n=Count("scores", filter=regular_q(prefix="scores__")))
        .aggregate(m=Max("n"))["m"]
    )
    return max(criterion.campaign.outputs_per_task, most or 0)


def _line(row: Iterable[object]) -> str:
    """One CSV line, every cell neutralised against spreadsheet formulas."""
    buffer = io.StringIO()
    csv_writer(buffer, lineterminator="\n").writerow(csv_row(row))
    return buffer.getvalue()


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _e2e_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime(E2E_TIME_FORMAT)


# Score-column prefixes of the E2E release (other criteria use their own name).
E2E_PREFIXES = {"quality": "quality", "naturalness": "natur"}


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _standard(criterion: Criterion) -> tuple[str, str, str]:
    """The criterion's RankME standard (value, input, text); blank unless magnitude."""
    if criterion.scale != Criterion.Scale.MAGNITUDE:
        return "", "", ""
    return str(criterion.standard), criterion.standard_input, criterion.standard_text


def csv_header(*, criterion: Criterion, width: int) -> list[str]:
    prefix = E2E_PREFIXES.get(criterion.name, criterion.name)
    numbered = [
        *(f"sys{i}" for i in range(1, width + 1)),
        *(f"ref{i}" for i in range(1, width + 1)),
        *(f"{prefix}{i}" for i in range(1, width + 1)),
        *(f"check{i}" for i in range(1, width + 1)),
        *(f"dupl_ref{i}" for i in range(1, width + 1)),
    ]
    return [
        "_unit_id",
        "_id",
        "_worker_id",
        "_started_at",
        "_created_at",
        "_platform",
        "_seconds",
        "_too_fast",
        "mr",
        "mr_id",
        "item_id",
        *numbered,
        # Added after the E2E columns, so positional E2E readers are unaffected.
        "_worker_excluded",
        "_worker_flagged",
        *(f"content_checks{i}" for i in range(1, width + 1)),
        "_standard",
        "_standard_input",
        "_standard_text",
        "_language",
        # Read by the humaneval-csv preset: scores under one name whatever the criterion,
        # the criterion's definition and each judgement's metadata (JSON).
        *(f"score{i}" for i in range(1, width + 1)),
        *(f"rank{i}" for i in range(1, width + 1)),
        "_criterion",
        "_metadata",
    ]


def csv_lines(
    *,
    criterion: Criterion,
    include_excluded: bool = True,
    chunk_size: int = 500,
    where: Mapping[str, str] | None = None,
) -> Iterator[str]:
    """E2E-like CSV: one row per judgement, outputs in display-slot order.

    ``dupl_ref<i>`` names the column of an identical output shown once (same slot), as
    in the E2E release; ``check<i>`` holds a coverage label where one was collected.
    ``_worker_excluded``/``_worker_flagged`` mark the worker; ``content_checks<i>`` the
    content checks ticked for output i (``;``-separated keys: added, missing, perfect);
    ``_standard``, ``_standard_input`` and ``_standard_text`` the criterion's RankME
    standard (magnitude criteria; blank otherwise), the same on every row; ``_language``
    the outputs' language (BCP 47); ``score<i>`` the scores again under a name that is
    the same for every criterion and ``rank<i>`` their ranks; ``_criterion`` the criterion's definition (JSON:
    :func:`criterion_definition`), the same on every row; ``_metadata`` the judgement's
    metadata (JSON). The ``humaneval-csv`` preset re-imports it whatever the criterion.
    """
    width = _width(criterion)
    standard = _standard(criterion)
    definition = json.dumps(criterion_definition(criterion), ensure_ascii=False)
    yield _line(csv_header(criterion=criterion, width=width))
    for record in judgement_records(
        criterion=criterion, include_excluded=include_excluded, chunk_size=chunk_size, where=where
    ):
        outs = record.outputs
        pad = [""] * (width - len(outs))
        twins = []
        for i, o in enumerate(outs):
            twin = next(
                (j + 1 for j, other in enumerate(outs) if j != i and other.slot == o.slot), ""
            )
            twins.append(str(twin))
        yield _line(
            [
                record.unit_id,
                record.judgement_id,
                record.worker_id,
                _e2e_time(record.started_at),
                _e2e_time(record.submitted_at),
                record.platform,
                f"{record.seconds_on_task:g}",
                "true" if record.too_fast else "false",
                record.input,
                # E2E's mr_id is a positive number: the item's id when it is one.
                record.item_id if record.item_id.isdigit() else record.item_position + 1,
                record.item_id,
                *[o.system for o in outs],
                *pad,
                *[o.text for o in outs],
                *pad,
                *[_number(o.score) for o in outs],
                *pad,
                *[o.coverage for o in outs],
                *pad,
                *twins,
                *pad,
                _flag(record.worker_excluded),
                _flag(record.worker_flagged),
                *[";".join(o.checks) for o in outs],
                *pad,
                *standard,
                record.language,
                *[_number(o.score) for o in outs],
                *pad,
                *[_number(o.rank) for o in outs],
                *pad,
                definition,
                json.dumps(record.metadata, ensure_ascii=False, sort_keys=True),
            ]
        )


def jsonl_lines(
    *,
    criterion: Criterion,
    include_excluded: bool = True,
    chunk_size: int = 500,
    where: Mapping[str, str] | None = None,
) -> Iterator[str]:
    """One JSON object per judgement, full precision, ISO 8601 times.

    ``standard`` is the criterion's RankME standard (``null`` unless magnitude);
    ``definition`` the criterion's (:func:`criterion_definition`: the ``humaneval-jsonl``
    preset restores its scale, levels and content checks); ``metadata`` the judgement's;
    ``worker_excluded``/``worker_flagged`` mark the worker; each output lists the
    content ``checks`` the worker ticked.
    """
    value, standard_input, standard_text = _standard(criterion)
    standard = (
        {"value": int(value), "input": standard_input, "text": standard_text} if value else None
    )
    definition = criterion_definition(criterion)
    for r in judgement_records(
        criterion=criterion, include_excluded=include_excluded, chunk_size=chunk_size, where=where
    ):
        yield (
            json.dumps(
                {
                    "campaign": criterion.campaign.slug,
                    "criterion": criterion.name,
                    "unit_id": r.unit_id,
                    "worker_id": r.worker_id,
                    "platform": r.platform,
                    "worker_excluded": r.worker_excluded,
                    "worker_flagged": r.worker_flagged,
                    "started_at": r.started_at.isoformat(),
                    "submitted_at": r.submitted_at.isoformat(),
                    "seconds_on_task": r.seconds_on_task,
                    "too_fast": r.too_fast,
                    "item_id": r.item_id,
                    "input": r.input,
                    "language": r.language,
                    "outputs": [
                        {
                            "slot": o.slot,
                            "system": o.system,
                            "text": o.text,
                            "score": o.score,
                            "rank": o.rank,
                            "coverage": o.coverage,
                            "checks": list(o.checks),
                        }
                        for o in r.outputs
                    ],
                    "standard": standard,
                    "definition": definition,
                    "metadata": r.metadata,
                },
                ensure_ascii=False,
            )
            + "\n"
        )


def wmt_header(width: int) -> list[str]:
    return [
        "srclang",
        "trglang",
        "srcIndex",
        "documentId",
        "segmentId",
        "judgeId",
        *[f"system{i}{part}" for i in range(1, width + 1) for part in ("Number", "Id")],
        *[f"system{i}rank" for i in range(1, width + 1)],
        "judgeExcluded",
        "judgeFlagged",
    ]


def wmt_lines(
    *,
    criterion: Criterion,
    include_excluded: bool = True,
    srclang: str = "",
    trglang: str = "",
    chunk_size: int = 500,
    where: Mapping[str, str] | None = None,
) -> Iterator[str]:
    """The WMT13-15 ranking CSV (the format of wmt-trueskill): one row per judgement,
    rank 1 best, ties sharing a rank. There are as many systems per row as the widest
    judgement (five in WMT and E2E); shorter judgements are padded with rank -1, which
    WMT readers skip. ``segmentId`` is the item's external id. ``srclang``,
    ``srcIndex``, ``documentId`` and ``systemNNumber`` are those a WMT import kept
    (``import_wmt``: the judgement's metadata), else ``-1``, WMT's "not given" (the
    platform records no source language, source index, document or system number; it
    invents none). ``trglang`` is each judgement's language; ``srclang``/``trglang``
    given override every row's. ``judgeExcluded`` and ``judgeFlagged`` (extra columns
    WMT readers ignore) mark the worker.
    """
    width = _width(criterion)
    yield _line(wmt_header(width))
    for r in judgement_records(
        criterion=criterion, include_excluded=include_excluded, chunk_size=chunk_size, where=where
    ):
        pad = width - len(r.outputs)
        numbers = r.metadata.get("systemNumbers")
        numbers = numbers if isinstance(numbers, dict) else {}
        pairs: list[str] = []
        for o in r.outputs:
            pairs += [str(numbers.get(o.system) or "-1"), o.system]
        pairs += ["-1", ""] * pad
        ranks = [_number(o.rank) for o in r.outputs] + ["-1"] * pad
        yield _line(
            [
                srclang or r.metadata.get("srclang") or "-1",
                trglang or r.language,
                r.metadata.get("srcIndex") or "-1",
                r.metadata.get("documentId") or "-1",
                r.item_id,
                r.worker_id,
                *pairs,
                *ranks,
                _flag(r.worker_excluded),
                _flag(r.worker_flagged),
            ]
        )


def export_lines(
    *,
    criterion: Criterion,
    fmt: str,
    include_excluded: bool = True,
    where: Mapping[str, str] | None = None,
) -> Iterator[str]:
    """The criterion's judgements in ``fmt`` (one of :data:`FORMATS`), line by line; of
    a slice of the items with ``where`` (``core.slices``)."""
    if fmt == "csv":
        return csv_lines(criterion=criterion, include_excluded=include_excluded, where=where)
    if fmt == "jsonl":
        return jsonl_lines(criterion=criterion, include_excluded=include_excluded, where=where)
    if fmt == "wmt":
        return wmt_lines(criterion=criterion, include_excluded=include_excluded, where=where)
    raise DomainError(f"Unknown export format '{fmt}'; choose one of {', '.join(FORMATS)}.")


def export_filename(*, criterion: Criterion, fmt: str) -> str:
    return f"{criterion.campaign.slug}-{criterion.name}.{FORMATS[fmt][1]}"
