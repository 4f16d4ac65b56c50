"""Uploads of outputs (the web page and the API): read with the size limit, then
imported during the request or, when large, as a background job."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings

from annotations.importing.jobs import import_job_create
from annotations.importing.outputs import (
    OutputsImported,
    Upload,
    UploadTooLargeError,
    outputs_import_uploads,
    uploads_refuse_if_none,
)
from annotations.models import Campaign, ImportJob
from common.errors import DomainError

# Upload, UploadTooLargeError and outputs_import_uploads live with the outputs importer
# (background jobs use them too); interfaces take every upload name from here.
__all__ = [
    "Upload",
    "UploadOutcome",
    "UploadTooLargeError",
    "outputs_import_uploads",
    "outputs_upload",
    "uploads_read",
]


def _megabytes(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MB"


#: the longest upload name, in UTF-8 bytes (a file system's limit for one name)
UPLOAD_NAME_MAX_BYTES = 255


def uploads_read(*, files: Sequence[Any]) -> list[Upload]:
    """The uploaded files' names and bytes, refusing any upload over the limit.

    ``files`` are Django ``UploadedFile`` objects (``name``, ``size``, ``chunks()``);
    sizes are checked before anything is read into memory.
    """
    limit = settings.IMPORT_UPLOAD_MAX_BYTES
    uploads_refuse_if_none(files)
    names = [Path(f.name or "").name or f"upload-{i + 1}" for i, f in enumerate(files)]
    for name in names:
        # The file is written under its name for the importers (an E2E output file's name
        # is its system); a name over the file system's 255 bytes was a 500.
        if len(name.encode("utf-8")) > UPLOAD_NAME_MAX_BYTES:
            raise DomainError(
                f"The file name '{name[:40]}…' is {len(name.encode('utf-8'))} bytes long in "
                f"UTF-8; names are limited to {UPLOAD_NAME_MAX_BYTES}: rename the file.",
                field="file",
            )
    for name, f in zip(names, files, strict=True):
        if f.size > limit:
            raise UploadTooLargeError(
                f"the file is {_megabytes(f.size)}; uploads are limited to "
                f"{_megabytes(limit)}. Split it into several files, or import it on the "
                "server with 'manage.py import_outputs'.",
                file=name,
            )
    total = sum(f.size for f in files)
    if total > limit:
        raise UploadTooLargeError(
            f"the files are {_megabytes(total)} together; an upload is limited to "
            f"{_megabytes(limit)}. Upload them in several parts.",
            file=", ".join(names)[:200],
        )
    return [
        Upload(name=name, data=b"".join(f.chunks())) for name, f in zip(names, files, strict=True)
    ]


@dataclass(frozen=True)
class UploadOutcome:
    """What an upload became: imported during the request (``results``) or a background
    job (``job``) whose page shows its progress and then its result."""

    results: list[OutputsImported] = field(default_factory=list)
    job: ImportJob | None = None


def outputs_upload(*, campaign: Campaign, files: Sequence[Any], user: Any = None) -> UploadOutcome:
    """Import uploaded output files into a draft campaign: the one path of the web page
    and the API.

    The files are read with the size limit (``uploads_read``: an upload over
    ``IMPORT_UPLOAD_MAX_BYTES`` is an ``UploadTooLargeError`` naming the file, before
    anything is read or written). Uploads over ``IMPORT_INLINE_MAX_BYTES`` together
    become an ``ImportJob`` run in the background; smaller ones are imported during the
    request. All files or nothing; errors name the uploaded file, the line and the field.
    """
    uploads = uploads_read(files=files)
    if sum(len(u.data) for u in uploads) > settings.IMPORT_INLINE_MAX_BYTES:
        return UploadOutcome(job=import_job_create(campaign=campaign, uploads=uploads, user=user))
    return UploadOutcome(results=outputs_import_uploads(campaign=campaign, uploads=uploads))
