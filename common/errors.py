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

    @property
    def field_messages(self) -> dict[str, str]:
        """The refusal per input field (the API's ``fields``): the message under
        ``field``, or nothing when no field is at fault."""
        return {self.field: str(self)} if self.field else {}


#: the key of a problem that is no one field's (DRF's ``NON_FIELD_ERRORS_KEY``)
NON_FIELD = "non_field_errors"


class FieldsRefused(DomainError):
    """Several input fields refused at once: ``problems`` maps each field to its reason,
    a sentence. The message names each field in words (``labels``, else the field's
    name) before its reason, so a command line can show it as it is; the API lists each
    reason under its field, and a form shows each beside its field. A problem of no one
    field is keyed ``non_field_errors`` (as DRF keys it) and shown without a name."""

    def __init__(self, problems: dict[str, str], *, labels: dict[str, str] | None = None) -> None:
        self.problems = dict(problems)
        named = labels or {}
        super().__init__(
            " ".join(
                reason if f == NON_FIELD else f"{named.get(f, f)}: {reason}"
                for f, reason in self.problems.items()
            ),
            field=next(iter(self.problems)) if len(self.problems) == 1 else "",
        )

    @property
    def field_messages(self) -> dict[str, str]:
        """Each reason under its field, as a sentence of its own (capitalised)."""
        return {f: reason[:1].upper() + reason[1:] for f, reason in self.problems.items()}


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
