"""The rows step of a column-mapped rating import (``annotations.importing.mapped``):
the file's items and outputs found in the campaign or stored, then its rows as finished
judgements, stored criterion by criterion."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from django.utils import timezone

from annotations.core.outputs import OutputRow
from annotations.importing.parsers.common import collapse_whitespace, input_language_check
from annotations.importing.parsers.mapped import ParsedMapped
from annotations.importing.parsers.mapped.mapping import Mapping
from annotations.importing.parsers.mapped.rows import MappedRow
from annotations.models import Campaign, Criterion, Output
from annotations.services.finished_judgements import (
    FinishedJudgement,
    FinishedScore,
    judgements_store_finished,
)
from annotations.services.outputs import items_inputs_fill, outputs_store
from common.errors import ImportFileError


@dataclass(frozen=True)
class MappedOutputsStored:
    """The campaign's outputs once the file's are stored: (item, system) -> text; and
    what was added."""

    outputs: dict[tuple[str, str], str]
    items_created: int
    outputs_created: int
    inputs_filled: int
    #: the outputs created written the other way than their language (``OutputsStored``)
    directions_unlike: dict[tuple[str, str], int] = field(default_factory=dict)
    #: outputs created for which the file gives no language (no column, an empty cell
    #: or ``-1``): stored in the campaign's language
    languages_defaulted: int = 0


def _item_input(
    *,
    items: dict[str, str],
    mapping: Mapping,
    row: MappedRow,
    file: str,
    items_created: set[str],
    inputs_filled: set[str],
) -> None:
    """Take the row's item: new (noted in ``items_created``), an input for an item the
    campaign has without one (``inputs_filled``), or the same input as the campaign's
    (another is an error)."""
    known = items.get(row.item_id)
    if known is None:
        items[row.item_id] = row.input
        items_created.add(row.item_id)
    elif mapping.input and not known and row.input:
        items[row.item_id] = row.input
        inputs_filled.add(row.item_id)
    elif mapping.input and known and collapse_whitespace(known) != collapse_whitespace(row.input):
        raise ImportFileError(
            f"item '{row.item_id}' has another input in the campaign ('{known[:100]}').",
            file=file,
            line=row.line,
            field=mapping.input,
        )


def _input_language(
    *,
    row: MappedRow,
    mapping: Mapping,
    file: str,
    stored: str | None,
    given: dict[str, tuple[str, int]],
) -> None:
    """Take the row's input language (``mapping.input_language``; none: nothing to do):
    one per item over the file's rows (``given``), and the language ``stored`` for an
    item the campaign has with its input (None: an item this file creates or gives its
    input)."""
    if not row.input_language:
        return
    if stored is not None and stored != row.input_language:
        raise ImportFileError(
            f"item '{row.item_id}' is stored with its input in '{stored}', not "
            f"'{row.input_language}'.",
            file=file,
            line=row.line,
            field=mapping.input_language,
        )
    input_language_check(
        given,
        row.item_id,
        row.input_language,
        file=file,
        line=row.line,
        field=mapping.input_language,
    )


def mapped_outputs_store(
    *, campaign: Campaign, mapping: Mapping, parsed: ParsedMapped
) -> MappedOutputsStored:
    """Items and outputs: reuse the campaign's, create what is missing from the file."""
    file = parsed.file
    items = dict(campaign.items.values_list("external_id", "input"))
    item_languages = dict(campaign.items.values_list("external_id", "language"))
    # The inputs' languages the file gives, by item: (language, first line).
    input_languages: dict[str, tuple[str, int]] = {}
    outputs: dict[tuple[str, str], str] = {}
    output_language: dict[tuple[str, str], str] = {}
    for ext, label, text, language in Output.objects.filter(item__campaign=campaign).values_list(
        "item__external_id", "system__label", "text", "language"
    ):
        outputs[(ext, label)] = text
        output_language[(ext, label)] = language
    missing: dict[tuple[str, str], OutputRow] = {}
    items_created: set[str] = set()
    # Items the campaign has without an input, given one by the file: filled in (and
    # counted in the summary), not dropped.
    inputs_filled: set[str] = set()
    for row in parsed.rows:
        if not row.judgements:
            # every criterion of the row skipped (a skip value, WMT's unranked -1): the
            # row writes nothing, as import_wmt's unranked rows do
            continue
        _item_input(
            items=items,
            mapping=mapping,
            row=row,
            file=file,
            items_created=items_created,
            inputs_filled=inputs_filled,
        )
        _input_language(
            row=row,
            mapping=mapping,
            file=file,
            stored=None
            if row.item_id in items_created or row.item_id in inputs_filled
            else item_languages.get(row.item_id),
            given=input_languages,
        )
        for system, text in zip(row.systems, row.texts, strict=True):
            key = (row.item_id, system)
            had = output_language.get(key) or (missing[key].language if key in missing else "")
            if row.language and had and had != row.language:
                raise ImportFileError(
                    f"the output of system '{system}' for item '{row.item_id}' is in "
                    f"'{had}', not '{row.language}'.",
                    file=file,
                    line=row.line,
                    field=mapping.language,
                )
            if key not in outputs and key not in missing:
                missing[key] = OutputRow(
                    item_id=row.item_id,
                    input=items[row.item_id],
                    system=system,
                    text=text,
                    language=row.language,
                )
    items_inputs_fill(
        campaign=campaign,
        inputs={i: items[i] for i in inputs_filled},
        languages={i: input_languages[i][0] for i in inputs_filled if i in input_languages},
    )
    unlike: dict[tuple[str, str], int] = {}
    if missing:
        # Each new item's input language, whichever of its rows gave it.
        rows = [
            replace(r, input_language=input_languages[r.item_id][0])
            if r.item_id in input_languages
            else r
            for r in missing.values()
        ]
        unlike = outputs_store(campaign=campaign, rows=rows).directions_unlike
        outputs.update({(r.item_id, r.system): r.text for r in missing.values()})
    return MappedOutputsStored(
        outputs=outputs,
        items_created=len(items_created),
        outputs_created=len(missing),
        inputs_filled=len(inputs_filled),
        directions_unlike=unlike,
        languages_defaulted=sum(not r.language for r in missing.values()),
    )


