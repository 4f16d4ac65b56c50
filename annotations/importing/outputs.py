"""Imports of system outputs: a CSV, a JSONL file or a folder of E2E ``<system>.tsv``,
from a path on the server or from uploaded files (``outputs_import_uploads``)."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from django.db import transaction

from annotations.core.languages import LanguageError, language_check
from annotations.importing.parsers.common import ParsedOutputs, collapse_whitespace
from annotations.importing.parsers.e2e_outputs import (
    PARTICIPANTS_FILE,
    parse_e2e_outputs,
    parse_participants,
    participant_for,
)
from annotations.importing.parsers.generic_csv import COLUMNS as GENERIC_COLUMNS
from annotations.importing.parsers.generic_csv import parse_outputs_csv
from annotations.importing.parsers.generic_jsonl import parse_outputs_jsonl
from annotations.models import Campaign, Output
from annotations.services.campaigns import campaign_get_or_create
from annotations.services.outputs import outputs_store, systems_describe
from common.errors import DomainError, ImportFileError
from common.queries import row_lock

# --------------------------------------------------------------------------------------
# Outputs


@dataclass(frozen=True)
class OutputsImported:
    file: str
    systems: int
    items: int
    outputs: int
    identical_groups: int
    systems_named: int = 0
    # New systems that no built task shows yet (tasks were built before this import):
    # they will never be judged unless the tasks are rebuilt.
    systems_not_in_tasks: tuple[str, ...] = ()
    #: what the designer should know about the outputs as stored, in sentences (outputs
    #: that look written the other way than their language: ``direction_warnings``)
    warnings: tuple[str, ...] = ()


_WRITTEN = {"rtl": "right to left (such as Arabic or Hebrew)", "ltr": "left to right"}


def direction_warnings(unlike: dict[tuple[str, str], int]) -> tuple[str, ...]:
    """A sentence per language whose outputs look written the other way: workers would
    see them in the wrong direction (an Arabic output's final period on its left)."""
    return tuple(
        f"{n:,} output{'s' if n != 1 else ''} in '{language}' look{'s' if n == 1 else ''} "
        f"written {_WRITTEN[written]}, but '{language}' is written "
        f"{_WRITTEN['ltr' if written == 'rtl' else 'rtl']}, so workers would see "
        f"{'it' if n == 1 else 'them'} that way. The file gives no language, so the "
        "campaign's was taken. If that is wrong, give each output's language in a "
        "'language' column (for example ar or he), remove the uploaded outputs (the "
        "campaign page's 'Remove all uploaded outputs', while no task has been handed out) "
        "and upload the file again."
        for (language, written), n in sorted(unlike.items())
    )


def _names_generic_columns(start: bytes) -> bool:
    """Whether a TSV file's first line (in ``start``, its first bytes) names the generic
    columns (``item_id``, ``input``, ``system``, ``output``): then it is read as the CSV
    is, with tabs, not as an E2E ``<system>.tsv``."""
    first = start.split(b"\n", 1)[0].decode("utf-8-sig", "replace")
    return set(GENERIC_COLUMNS) <= {name.strip() for name in first.split("\t")}


def _has_generic_columns(path: Path) -> bool:
    with path.open("rb") as fh:
        return _names_generic_columns(fh.readline(64 * 1024))


def _parse_outputs(path: Path) -> ParsedOutputs:
    if path.is_dir():
        return parse_e2e_outputs(path)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return parse_outputs_csv(path)
    if suffix in (".jsonl", ".ndjson"):
        return parse_outputs_jsonl(path)
    if suffix == ".tsv":
        if _has_generic_columns(path):
            return parse_outputs_csv(path, delimiter="\t")
        raise ImportFileError(
            "a single TSV file without the columns item_id, input, system and output: give "
            "those columns (one output a line, as in the CSV), or the folder of E2E "
            "<system>.tsv files.",
            file=str(path),
            line=1,
        )
    raise ImportFileError(
        "unknown format: expected a .csv or .jsonl file or a folder of <system>.tsv files.",
        file=str(path),
    )


def outputs_check_against(campaign: Campaign, parsed: ParsedOutputs) -> None:
    """Refuse outputs the campaign has already, and items whose input would change."""
    names = parsed.field_names
    inputs = dict(campaign.items.values_list("external_id", "input"))
    attributes = dict(
        campaign.items.exclude(attributes={}).values_list("external_id", "attributes")
    )
    existing = set(
        Output.objects.filter(item__campaign=campaign).values_list(
            "item__external_id", "system__label"
        )
    )
    for row, (file, line) in zip(parsed.rows, parsed.where, strict=True):
        has = attributes.get(row.item_id, {})
        for name, value in row.attributes:
            if name in has and has[name] != value:
                raise ImportFileError(
                    f"item '{row.item_id}' of campaign '{campaign.slug}' already has {name} "
                    f"'{has[name]}', not '{value}'.",
                    file=file,
                    line=line,
                    field=f"attr:{name}",
                )
        if (row.item_id, row.system) in existing:
            raise ImportFileError(
                f"campaign '{campaign.slug}' already has the output of system '{row.system}' "
                f"for item '{row.item_id}' (imported before?); nothing was written.",
                file=file,
                line=line,
                field=names["output"],
            )
        known = inputs.get(row.item_id)
        if known is not None and collapse_whitespace(known) != collapse_whitespace(row.input):
            raise ImportFileError(
                f"item '{row.item_id}' of campaign '{campaign.slug}' has a different input "
                f"('{known[:80]}').",
                file=file,
                line=line,
                field=names["input"],
            )


def systems_name(campaign: Campaign, folder: Path) -> int:
    """Fill System.name and metadata from participants.tsv; returns systems named."""
    path = folder / PARTICIPANTS_FILE
    if not path.is_file():
        return 0
    participants = parse_participants(path)

    def describe(label: str) -> tuple[str, dict[str, str]] | None:
        participant = participant_for(label, participants)
        if participant is None:
            return None
        return participant.name, {
            "participant": participant.label,
            "affiliation": participant.affiliation,
        }

    return systems_describe(campaign=campaign, describe=describe)


def outputs_refuse_unless_draft(campaign: Campaign) -> None:
    status = Campaign.objects.filter(pk=campaign.pk).values_list("status", flat=True).first()
    if status is not None and status != Campaign.Status.DRAFT:
        label = Campaign.Status(status).label.lower()
        raise DomainError(
            f"Campaign '{campaign.slug}' is {label}: outputs can only be added to a draft "
            "campaign, since its tasks were built from the outputs it had and workers "
            "may be judging them. Nothing was imported; for new systems, start a new "
            "campaign (or a second round)."
        )


@transaction.atomic
def outputs_import(
    *,
    campaign: Campaign,
    path: Path,
    progress: Callable[[int, int], None] | None = None,
    language: str = "",
) -> OutputsImported:
    """Import outputs from a CSV, a JSONL file or a folder of E2E ``<system>.tsv`` files.

    The format is chosen by the extension (a folder is E2E-style; its
    ``participants.tsv`` names the systems). All or nothing. Only a draft campaign
    takes outputs (a live, paused, closed or archived one is refused). New systems
    that tasks built earlier do not show are named in ``systems_not_in_tasks`` (the
    designer must rebuild the tasks, or they are never judged).
    ``progress(outputs written, outputs to write)`` reports the writing. ``language``
    (BCP 47) is the outputs' language where the file gives none (a ``language`` column
    or key); else the campaign's first. Languages the campaign lacks are added to it.
    """
    outputs_refuse_unless_draft(campaign)
    if language:
        try:
            language = language_check(language)
        except LanguageError as exc:
            raise DomainError(f"The outputs' language: {exc}", field="language") from exc
    path = Path(path)
    parsed = _parse_outputs(path)
    # One import into a campaign at a time: the check below then sees what an upload
    # sent at once stored (outputs_store locks the row too, after it, too late for it).
    row_lock(Campaign, campaign.pk)
    outputs_check_against(campaign, parsed)
    if progress is not None:
        progress(0, len(parsed.rows))
    stored = outputs_store(
        campaign=campaign, rows=parsed.rows, language=language, progress=progress
    )
    # New systems that tasks built before this import do not show.
    unjudged: tuple[str, ...] = ()
    if stored.systems_new and campaign.tasks.exists():
        unjudged = stored.systems_new
    named = 0
    if path.is_dir():
        named = systems_name(campaign, path)
    return OutputsImported(
        file=str(path),
        systems=stored.systems,
        items=stored.items,
        outputs=stored.outputs,
        identical_groups=stored.identical_groups,
        systems_named=named,
        systems_not_in_tasks=unjudged,
        warnings=direction_warnings(stored.directions_unlike),
    )


@transaction.atomic
def outputs_import_into(
    *, campaign_slug: str, path: Path, language: str = ""
) -> tuple[Campaign, bool, OutputsImported]:
    """:func:`outputs_import` into the campaign of that slug, created as a draft when
    there is none, in one transaction: on a bad file nothing is written, not even the
    campaign. Returns the campaign, whether it was created, and the summary."""
    campaign, created = campaign_get_or_create(slug=campaign_slug)
    return campaign, created, outputs_import(campaign=campaign, path=path, language=language)


# Uploaded files (the web page, the API and background jobs)


class UploadTooLargeError(ImportFileError):
    """An upload over ``settings.IMPORT_UPLOAD_MAX_BYTES`` (HTTP 413)."""


@dataclass(frozen=True)
class Upload:
    """An uploaded file: the name the designer gave it (no folders) and its bytes."""

    name: str
    data: bytes


def uploads_refuse_if_none(uploads: Sequence[object]) -> None:
    """Refuse an upload of no file (the form, the API, the job and the import say it
    alike)."""
    if not uploads:
        raise DomainError("Choose at least one file to upload.")


def _scrub(text: str, tmp: str) -> str:
    """A message without the server's temporary folder: only the uploaded file names."""
    text = re.sub(re.escape(tmp) + r"/(?:outputs|\d+)/", "", text)
    return text.replace(tmp + "/outputs", "the uploaded .tsv files").replace(tmp, "upload")


def outputs_import_uploads(
    *,
    campaign: Campaign,
    uploads: Sequence[Upload],
    progress: Callable[[int, int], None] | None = None,
) -> list[OutputsImported]:
    """Import uploaded output files (any outputs format) into a draft campaign.

    E2E-style ``<system>.tsv`` files (and ``participants.tsv``) form one folder; every
    other file is imported on its own (a TSV whose header names the generic columns is
    read as the CSV is). All files go in one transaction: when one fails,
    nothing of any file is kept, and the error names the uploaded file (never a path
    on the server), the line and the field.
    """
    uploads_refuse_if_none(uploads)
    outputs_refuse_unless_draft(campaign)
    with tempfile.TemporaryDirectory(prefix="humaneval-upload-") as tmp:
        folder = Path(tmp) / "outputs"
        paths: list[Path] = []
        for i, upload in enumerate(uploads):
            if upload.name.lower().endswith(".tsv") and not _names_generic_columns(
                upload.data[: 64 * 1024]
            ):
                folder.mkdir(exist_ok=True)
                path = folder / upload.name
            else:
                (Path(tmp) / str(i)).mkdir()
                path = Path(tmp) / str(i) / upload.name
                paths.append(path)
            path.write_bytes(upload.data)
        if folder.exists():
            paths.insert(0, folder)
        offset = [0, 0]

        def report(done: int, total: int) -> None:
            if progress is not None:
                progress(offset[0] + done, offset[1] + total)

        results = []
        try:
            with transaction.atomic():
                for path in paths:
                    result = outputs_import(campaign=campaign, path=path, progress=report)
                    offset[0] += result.outputs
                    offset[1] += result.outputs
                    results.append(result)
        except ImportFileError as exc:
            raise ImportFileError(
                _scrub(exc.reason, tmp),
                file=_scrub(exc.file, tmp),
                line=exc.line,
                field=exc.field,
            ) from exc
        except DomainError as exc:
            raise DomainError(_scrub(str(exc), tmp)) from exc
    return [replace(r, file=_scrub(r.file, tmp)) for r in results]
