"""What every form of the site shares."""

from __future__ import annotations

from typing import Any


class SiteLabels:
    """Labels as the site writes them everywhere: without Django's trailing colon.

    Mix in before ``forms.Form`` in forms that a template renders whole (``as_div``);
    a ``label_suffix`` given explicitly still wins.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
