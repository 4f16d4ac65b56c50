"""What every form of the site shares."""

from __future__ import annotations

from typing import Any

from django import forms

from common.errors import DomainError


def form_refused(form: forms.Form, refusal: DomainError, *, field: str | None = None) -> None:
    """Show a service's refusal on ``form``: beside the field it names
    (``DomainError.field``, or ``field``: the form's name for it) when the form has that
    field, else above the form."""
    by_field = refusal.field_messages
    if field is None and len(by_field) > 1 and set(by_field) <= set(form.fields):
        for name, message in by_field.items():  # several fields: each beside its own
            form.add_error(name, message)
        return
    name = refusal.field if field is None else field
    message = by_field.get(refusal.field, str(refusal)) if name in form.fields else str(refusal)
    form.add_error(name if name in form.fields else None, message)


#: What a page's form and an API's serializer both say of a value that is not a number
#: (``common.serializers.bounded_number`` says it too).
NOT_A_NUMBER = "Enter a number."


class SiteLabels:
    """Labels as the site writes them everywhere: without Django's trailing colon.

    Mix in before ``forms.Form`` in forms that a template renders whole (``as_div``);
    a ``label_suffix`` given explicitly still wins.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


def bounded_number(bounds: tuple[float, float], **kwargs: Any) -> forms.FloatField:
    """A number field from ``low`` to ``high`` inclusive (``bounds``), refusing what is not
    a finite number with :data:`NOT_A_NUMBER`; its API twin is
    ``common.serializers.bounded_number``: built from the same bounds, the two accept and
    refuse the same values with the same messages."""
    low, high = bounds
    return forms.FloatField(
        min_value=low, max_value=high, error_messages={"invalid": NOT_A_NUMBER}, **kwargs
    )
