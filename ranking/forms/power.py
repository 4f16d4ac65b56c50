"""The power page's form: the question "how many judgements separate two systems?"."""

from __future__ import annotations

from typing import Any

from django import forms

from annotations.selectors.plan import PAY_PER_HOUR_DEFAULT
from common.forms import bounded_number
from ranking.selectors.power import (
    DEFAULT_POWER,
    DRAWS_RANGE,
    PAY_PER_HOUR_RANGE,
    POWER_RANGE,
    SECONDS_PER_TASK_RANGE,
    SHARE_RANGE,
    power_draws_problem,
)
from ranking.selectors.runs import CONFIDENCE_RANGE, DEFAULT_CONFIDENCE


class PowerForm(forms.Form):
    """The bounds are the selector's, as the API's (``ranking.serializers.power``).

    The plan and monitor pages load this form into themselves (``#power-report``), beside
    the plan's own pay and seconds: its ids carry ``power-`` so no id is on a page twice.
    """

    share = bounded_number(
        SHARE_RANGE,
        initial=0.6,
        label="The better system wins",
        help_text="Share of two systems' comparisons the better one wins (e.g. 0.6).",
    )
    draws = bounded_number(DRAWS_RANGE, initial=0.0, label="Share of draws", required=False)
    confidence = bounded_number(CONFIDENCE_RANGE, initial=DEFAULT_CONFIDENCE)
    power = bounded_number(POWER_RANGE, initial=DEFAULT_POWER)
    pay_per_hour = bounded_number(
        PAY_PER_HOUR_RANGE, initial=PAY_PER_HOUR_DEFAULT, label="Pay per hour"
    )
    seconds_per_task = bounded_number(
        SECONDS_PER_TASK_RANGE,
        required=False,
        label="Seconds per task (blank: the pilot's median)",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "power-%s")
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        # Once every field is valid, as the API's serializer checks it.
        if not self.errors:
            problem = power_draws_problem(share=data["share"], draws=data.get("draws") or 0.0)
            if problem:
                self.add_error("draws", problem)
        return data
