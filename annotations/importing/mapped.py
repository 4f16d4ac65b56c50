"""Imports of column-mapped rating files (any platform's export, read through a
:class:`~annotations.importing.parsers.mapped.mapping.Mapping`): a file on the server or
an upload, during the request or as a background job, and the upload's preview. The
steps are ``annotations.importing.mapped_criteria`` (the criteria) and
``annotations.importing.mapped_rows`` (items, outputs, judgements); the mappings
themselves are ``annotations.importing.mappings``."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction

from annotations.importing import jobs
from annotations.importing.mapped_criteria import mapped_criteria_store
from annotations.importing.mapped_rows import (
    mapped_judgements_finished,
    mapped_judgements_store,
    mapped_outputs_store,
)
from annotations.importing.mappings import mapping_parse
from annotations.importing.outputs import Upload, direction_warnings
from annotations.importing.parsers.mapped import (
    ParsedMapped,
    left_out_sentences,
    parse_mapped,
    preview_mapped,
)
from annotations.importing.parsers.mapped.mapping import Mapping
from annotations.importing.parsers.mapped.rows import AGGREGATE_WORKER
from annotations.importing.parsers.mapped.source import file_columns
from annotations.models import Campaign, ImportJob
from annotations.services.campaigns import campaign_get_or_create
from annotations.services.finished_judgements import judgements_refuse_if_archived
from common.errors import DomainError, ImportFileError
from common.queries import row_lock

#: ImportJob.kind of a mapped ratings import run in the background
JOB_KIND = "ratings"

# --------------------------------------------------------------------------------------
# Import


@dataclass(frozen=True)
class MappedImported:
    file: str
    judgements: int
    skipped: int
    rows: int
    criteria: tuple[str, ...]
    criteria_created: tuple[str, ...]
    items_created: int
    outputs_created: int
    workers: int
    texts_differing: int
    inputs_filled: int = 0
    #: per criterion created: "name: scale, from what" (a preset, the mapping, inferred)
    scales: tuple[str, ...] = ()
    #: judgements given the worker ``aggregate`` (the mapping names no worker column)
    aggregate: int = 0
    #: outputs created without a language in the file, and the campaign's they took
    languages_defaulted: int = 0
    default_language: str = ""
    #: outputs created written the other way than their language, in sentences
    #: (``annotations.importing.outputs.direction_warnings``)
    directions: tuple[str, ...] = ()
    #: rows the mapping's ``skip_rows`` left out, by column and value
    left_out: dict[str, dict[str, int]] = field(default_factory=dict)
    #: the columns ``skip_rows`` reads that the file lacks
    skip_rows_absent: tuple[str, ...] = ()

    def summary(self) -> dict[str, Any]:
        """The fields (tuples as lists, the file's name without folders) and the notes."""
        data = {k: list(v) if isinstance(v, tuple) else v for k, v in self.__dict__.items()}
        return {**data, "file": Path(self.file).name, "notes": self.notes()}

    def notes(self) -> list[str]:
        """What the import did that the counts do not say, in sentences (the command and
        the import page show them)."""
        notes = [f"Scale of the criterion {how}." for how in self.scales]
        for clause in left_out_sentences(self.left_out):
            notes.append(f"Left out {clause} (the mapping's skip_rows).")
        if self.skip_rows_absent:
            notes.append(
                f"The file has no {', '.join(self.skip_rows_absent)} column: the mapping's "
                "skip_rows left no row out by it."
            )
        if self.texts_differing:
            notes.append(
                f"Texts differing: {self.texts_differing} output slots showed the worker a "
                "text other than the output's stored text (the campaign's output of that "
                "system for that item, or the first row's text in this file); the text "
                "shown is kept with the task and exported."
            )
        if self.inputs_filled:
            notes.append(
                f"Inputs filled: {self.inputs_filled} items the campaign had without an "
                "input took the file's."
            )
        if self.languages_defaulted:
            notes.append(
                f"Languages defaulted: the file gives no language for {self.languages_defaulted} "
                f"new outputs (no language column, an empty cell or -1); they are stored in the "
                f"campaign's language, '{self.default_language}', and counted so by the datasheet."
            )
        if self.aggregate:
            notes.append(
                f"Worker '{AGGREGATE_WORKER}': the mapping names no worker column, so the "
                f"{self.aggregate} judgements are stored as those of one worker "
                f"'{AGGREGATE_WORKER}' (an aggregated report)."
            )
        return [*notes, *self.directions]


def _store(
    *,
    campaign: Campaign,
    mapping: Mapping,
    parsed: ParsedMapped,
    source: str,
    experts: bool,
    progress: Callable[[int, int], None] | None,
) -> MappedImported:
    # One import into a campaign at a time: a file sent twice at once (two tabs, a
    # retried upload) is then refused as imported before, not by a criterion's or an
    # output's unique constraint.
    row_lock(Campaign, campaign.pk)
    judgements_refuse_if_archived(campaign)  # before any criterion, item or output
    criteria, created, scales = mapped_criteria_store(
        campaign=campaign, mapping=mapping, parsed=parsed, source=source
    )
    stored = mapped_outputs_store(campaign=campaign, mapping=mapping, parsed=parsed)
    finished, differing = mapped_judgements_finished(
        mapping=mapping, parsed=parsed, outputs=stored.outputs, criteria=criteria, source=source
    )
    count = mapped_judgements_store(
        campaign=campaign, criteria=criteria, finished=finished, experts=experts, progress=progress
    )
    return MappedImported(
        file=parsed.file,
        judgements=count,
        skipped=parsed.skipped,
        rows=len(parsed.rows),
        criteria=tuple(criteria),
        criteria_created=tuple(created),
        items_created=stored.items_created,
        outputs_created=stored.outputs_created,
        workers=len({j.worker_id for j in parsed.judgements}),
        texts_differing=differing,
        inputs_filled=stored.inputs_filled,
        scales=tuple(scales),
        aggregate=sum(j.worker_id == AGGREGATE_WORKER for j in parsed.judgements)
        if not mapping.worker
        else 0,
        directions=direction_warnings(stored.directions_unlike),
        languages_defaulted=stored.languages_defaulted,
        default_language=campaign.default_language,
        left_out={column: dict(counts) for column, counts in parsed.left_out.items()},
        skip_rows_absent=parsed.skip_rows_absent,
    )


@transaction.atomic
def mapped_import(
    *,
    campaign: Campaign,
    path: Path,
    mapping: Mapping,
    source: str = "",
    experts: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> MappedImported:
    """Import a rating file read through ``mapping`` into ``campaign``: all or nothing.

    The whole file is parsed first (errors name the file, line and field). Criteria the
    campaign lacks are created (as the file's ``definition`` column gives them, else a
    criterion preset of the same name, else the mapping's scale, else a scale the scores
    fit: Likert for whole numbers 0-10, slider for 0-100, magnitude otherwise; a new
    criterion offers the content checks its ``checks`` columns hold); one that exists
    with another scale than the mapping's (or the definition's) is an error. Content
    checks, coverage labels and ranks mapped per slot are stored with the scores, a
    ``metadata_json`` column's object and the ``metadata`` columns with the judgement. Items (external id = the item column, input = the input column) and outputs
    (text = the output column, "" without one) are created when missing (an item without
    an input takes the file's; a Likert score outside the criterion's levels is refused,
    naming file, line and column); a shown text
    that differs from the stored output is kept with the judgement's slot. Rows of one
    unit share a task; rows without a unit share one when they show the same item and
    systems (``judgements_store_finished``). Workers are ``imported`` workers (experts
    with ``experts``). ``source`` (default: the file name) is kept in every judgement's
    metadata; a source imported before under a criterion is refused.
    """
    parsed = parse_mapped(Path(path), mapping)
    return _store(
        campaign=campaign,
        mapping=mapping,
        parsed=parsed,
        source=source or Path(path).name,
        experts=experts,
        progress=progress,
    )


@transaction.atomic
def mapped_import_into(
    *, campaign_slug: str, path: Path, mapping: Mapping, experts: bool = False
) -> tuple[Campaign, bool, MappedImported]:
    """:func:`mapped_import` into the campaign of that slug (created when missing), all or
    nothing, the campaign too; with whether it was created."""
    campaign, created = campaign_get_or_create(slug=campaign_slug)
    summary = mapped_import(campaign=campaign, path=path, mapping=mapping, experts=experts)
    return campaign, created, summary


def _with_file(upload: Upload, fn: Callable[[Path], Any]) -> Any:
    """``fn`` on the upload written to a temporary file named as the upload (so that
    errors name the uploaded file, never a server path)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / upload.name
        path.write_bytes(upload.data)
        try:
            return fn(path)
        except ImportFileError as exc:
            if exc.file == str(path):
                raise ImportFileError(
                    exc.reason, file=upload.name, line=exc.line, field=exc.field
                ) from exc
            raise


def mapped_import_upload(
    *,
    campaign: Campaign,
    upload: Upload,
    mapping: Mapping,
    experts: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> MappedImported:
    """:func:`mapped_import` of an uploaded file (errors name the upload)."""
    result: MappedImported = _with_file(
        upload,
        lambda path: mapped_import(
            campaign=campaign,
            path=path,
            mapping=mapping,
            source=upload.name,
            experts=experts,
            progress=progress,
        ),
    )
    return MappedImported(**{**result.__dict__, "file": upload.name})


def mapped_preview_upload(*, upload: Upload, mapping: Mapping, rows: int = 5) -> ParsedMapped:
    """The first rows of an uploaded file as parsed (nothing is written)."""
    parsed: ParsedMapped = _with_file(upload, lambda path: preview_mapped(path, mapping, rows=rows))
    return replace(parsed, file=upload.name)


# --------------------------------------------------------------------------------------
# Uploads: during the request, or as a background job when large


@dataclass(frozen=True)
class MappedUploadOutcome:
    result: MappedImported | None = None
    job: ImportJob | None = None


def mapped_upload(
    *,
    campaign: Campaign,
    upload: Upload,
    mapping: Mapping,
    user: Any = None,
    experts: bool = False,
) -> MappedUploadOutcome:
    """Import an uploaded rating file: during the request when small, else as an
    ``ImportJob`` (kind ``ratings``) run by the Celery task ``annotations.import_job_run``
    once the job row is committed; the job keeps the file and the mapping."""
    if len(upload.data) <= settings.IMPORT_INLINE_MAX_BYTES:
        return MappedUploadOutcome(
            result=mapped_import_upload(
                campaign=campaign, upload=upload, mapping=mapping, experts=experts
            )
        )
    with transaction.atomic():
        job = ImportJob.objects.create(
            campaign=campaign,
            kind=JOB_KIND,
            filename=upload.name[:255],
            data=jobs._uploads_pack([upload]),
            options={"files": [upload.name], "mapping": mapping.to_dict(), "experts": experts},
            created_by=user if user is not None and user.is_authenticated else None,
        )
        transaction.on_commit(lambda: jobs.import_job_dispatch(job.pk))
    return MappedUploadOutcome(job=job)


def mapped_job_import(
    *, job: ImportJob, uploads: list[Upload], progress: Callable[[int, int], None]
) -> dict[str, Any]:
    """Run a ``ratings`` job's import (called by ``import_job_run``); its summary."""
    mapping = mapping_parse(job.options.get("mapping", {}))
    result = mapped_import_upload(
        campaign=job.campaign,
        upload=uploads[0],
        mapping=mapping,
        experts=bool(job.options.get("experts", False)),
        progress=progress,
    )
    return result.summary()


def mapped_columns_upload(*, upload: Upload, fmt: str) -> list[str]:
    """The uploaded file's column names (JSONL: the first object's keys); [] when the
    file cannot be read as ``fmt`` (the preview's error says why)."""
    try:
        columns: list[str] = _with_file(upload, lambda path: file_columns(path, fmt))
    except DomainError:
        return []
    return columns
