"""The domain's error types. One handler per interface maps them to a response."""

from __future__ import annotations


class DomainError(Exception):
    """A domain rule refused the request. The message is fit to show a person.

    ``field``, when given, names the input field at fault: the API lists the message
    under it (``fields``), as it does for a serializer's refusal.
    """

    def __init__(self, *args: object, field: str = "") -> None:
        super().__init__(*args)
        self.field = field


class StaleRequest(DomainError):
    """The request was made against a state that has changed since (a form sent twice, a
    double click, a second tab): nothing was written. The API answers 409."""


class ImportFileError(DomainError):
    """A file could not be imported; nothing was written.

    Carries where the problem is: the file, the line (1-based, the header being line 1
    for tabular files) and the field.
    """

    def __init__(
        self, message: str, *, file: str, line: int | None = None, field: str = ""
    ) -> None:
        self.file = file
        self.line = line
        self.reason = message
        where = file
        if line is not None:
            where += f", line {line}"
        if field:
            where += f", field '{field}'"
        super().__init__(f"{where}: {message}", field=field)
