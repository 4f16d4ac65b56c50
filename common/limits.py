"""The bounds every request is held to: the one upload limit, the size of other bodies, the
depth of JSON, and the characters no text field may hold.

One module so that the middleware (``common.middleware``), the upload handler
(``common.uploads``), the API's parsers (``common.parsers``) and the error handler
(``common.api``) state each limit once and say it the same way.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent

# What no store takes in text (NUL, lone surrogates): one definition, with the file walker's.
from common.nul import REFUSED_CHARACTERS

#: Nesting of JSON bodies (objects and arrays); no endpoint takes more than a few levels.
JSON_MAX_DEPTH = 32


def megabytes(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MB"


def upload_max_bytes() -> int:
    """The one upload limit (``HUMANEVAL_UPLOAD_MAX_MB``): every file of a request together."""
    return int(settings.IMPORT_UPLOAD_MAX_BYTES)


def body_max_bytes() -> int:
    """Bodies that are not file uploads (JSON, form fields): Django's own limit."""
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0)


def multipart_max_bytes() -> int:
    """A multipart body: the files (the upload limit) and the form fields beside them."""
    return upload_max_bytes() + body_max_bytes()


class RequestTooLarge(RequestDataTooBig):
    """A request body over a limit (HTTP 413). ``file`` names the upload at fault, if any.

    A ``RequestDataTooBig`` so that, should it escape the middleware and the API's handler,
    Django still answers a 400 (and marks the request's form data unreadable)."""

    def __init__(self, message: str, *, file: str = "") -> None:
        super().__init__(message)
        self.file = file
        self.message = message

    def __str__(self) -> str:
        return self.message


def upload_too_large(*, file: str = "", together: bool = False) -> RequestTooLarge:
    limit = megabytes(upload_max_bytes())
    if together:
        text = f"the files are over {limit} together; an upload is limited to {limit}."
    else:
        text = f"the file is over {limit}; uploads are limited to {limit}."
    where = f"{file}: " if file else ""
    return RequestTooLarge(
        f"{where}{text} Split it into several files, or import it on the server with "
        "a manage.py command.",
        file=file,
    )


def body_too_large() -> RequestTooLarge:
    return RequestTooLarge(
        f"The request body is over {megabytes(body_max_bytes())}: request bodies other than "
        f"file uploads are limited to {megabytes(body_max_bytes())} (file uploads to "
        f"{megabytes(upload_max_bytes())})."
    )


def too_many(exc: TooManyFieldsSent | TooManyFilesSent) -> str:
    """Django's refusal of a form with too many fields or files, in plain words: its own
    message names a setting (``DATA_UPLOAD_MAX_NUMBER_FILES``), not the limit."""
    if isinstance(exc, TooManyFilesSent):
        return (
            f"Too many files in one request: at most {settings.DATA_UPLOAD_MAX_NUMBER_FILES:,}. "
            "Send them in several requests."
        )
    return (
        f"Too many form fields in one request: at most {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS:,}."
    )


def refused_character(text: str) -> str | None:
    """What is wrong with ``text`` (a NUL or a lone surrogate), or None."""
    found = REFUSED_CHARACTERS.search(text)
    if found is None:
        return None
    char = found.group()
    if char == "\x00":
        return "holds a NUL character (%00). Null characters are not allowed in text."
    return f"holds a lone surrogate (U+{ord(char):04X}), which is not text."


def first_refused(pairs: Iterable[tuple[str, str]]) -> tuple[str, str] | None:
    """The first ``(name, message)`` of the name/value pairs holding a refused character."""
    for name, value in pairs:
        for text in (name, value):
            problem = refused_character(text)
            if problem is not None:
                return (_printable(name) or "(name)", problem)
    return None


def _printable(name: str) -> str:
    return REFUSED_CHARACTERS.sub("\N{REPLACEMENT CHARACTER}", name)[:60]
