"""The form of the ranking runs page: start a run."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.conf import settings

from annotations.core.slices import SliceError, parse_where
from annotations.models import Campaign
from annotations.selectors.judgements import item_attributes
from common.forms import SiteLabels, bounded_number
from ranking import stats
from ranking.models import RankingRun
from ranking.selectors.runs import CONFIDENCE_RANGE, RUN_DEFAULTS


class RankingRunForm(SiteLabels, forms.Form):
    criterion = forms.ChoiceField()
    method = forms.ChoiceField(
        choices=RankingRun.Method.choices,
        initial=RUN_DEFAULTS.method,
        help_text="The E2E NLG Challenge used TrueSkill with the WMT14 procedure.",
    )
    runs = forms.IntegerField(
        min_value=1,
        max_value=settings.RANKING_MAX_RUNS,
        initial=RUN_DEFAULTS.runs,
        help_text=(
            "Repetitions (TrueSkill runs or bootstrap resamples). More runs give steadier "
            "rank ranges and take longer; the result says whether they were enough."
        ),
    )
    seed = forms.IntegerField(
        initial=RUN_DEFAULTS.seed, help_text="The same seed gives the same result."
    )
    confidence = bounded_number(
        CONFIDENCE_RANGE,
        initial=RUN_DEFAULTS.confidence,
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
