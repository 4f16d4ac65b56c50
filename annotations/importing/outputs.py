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
from annotations.core.outputs import OutputRow
from annotations.importing.parsers.common import ParsedOutputs, collapse_whitespace
from annotations.importing.parsers.e2e_outputs import (
    PARTICIPANTS_FILE,
    parse_e2e_outputs,
    parse_participants,
    participant_for,
)
from annotations.importing.parsers.generic_csv import parse_outputs_csv
from annotations.importing.parsers.generic_jsonl import parse_outputs_jsonl
from annotations.models import Campaign, Item, Output, System
from annotations.services.bulk import BATCH_SIZE, bulk_insert
from annotations.services.languages import campaign_languages_add
from annotations.services.outputs import outputs_detect_identical
from common.errors import DomainError, ImportFileError

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


def _parse_outputs(path: Path) -> ParsedOutputs:
    if path.is_dir():
        return parse_e2e_outputs(path)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return parse_outputs_csv(path)
    if suffix in (".jsonl", ".ndjson"):
        return parse_outputs_jsonl(path)
    if suffix == ".tsv":
        raise ImportFileError(
            "a single TSV file: give the folder of <system>.tsv files instead.", file=str(path)
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
    named: list[System] = []
    for system in campaign.systems.all():
        participant = participant_for(system.label, participants)
        if participant is None:
            continue
        system.name = participant.name
        system.metadata = {
            **system.metadata,
            "participant": participant.label,
            "affiliation": participant.affiliation,
        }
        named.append(system)
    System.objects.bulk_update(named, ["name", "metadata"], batch_size=BATCH_SIZE)
    return len(named)


def _outputs_write(
    *,
    campaign: Campaign,
    rows: Sequence[OutputRow],
    progress: Callable[[int, int], None] | None,
    language: str = "",
) -> tuple[int, int, int, tuple[str, ...]]:
    """Store checked outputs (new systems, new items, outputs) with raw bulk inserts.

    Returns (systems created, items created, identical groups, new systems no built
    task shows). ``progress(outputs written, outputs to write)`` after each chunk.
    """
    systems = dict(campaign.systems.values_list("label", "id"))
    new_systems = [
        System(campaign=campaign, label=label)
        for label in dict.fromkeys(r.system for r in rows)
        if label not in systems
    ]
    System.objects.bulk_create(new_systems, batch_size=BATCH_SIZE)
    systems.update({s.label: s.pk for s in new_systems})
    items = dict(campaign.items.values_list("external_id", "id"))
    new_items = {r.item_id: r.input for r in rows if r.item_id not in items}
    # Languages: the row's, else the file's, else the campaign's first; an item's is its
    # first output's. The campaign holds every language brought.
    default = language or (campaign.languages or ["en"])[0]
    item_language: dict[str, str] = {}
    for r in rows:
        item_language.setdefault(r.item_id, r.language or default)
    campaign_languages_add(
        campaign=campaign,
        languages=[r.language or default for r in rows],
        first=not items,
    )
    # Item attributes, merged over each item's rows (checked consistent before).
    attributes: dict[str, dict[str, str]] = {}
    for r in rows:
        if r.attributes:
            attributes.setdefault(r.item_id, {}).update(r.attributes)
    item_ids = bulk_insert(
        Item,
        ("campaign", "external_id", "input", "position", "attributes", "language"),
        [
            (
                campaign.pk,
                external_id,
                text,
                len(items) + n,
                attributes.get(external_id, {}),
                item_language[external_id],
            )
            for n, (external_id, text) in enumerate(new_items.items())
        ],
    )
    # Items the campaign had gain the attributes they lacked.
    grown = [
        item
        for item in campaign.items.filter(
            external_id__in=[i for i in attributes if i not in new_items]
        )
        if any(k not in item.attributes for k in attributes[item.external_id])
    ]
    for item in grown:
        item.attributes = {**attributes[item.external_id], **item.attributes}
    Item.objects.bulk_update(grown, ["attributes"], batch_size=BATCH_SIZE)
    items.update(zip(new_items, item_ids, strict=True))
    done = 0

    def advance(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(done, len(rows))

    bulk_insert(
        Output,
        ("item", "system", "text", "language"),
        [(items[r.item_id], systems[r.system], r.text, r.language or default) for r in rows],
        progress=advance,
    )
    groups = outputs_detect_identical(campaign=campaign)
    unjudged: tuple[str, ...] = ()
    if new_systems and campaign.tasks.exists():
        unjudged = tuple(s.label for s in new_systems)
    return len(new_systems), len(new_items), groups, unjudged


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
            raise DomainError(f"language: {exc}") from exc
    path = Path(path)
    parsed = _parse_outputs(path)
    outputs_check_against(campaign, parsed)
    if progress is not None:
        progress(0, len(parsed.rows))
    systems, items, groups, unjudged = _outputs_write(
        campaign=campaign, rows=parsed.rows, progress=progress, language=language
    )
    named = 0
    if path.is_dir():
        named = systems_name(campaign, path)
    return OutputsImported(
        file=str(path),
        systems=systems,
        items=items,
        outputs=len(parsed.rows),
        identical_groups=groups,
        systems_named=named,
        systems_not_in_tasks=unjudged,
    )


# Uploaded files (the web page, the API and background jobs)


class UploadTooLargeError(ImportFileError):
    """An upload over ``settings.IMPORT_UPLOAD_MAX_BYTES`` (HTTP 413)."""


@dataclass(frozen=True)
class Upload:
    """An uploaded file: the name the designer gave it (no folders) and its bytes."""

    name: str
    data: bytes


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
    other file is imported on its own. All files go in one transaction: when one fails,
    nothing of any file is kept, and the error names the uploaded file (never a path
    on the server), the line and the field.
    """
    if not uploads:
        raise DomainError("Choose at least one file to upload.")
    outputs_refuse_unless_draft(campaign)
    with tempfile.TemporaryDirectory(prefix="humaneval-upload-") as tmp:
        folder = Path(tmp) / "outputs"
        paths: list[Path] = []
        for i, upload in enumerate(uploads):
            if upload.name.lower().endswith(".tsv"):
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
