"""Reads for rankings of slices: runs of one criterion on different slices of its items
(``where``), side by side, and the choice of slices a designer ranks at once."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from annotations.core.slices import describe
from annotations.models import Campaign, Criterion
from annotations.selectors.criteria import criterion_by_name, criterion_missing
from annotations.selectors.judgements import item_attributes
from common.errors import DomainError
from ranking.models import RankingRun
from ranking.selectors.runs import Row, ranking_run_rows


@dataclass(frozen=True)
class SliceColumn:
    """One run's column of a side-by-side table: its slice and each system's row."""

    run: RankingRun
    heading: str
    rows: dict[str, Row]


@dataclass(frozen=True)
class SideBySide:
    """Runs of one criterion on different slices, systems in the first run's order."""

    columns: list[SliceColumn]
    systems: list[str]

    def cells(self) -> list[tuple[str, list[Row | None]]]:
        return [(s, [c.rows.get(s) for c in self.columns]) for s in self.systems]


def ranking_side_by_side(*, runs: list[RankingRun]) -> SideBySide:
    """Finished runs side by side (each system's value and rank range per slice)."""
    columns = [
        SliceColumn(
            run=run,
            heading=describe(run.where),
            rows={r.system: r for r in ranking_run_rows(run=run)},
        )
        for run in runs
    ]
    systems: list[str] = []
    for column in columns:
        systems += [s for s in column.rows if s not in systems]
    return SideBySide(columns=columns, systems=systems)


def ranking_runs_by_slice(
    *, criterion: Criterion, attribute: str, values: list[str]
) -> list[RankingRun]:
    """The latest finished run of the criterion on every items and on each value's
    slice (``attribute=value``), those that exist, all items first."""
    slices: list[dict[str, str]] = [{}] + [{attribute: value} for value in values]
    return ranking_runs_on_slices(criterion=criterion, slices=slices)


def ranking_runs_on_slices(
    *, criterion: Criterion, slices: Sequence[Mapping[str, str]]
) -> list[RankingRun]:
    """The latest finished run of the criterion on each slice (a ``where``), those that
    exist, in the slices' order."""
    done = RankingRun.objects.filter(criterion=criterion, status=RankingRun.Status.DONE)
    found = []
    for where in slices:
        run = done.filter(where=where).order_by("-created_at").first()
        if run is not None:
            found.append(run)
    return found


class SliceAttributeUnknown(DomainError):
    """No item of the campaign has the attribute its slices are asked by (``by``).

    One refusal, worded for each interface that asks: the API's message (``str``) names
    the field first, as the services' refusals do; ``sentence`` is the ``rank``
    command's; ``on_page`` the slices page's, whose form lists the attributes there are.
    """

    def __init__(self, *, campaign: Campaign, by: str, known: Iterable[str]) -> None:
        self.by = by
        names = ", ".join(known) or "none"
        self.sentence = (
            f"No item of '{campaign.slug}' has the attribute '{by}' (its attributes: {names})."
        )
        self.on_page = f"No item of this campaign has the attribute '{by}'."
        super().__init__(
            f"by: no item of '{campaign.slug}' has the attribute '{by}' (its attributes: {names})."
        )


def ranking_slice_values(
    *, campaign: Campaign, by: str, attributes: Mapping[str, list[str]] | None = None
) -> list[str]:
    """The values of the item attribute ``by`` (``language`` too when the campaign has
    several), one slice each, or :class:`SliceAttributeUnknown` when no item has it.
    ``attributes``: the campaign's ``item_attributes``, when already read."""
    if attributes is None:
        attributes = item_attributes(campaign=campaign)
    values = attributes.get(by)
    if not values:
        raise SliceAttributeUnknown(campaign=campaign, by=by, known=attributes)
    return list(values)


@dataclass(frozen=True)
class SliceChoice:
    """What the slices page ranks: a criterion by an item attribute, each asked for or the
    first one (``error`` names an unknown one)."""

    attributes: dict[str, list[str]]
    criteria: list[str]
    criterion_name: str
    by: str
    criterion: Criterion | None
    error: str

    @property
    def values(self) -> list[str]:
        return self.attributes.get(self.by, [])

    @property
    def slices(self) -> list[dict[str, str]]:
        """All items first, then each value's slice."""
        return [{}] + [{self.by: value} for value in self.values]


def ranking_slice_choice(
    *, campaign: Campaign, criterion: str | None, by: str | None
) -> SliceChoice:
    """The criterion (by name; blank: the first) and the attribute (blank: the first) the
    slices page ranks, and the error of one the campaign does not have."""
    attributes = item_attributes(campaign=campaign)
    criteria = [c.name for c in campaign.criteria.all()]
    name = criterion or (criteria[0] if criteria else "")
    by = by or next(iter(attributes), "")
    found = criterion_by_name(campaign, name)
    error = ""
    if found is None and criteria:
        error = str(criterion_missing(campaign, name, others=criteria))
    elif by:
        try:
            ranking_slice_values(campaign=campaign, by=by, attributes=attributes)
        except SliceAttributeUnknown as exc:
            error = exc.on_page
    return SliceChoice(
        attributes=attributes,
        criteria=criteria,
        criterion_name=name,
        by=by,
        criterion=found,
        error=error,
    )


def ranking_slices_page(*, choice: SliceChoice) -> dict[str, Any]:
    """The slices page: the latest finished run on all items and on each value's slice,
    side by side, and the slices not ranked yet."""
    table = None
    missing: list[str] = []
    if choice.criterion is not None and choice.by and not choice.error:
        runs = ranking_runs_by_slice(
            criterion=choice.criterion, attribute=choice.by, values=choice.values
        )
        table = ranking_side_by_side(runs=runs) if runs else None
        shown = {describe(run.where) for run in runs}
        missing = [describe(w) for w in choice.slices if describe(w) not in shown]
    return {
        "attributes": choice.attributes,
        "criteria": choice.criteria,
        "criterion_name": choice.criterion_name,
        "by": choice.by,
        "error": choice.error,
        "table": table,
        "missing": missing,
    }
