"""The upload handler that holds every file upload to the one limit while it streams.

Django hands each chunk of each uploaded file to the handlers in ``FILE_UPLOAD_HANDLERS``
in turn; this one comes first. It counts the bytes of the request's files and, as soon as
they pass ``HUMANEVAL_UPLOAD_MAX_MB``, stops the upload: the rest of the body is never
read, so no file over the limit is ever held in memory or spooled to disk whole. The
middleware (web pages) and the API's error handler answer the ``RequestTooLarge`` with a
413 that names the file and the limit.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

from django.core.files.uploadhandler import FileUploadHandler

from common.limits import upload_max_bytes, upload_too_large


class LimitedUploadHandler(FileUploadHandler):
    """Refuses an upload (``RequestTooLarge``) the moment its files pass the limit."""

    def __init__(self, request: Any = None) -> None:
        super().__init__(request)
        self.limit = upload_max_bytes()
        self.received = 0  # every file of the request so far
        self.received_this_file = 0
        self.files = 0

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.received_this_file = 0
        self.files += 1

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received += len(raw_data)
        self.received_this_file += len(raw_data)
        if self.received > self.limit:
            name = PurePosixPath(str(self.file_name or "")).name
            together = self.received_this_file <= self.limit and self.files > 1
            raise upload_too_large(file=name, together=together)
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None  # the next handler (memory or temporary file) makes the file
