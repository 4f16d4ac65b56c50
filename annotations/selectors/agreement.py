"""Agreement among workers on a campaign's counted judgements: Krippendorff's alpha on
preferences and on scores and WMT's pairwise kappa, per criterion and per slice of the
items (the monitor page, the campaign progress API and the datasheet read it)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from annotations.core.agreement import krippendorff_alpha_long, pairwise_kappa
from annotations.models import Campaign, Criterion, Worker
from annotations.selectors.monitor import campaign_judgements


@dataclass(frozen=True)
class CriterionAgreement:
    criterion: Criterion
    judgements: int
    workers: int
    preference_alpha: float | None
    score_alpha: float | None
    #: WMT's pairwise kappa between judges (inter) and of a judge with itself (intra)
    inter_kappa: float | None = None
    intra_kappa: float | None = None
    #: counted judgements of excluded workers, and those workers, left out of all the
    #: figures above (as rankings leave them out)
    excluded_judgements: int = 0
    excluded_workers: int = 0

    @property
    def scores_versus_preferences(self) -> str:
        """How the two alphas of these data compare, in words ("" when either is
        undefined): computed, never assumed (on some data scores agree more)."""
        if self.preference_alpha is None or self.score_alpha is None:
            return ""
        scores, prefs = round(self.score_alpha, 3), round(self.preference_alpha, 3)
        relation = (
            "lower than" if scores < prefs else "higher than" if scores > prefs else "equal to"
        )
        return f"α on scores ({scores:.3f}) is {relation} α on preferences ({prefs:.3f})."  # noqa: RUF001


def _finite(value: float) -> float | None:
    return None if math.isnan(value) else value


def _excluded_workers(campaign_id: int) -> set[int]:
    return set(
        Worker.objects.filter(campaign_id=campaign_id, excluded=True).values_list("pk", flat=True)
    )


def criterion_agreement(
    *,
    criterion: Criterion,
    judgements: dict[int, dict] | None = None,
    excluded: set[int] | None = None,
) -> CriterionAgreement:
    """Krippendorff's alpha among workers on one criterion's counted judgements.

    Excluded workers' judgements are left out, as rankings leave them out by default
    (``excluded_judgements`` and ``excluded_workers`` say how many), so the agreement
    and the ranking rest on the same judgements.

    Preferences: a unit is (task, pair of outputs), a value +1/0/-1, ordinal level (a tie
    lies between the two preferences). Scores: a unit is (task, output), the score at
    interval level; magnitude-estimation scores are ratios to the standard, so they are
    compared as logarithms (log of max(score, 1)), otherwise one worker's 111111 would
    swamp everyone's agreement. ``judgements`` is :func:`campaign_judgements`' result
    when the caller has it already.
    """
    magnitude = criterion.scale == Criterion.Scale.MAGNITUDE
    if judgements is None:
        judgements = campaign_judgements(campaign=criterion.campaign)
    if excluded is None:
        excluded = _excluded_workers(criterion.campaign_id)
    mine = [j for j in judgements.values() if j["criterion"] == criterion.pk]
    left_out = [j for j in mine if j["worker"] in excluded and "signs" in j]
    mine = [j for j in mine if j["worker"] not in excluded]
    counted = [j for j in mine if "signs" in j]
    score_units: dict[tuple, int] = {}
    pair_units: dict[tuple, int] = {}
    score_unit, score_value, pair_unit, pair_value = [], [], [], []
    for j in counted:
        tid = j["task"]
        for oid, score in j["regular"].items():
            score_unit.append(score_units.setdefault((tid, oid), len(score_units)))
            score_value.append(math.log(max(score, 1.0)) if magnitude else score)
        for pair, sign in j["signs"].items():
            pair_unit.append(pair_units.setdefault((tid, *pair), len(pair_units)))
            pair_value.append(sign)
    workers = {j["worker"] for j in counted}
    pref = krippendorff_alpha_long(np.array(pair_unit), np.array(pair_value), level="ordinal")
    score = krippendorff_alpha_long(np.array(score_unit), np.array(score_value), level="interval")
    judged = [(j["task"], j["worker"], j["prefs"]) for j in mine if "prefs" in j]
    inter = pairwise_kappa(judged, intra=False).kappa
    intra = pairwise_kappa(judged, intra=True).kappa
    return CriterionAgreement(
        criterion,
        len(counted),
        len(workers),
        _finite(pref),
        _finite(score),
        _finite(inter),
        _finite(intra),
        len(left_out),
        len({j["worker"] for j in left_out}),
    )


def campaign_agreement(
    *,
    campaign: Campaign,
    judgements: dict[int, dict] | None = None,
    excluded: set[int] | None = None,
) -> list[CriterionAgreement]:
    """:func:`criterion_agreement` for each criterion (excluded workers left out)."""
    if judgements is None:
        judgements = campaign_judgements(campaign=campaign)
    if excluded is None:
        excluded = _excluded_workers(campaign.pk)
    return [
        criterion_agreement(criterion=c, judgements=judgements, excluded=excluded)
        for c in campaign.criteria.all()
    ]


@dataclass(frozen=True)
class SliceAgreement:
    attribute: str
    value: str
    agreement: list[CriterionAgreement]


def agreement_by_slice(
    *, campaign: Campaign, judgements: dict[int, dict] | None = None
) -> list[SliceAgreement]:
    """Agreement per slice of the items (each value of each item attribute, e.g. GEM's
    challenge sets), to read beside the whole campaign's. Empty when no item has
    attributes."""
    attributes = dict(campaign.items.exclude(attributes={}).values_list("id", "attributes"))
    if not attributes:
        return []
    if judgements is None:
        judgements = campaign_judgements(campaign=campaign)
    excluded = _excluded_workers(campaign.pk)
    values: dict[str, set[str]] = {}
    for attrs in attributes.values():
        for name, value in attrs.items():
            values.setdefault(name, set()).add(value)
    slices = []
    for name in sorted(values):
        for value in sorted(values[name]):
            subset = {
                jid: j
                for jid, j in judgements.items()
                if attributes.get(j["item"], {}).get(name) == value
            }
            slices.append(
                SliceAgreement(
                    name,
                    value,
                    campaign_agreement(campaign=campaign, judgements=subset, excluded=excluded),
                )
            )
    return slices
