"""Forms of output uploads (several files at once)."""

from __future__ import annotations

from typing import Any

from django import forms

from common.forms import SiteLabels


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    widget = MultipleFileInput

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(d, initial) for d in data]
        return [single(data, initial)]


class UploadForm(SiteLabels, forms.Form):
    # The form's metaclass moves declared fields off the class, so ``self.files`` stays
    # the uploaded files; the stubs see only a class attribute shadowing BaseForm.files.
    files = MultipleFileField(  # type: ignore[assignment]
        help_text=(
            # Django writes a help text as HTML: no angle brackets here.
            "A .csv, .tsv or .jsonl file of outputs, one output a row with the columns "
            "item_id, input, system and output (named so, in lower case; language is "
            "optional), or the .tsv files of an E2E-style release, one per system (select "
            "them all; participants.tsv names the systems)."
        )
    )
