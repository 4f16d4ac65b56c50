"""The plan form: how many workers, judgements per output, pay."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings as django_settings

from annotations.selectors.plan import PAY_PER_HOUR_DEFAULT


class PlanForm(forms.Form):
    pay_per_hour = forms.DecimalField(
        min_value=0,
        decimal_places=2,
        initial=PAY_PER_HOUR_DEFAULT,
        label="Pay per hour",
        required=False,
    )
    seconds_per_task = forms.IntegerField(
        min_value=1, label="Expected seconds per task", required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The platform's currency (settings.PAYMENT_CURRENCY), which the costs are in; a
        # blank pay is the default the untouched page shows (the view plans with it).
        self.fields["pay_per_hour"].label = (
            f"Pay per hour ({django_settings.PAYMENT_CURRENCY}; left empty: "
            f"{PAY_PER_HOUR_DEFAULT:.2f})"
        )
