"""The payments form: approve or reject each worker."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django import forms

from annotations.models import Worker
from annotations.services.payments import Decision

# The decisions as the form's verbs (the model's labels name the state).
REVIEW_CHOICES = [
    (Worker.Review.UNDECIDED, "Undecided"),
    (Worker.Review.APPROVED, "Approve"),
    (Worker.Review.REJECTED, "Reject"),
]


class PaymentDecisionsForm(forms.Form):
    """One decision and one bonus field per worker: ``review_<id>``, ``bonus_<id>``."""

    def __init__(self, *args: object, workers: Sequence[Worker], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.workers = list(workers)
        for w in self.workers:
            self.fields[f"review_{w.pk}"] = forms.ChoiceField(
                choices=REVIEW_CHOICES,
                required=False,
                initial=w.review,
                label=f"Decision for {w.external_id}",
                # Named by aria-label, not a hidden <label>: an absolutely positioned
                # hidden label inside a sideways-scrolling table widens a phone's page.
                widget=forms.Select(attrs={"aria-label": f"Decision for {w.external_id}"}),
            )
            self.fields[f"bonus_{w.pk}"] = forms.DecimalField(
                min_value=Decimal(0),
                max_digits=8,
                decimal_places=2,
                required=False,
                initial=w.bonus,
                label=f"Bonus for {w.external_id}",
                widget=forms.NumberInput(
                    attrs={
                        "aria-label": f"Bonus for {w.external_id}",
                        "step": "0.01",
                        "min": "0",
                        "class": "bonus-input",
                    }
                ),
            )

    def decisions(self) -> dict[int, Decision]:
        """The posted decisions of the workers whose fields were posted."""
        result = {}
        for w in self.workers:
            name = f"review_{w.pk}"
            if name not in self.data:
                continue
            bonus = self.cleaned_data.get(f"bonus_{w.pk}")
            result[w.pk] = Decision(self.cleaned_data.get(name) or "", bonus)
        return result
