"""The form of the slices page: a criterion ranked on each value of an item attribute,
and what pressing "Rank the missing slices" says."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages

from annotations.models import Campaign
from ranking.selectors import slices
from ranking.services.slices import SlicesStarted


class SlicesForm(forms.Form):
    """A criterion ranked on each value of an item attribute: the choice (GET; blank: the
    first of each) and the button that starts the missing runs (POST)."""

    criterion = forms.CharField(required=False, strip=False)
    by = forms.CharField(required=False, strip=False)

    def __init__(self, data: Any, *, campaign: Campaign) -> None:
        super().__init__(data)
        self.campaign = campaign
        self.choice = slices.ranking_slice_choice(
            campaign=campaign, criterion=self.data.get("criterion"), by=self.data.get("by")
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.choice.error:
            raise forms.ValidationError(self.choice.error)
        return data


def slices_started_messages(started: SlicesStarted) -> list[tuple[int, str]]:
    """The page's messages after "Rank the missing slices", as (level, text): the runs
    started, the slices left waiting and why (press again once the running ones end)."""
    said: list[tuple[int, str]] = []
    if started.started:
        said.append(
            (
                messages.SUCCESS,
                f"{started.started} ranking run(s) started; they appear here when done.",
            )
        )
    if started.refusal:
        said.append(
            (
                messages.ERROR,
                f"{started.waiting} slice(s) not started yet: {started.refusal} Press the "
                "button again once the running ones are done.",
            )
        )
    if not started.started and not started.refusal:
        said.append((messages.SUCCESS, "Every slice already has a finished run."))
    return said