def mapped_judgements_finished(
    *,
    mapping: Mapping,
    parsed: ParsedMapped,
    outputs: dict[tuple[str, str], str],
    criteria: dict[str, Criterion],
    source: str,
) -> tuple[dict[str, list[FinishedJudgement]], int]:
    """The file's judgements, ready to store, by criterion name; and how many scores
    were given to a text other than the stored output's."""
    # Files without times get the import's, to the second (as exports write times), so
    # that an export re-imports to the same judgements.
    now = timezone.now().replace(microsecond=0)
    differing = 0
    finished: dict[str, list[FinishedJudgement]] = {name: [] for name in criteria}
    for j in parsed.judgements:
        scores = []
        for n, (system, text, score, rank) in enumerate(
            zip(j.systems, j.texts, j.scores, j.ranks, strict=True)
        ):
            stored = outputs[(j.item_id, system)]
            shown = text if mapping.output and text != stored else ""
            differing += bool(shown)
            scores.append(
                FinishedScore(
                    system=system,
                    score=score,
                    rank=rank,
                    text=shown,
                    coverage=j.coverage[n] if j.coverage else "",
                    checks=j.checks[n] if j.checks else (),
                )
            )
        finished[j.criterion].append(
            FinishedJudgement(
                item_id=j.item_id,
                worker_id=j.worker_id,
                scores=tuple(scores),
                started_at=j.started_at or now,
                submitted_at=j.submitted_at or now,
                task_external_id=j.unit_id,
                metadata={**j.metadata, "source": source, "line": j.line},
            )
        )
    return finished, differing


def mapped_judgements_store(
    *,
    campaign: Campaign,
    criteria: dict[str, Criterion],
    finished: dict[str, list[FinishedJudgement]],
    experts: bool,
    progress: Callable[[int, int], None] | None,
) -> int:
    """Store the judgements criterion by criterion, progress counted over all of them;
    returns how many were stored."""
    total = sum(len(v) for v in finished.values())
    done = 0
    count = 0
    for name, judgements in finished.items():
        offset = done

        def step(n: int, _of: int, offset: int = offset) -> None:
            if progress is not None:
                progress(offset + n, total)

        count += judgements_store_finished(
            campaign=campaign,
            criterion=criteria[name],
            judgements=judgements,
            experts=experts,
            progress=step,
        )
        done += len(judgements)
    return count
