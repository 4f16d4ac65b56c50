"""DRF's content negotiation, as every API of the site uses it
(``REST_FRAMEWORK["DEFAULT_CONTENT_NEGOTIATION_CLASS"]``)."""

from __future__ import annotations

from collections.abc import Iterable

from rest_framework.exceptions import ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer


class FormatNegotiation(DefaultContentNegotiation):
    """DRF's negotiation, except that ``?format=`` naming no renderer of the view is a 400
    naming the parameter and the formats it takes (DRF answered a bare 404 "Not found.",
    as if the resource were missing)."""

    def filter_renderers(
        self, renderers: Iterable[BaseRenderer], format: str
    ) -> list[BaseRenderer]:
        offered = list(renderers)
        kept = [r for r in offered if r.format == format]
        if not kept:
            formats = ", ".join(dict.fromkeys(str(r.format) for r in offered))
            raise ValidationError(
                {"format": [f"No format {format[:40]!r} here: use one of {formats}."]}
            )
        return kept
