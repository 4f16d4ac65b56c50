"""Forms of the ranking run pages: start a run, rank a criterion on each slice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.models import AnonymousUser, User

from annotations.core.slices import SliceError, parse_where
from annotations.models import Campaign
from annotations.selectors.judgements import item_attributes
from common.errors import DomainError
from common.forms import SiteLabels, bounded_number
from ranking import stats
from ranking.models import RankingRun
from ranking.selectors import slices
from ranking.selectors.runs import CONFIDENCE_RANGE
from ranking.services.runs import ranking_run_create, ranking_slice_check


class RankingRunForm(SiteLabels, forms.Form):
    criterion = forms.ChoiceField()
    method = forms.ChoiceField(
        choices=RankingRun.Method.choices,
        initial=RankingRun.Method.WMT14,
        help_text="The E2E NLG Challenge used TrueSkill with the WMT14 procedure.",
    )
    runs = forms.IntegerField(
        min_value=1,
        max_value=settings.RANKING_MAX_RUNS,
        initial=200,
        help_text=(
            "Repetitions (TrueSkill runs or bootstrap resamples). More runs give steadier "
            "rank ranges and take longer; the result says whether they were enough."
        ),
    )
    seed = forms.IntegerField(initial=1, help_text="The same seed gives the same result.")
    confidence = bounded_number(
        CONFIDENCE_RANGE,
        initial=0.95,
        help_text="Level of the rank ranges and of the significance clusters.",
    )
    exclude_flagged = forms.BooleanField(
        required=False,
        initial=True,
        label="Leave out excluded workers",
        help_text="Workers excluded on the monitor page.",
    )
    where = forms.CharField(
        required=False,
        max_length=500,
        label="Slice",
        help_text="Rank only the items with these attribute values, e.g. "
        "challenge_set=scramble, domain=news (blank: every item).",
    )

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        criterion = cast(forms.ChoiceField, self.fields["criterion"])
        criterion.choices = [(c.name, c.name) for c in campaign.criteria.all()]
        attributes = item_attributes(campaign=campaign)
        if attributes:
            self.fields["where"].help_text += " This campaign's attributes: " + "; ".join(
                f"{name} ({', '.join(values[:6])}{', ...' if len(values) > 6 else ''})"
                for name, values in attributes.items()
            )

    def clean_where(self) -> dict[str, str]:
        text = self.cleaned_data.get("where") or ""
        try:
            return parse_where(part for part in text.split(",") if part.strip())
        except SliceError as exc:
            raise forms.ValidationError(str(exc)) from exc

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors:
            try:
                stats.check_parameters(
                    data["method"],
                    runs=data["runs"],
                    confidence=data["confidence"],
                    seed=data["seed"],
                )
            except stats.ParameterError as exc:
                self.add_error(exc.field if exc.field in self.fields else None, str(exc))
        return data


@dataclass(frozen=True)
class SlicesStarted:
    """What pressing "Rank the missing slices" did: runs started, slices left waiting
    (refused: ``refusal`` says why, e.g. too many active runs)."""

    started: int
    waiting: int
    refusal: str

    def messages(self) -> list[tuple[int, str]]:
        """The page's messages, as (level, text)."""
        said: list[tuple[int, str]] = []
        if self.started:
            said.append(
                (
                    messages.SUCCESS,
                    f"{self.started} ranking run(s) started; they appear here when done.",
                )
            )
        if self.refusal:
            said.append(
                (
                    messages.ERROR,
                    f"{self.waiting} slice(s) not started yet: {self.refusal} Press the "
                    "button again once the running ones are done.",
                )
            )
        if not self.started and not self.refusal:
            said.append((messages.SUCCESS, "Every slice already has a finished run."))
        return said


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

    def start_missing(self, *, user: User | AnonymousUser) -> SlicesStarted:
        """Start a run (the run form's defaults) on each slice with judgements of the
        criterion and no finished run; once one is refused, count the rest as waiting."""
        criterion = self.choice.criterion
        if criterion is None or not self.is_valid():
            raise DomainError("Choose one of the campaign's criteria and attributes.")
        have = slices.ranking_runs_by_slice(
            criterion=criterion, attribute=self.choice.by, values=self.choice.values
        )
        done = [run.where for run in have]
        started, waiting, refusal = 0, 0, ""
        for where in self.choice.slices:
            if where in done:
                continue
            try:
                ranking_slice_check(criterion=criterion, where=where)
            except DomainError:
                continue  # a value without judgements of this criterion: nothing to rank
            if refusal:
                waiting += 1
                continue
            try:
                ranking_run_create(
                    campaign=self.campaign, criterion=criterion, user=user, where=where
                )
            except DomainError as exc:
                refusal = str(exc)
                waiting += 1
            else:
                started += 1
        return SlicesStarted(started=started, waiting=waiting, refusal=refusal)
