"""Built-in column mappings for the common rating exports (pure: no Django).

Each preset is a mapping in its JSON form (what a saved preset holds, what the
designer's form shows) with a title and the file shape it assumes. Platform exports
hold the columns of the job the researcher designed besides the platform's own, so
the job-specific columns (item, input, per-slot system / output / score) follow one
naming a job can use; where a job named them otherwise, start from the preset and
change the patterns (the form, or a JSON mapping file).

Shapes assumed:

``e2e-quality`` / ``e2e-naturalness``
    The E2E NLG Challenge's human evaluation (Dusek et al. 2020: RankME on CrowdFlower,
    the full reports as read by ``import_e2e``), not the RankME paper's release
    (jeknov/RankME: the ``rankme-crowdflower-*`` presets): ``_unit_id``, ``_id``,
    ``_worker_id``, ``_started_at`` and
    ``_created_at`` (``MM/DD/YYYY HH:MM:SS``, UTC), ``mr``, ``mr_id``, per slot
    ``sys{i}``, ``ref{i}`` and ``quality{i}`` / ``natur{i}`` (1-based, five slots);
    quality's ``check{i}`` answers (``ok``, ``missing``, ``added``, both) are read as
    the content checks ``perfect``, ``missing``, ``added``.
    humaneval's own CSV export (``export_judgements --format csv``) has these columns
    too, so it re-imports with the preset of its criterion; ``humaneval-csv`` also
    restores a text the export quoted against spreadsheet formulas.
``rankme-crowdflower-setup1``, ``rankme-crowdflower-setup2-informativeness`` / ``-naturalness`` / ``-quality``
    The RankME paper's release (Novikova, Dusek and Rieser 2018; jeknov/RankME,
    ``data/*.zip``), RankME files: CrowdFlower reports of ``_created_at``
    (``M/D/YYYY H:MM:SS``), ``_channel``, ``_trust``, ``_worker_id``, ``_country``,
    ``_region``, ``_city`` (kept as metadata), ``mr``, ``mr_id``, three outputs per row
    as ``ref{i}`` and ``team{i}`` (the system), and magnitude estimates per criterion:
    set-up 1 (``stp1_rankME``) rates ``informativeness{i}``, ``naturalness{i}`` and
    ``quality{i}`` together (and has ``primary``), set-up 2 one per file:
    ``inf{i}`` (``stp2_rankME_inf``), ``naturalness{i}``, ``quality{i}`` with the
    content checks ``check{i}`` (``ok``, ``missing``, ``added``, both). No unit id and
    no start time: rows of one MR and the same systems share a task, judgement times
    are ``_created_at``.
``rankme-crowdflower-plain`` / ``rankme-crowdflower-likert`` (set-up 1), ``rankme-crowdflower-plain-<criterion>`` / ``rankme-crowdflower-likert-<criterion>`` (set-up 2)
    The same release's PlainME and Likert files: one output per row (``ref``, ``team``),
    set-up 1 with ``informativeness``, ``naturalness`` and ``quality`` columns, set-up 2
    one of them, quality with ``check_those_that_apply`` (its content checks). PlainME
    scores are magnitude estimates, Likert ones six points (levels 1-6).
    ``stp2_likert_qual`` has no ``_channel`` and ``_trust`` columns, ``stp2_plainME_nat``
    no ``mr_id`` (its items are named by their MR, ``mr``), as released.
``wmt``
    The WMT13-16 relative-ranking CSV (``import_wmt``; also ``export_judgements
    --format wmt``): ``segmentId``, ``judgeId``, ``system{i}Id``, ``system{i}rank``
    (rank 1 best, ties allowed, -1 = not ranked: the row is skipped), 2 to 5 slots. A
    file of several language pairs (``srclang``, ``trglang``) is refused at the first
    row of the second pair (``one_value``): items are keyed by segment, so two pairs'
    segments would merge into one ranking. The judge's column may be ``judgeID``, as
    WMT15-16's files and wmt-trueskill's ``xml2csv.py`` write it (``aliases``).
``humaneval-csv``
    humaneval's CSV export of any criterion (``export_judgements --format csv``): the
    E2E-like columns (``_unit_id``, ``_worker_id``, ``_started_at``, ``_created_at``,
    ``mr``, ``item_id``, ``sys{i}``, ``ref{i}``, ``check{i}`` coverage labels,
    ``content_checks{i}``), ``_language``, the scores as ``score{i}`` and their ranks as
``rank{i}`` (kept as given: WMT judges may rank all outputs 4th), the criterion's
    definition in ``_criterion`` (name, scale, Likert levels, content checks, question:
    the criterion is created as it was, under its own name) and each judgement's
    metadata in ``_metadata`` (JSON); the apostrophe the export puts before a text
    starting with ``= + - @`` (so no spreadsheet runs it) is taken off
    (``formula_quoted``).
``humaneval-jsonl``
    humaneval's JSONL export: one object per judgement with ``unit_id``,
    ``worker_id``, ``item_id``, ``input``, ``language``, ISO ``started_at``/
    ``submitted_at``, an ``outputs`` list of ``{system, text, score, rank, coverage,
    checks}`` (0-based), the criterion's ``definition`` and the judgement's
    ``metadata``, restored as with ``humaneval-csv``.
``crowdflower-full``
    A CrowdFlower / Figure Eight *full* report: one row per judgement with the
    platform's ``_unit_id``, ``_id``, ``_worker_id``, ``_started_at``, ``_created_at``
    (``MM/DD/YYYY HH:MM:SS``), ``_trust``, ``_channel``, and the job's columns
    ``item_id``, ``input``, ``system{i}``, ``output{i}`` and the answer ``rating{i}``.
``crowdflower-aggregated``
    A CrowdFlower / Figure Eight *aggregated* report: one row per unit, no worker
    column (the rows are stored as judgements of one worker, ``aggregate``);
    ``_unit_id``, ``_unit_state``, ``_trusted_judgments``, ``_last_judgment_at`` and
    the job's columns as above, the answer ``rating{i}`` being the aggregate.
``mturk``
    An Amazon Mechanical Turk batch results CSV: ``HITId``, ``AssignmentId``,
    ``WorkerId``, ``WorkTimeInSeconds``, the HIT's inputs as ``Input.item_id``,
    ``Input.input``, ``Input.system{i}``, ``Input.output{i}`` and the answers as
    ``Answer.rating{i}``. ``AcceptTime``/``SubmitTime`` carry US time-zone names
    (``PDT``) that cannot be read reliably; they are kept as metadata, not as times.
    Rows whose ``AssignmentStatus`` is ``Rejected`` (work the requester refused) are left
    out and counted (``skip_rows``); ``Submitted`` and ``Approved`` ones are imported.
``appraise-pairwise``
    Appraise's JSONL export of pairwise (document) direct-assessment results: one
    object per result with ``annotator``, ``segment_id``, ``source_text``,
    ``target1_system_id``/``target2_system_id``, ``target1_text``/``target2_text``,
    ``score1``/``score2`` (0-100), ``item_type``, ``document_id`` and
    ``start_time``/``end_time`` in seconds since 1970.
``appraise-csv``
    Appraise's CSV export of direct assessment or pairwise results
    (``ExportSystemScoresToCSV``, extended): no header line, one output per row (a
    pairwise result is written as two rows), the columns ``username``, system,
    segment (item) id, item type, source and target language codes, ``score`` (0-100),
    document id, whether the document is complete, and start and end time in seconds
    since 1970. Rows of one user, segment and document are one judgement each; items
    carry no texts (placeholders, as for WMT).
``potato``
    Potato's ``annotated_instances.tsv``: ``user``, ``instance_id``,
    ``displayed_text`` and one column per annotation scheme and label,
    ``<scheme>:::<label>``; assumed is one numeric (slider / number) scheme per output,
    ``rating{i}`` with the label ``score`` (``rating{i}:::score``), and the instance's
    own keys ``system{i}`` and ``output{i}``, which Potato writes as columns too.
"""

from __future__ import annotations

from typing import Any

from annotations.importing.parsers.mapped.mapping import Mapping, MappingError, mapping_from_dict

E2E_TIME = "%m/%d/%Y %H:%M:%S"
#: Appraise's ``get_system_data(extended_csv=True)`` fields, in order (it writes no header)
APPRAISE_CSV_COLUMNS = [
    "username",
    "system",
    "segment_id",
    "item_type",
    "source_language",
    "target_language",
    "score",
    "document_id",
    "is_complete_document",
    "start_time",
    "end_time",
]


def _e2e(name: str, prefix: str) -> dict[str, Any]:
    criterion: dict[str, Any] = {"name": name, "score": prefix + "{i}", "scale": "magnitude"}
    if name == "quality":  # RankME's check{i}: the content checks (ok = perfect)
        criterion["checks"] = "check{i}"
    return {
        "format": "csv",
        "worker": "_worker_id",
        "item": "mr_id",
        "input": "mr",
        "unit": "_unit_id",
        "slots": 0,
        "first": 1,
        "system": "sys{i}",
        "output": "ref{i}",
        "criteria": [criterion],
        "started_at": "_started_at",
        "submitted_at": "_created_at",
        "time_format": E2E_TIME,
        "metadata": ["_id"],
    }


#: the RankME release's CrowdFlower columns kept with each judgement
RANKME_METADATA = ["_channel", "_trust", "_country", "_region", "_city"]
#: criterion -> its score column in set-up 2's RankME files (informativeness is ``inf``)
RANKME_SETUP2_SCORES = {
    "informativeness": "inf",
    "naturalness": "naturalness",
    "quality": "quality",
}
RANKME_LIKERT_LEVELS = [1, 2, 3, 4, 5, 6]
#: criterion -> how the release's file names abbreviate it
RANKME_FILES = {"informativeness": "inf", "naturalness": "nat", "quality": "qual"}


def _rankme(
    criteria: list[dict[str, Any]], *, one_per_row: bool, item: str = "mr_id", metadata: list[str]
) -> dict[str, Any]:
    """A mapping of a file of the RankME paper's release (jeknov/RankME)."""
    return {
        "format": "csv",
        "worker": "_worker_id",
        "item": item,
        "input": "mr",
        "slots": 1 if one_per_row else 0,
        "first": 1,
        "system": "team" if one_per_row else "team{i}",
        "output": "ref" if one_per_row else "ref{i}",
        "criteria": criteria,
        "submitted_at": "_created_at",
        "time_format": E2E_TIME,
        "metadata": metadata,
    }


def _rankme_presets() -> dict[str, tuple[str, dict[str, Any]]]:
    names = list(RANKME_SETUP2_SCORES)
    release = "RankME paper release (jeknov/RankME, CrowdFlower)"
    presets: dict[str, tuple[str, dict[str, Any]]] = {
        "rankme-crowdflower-setup1": (
            f"{release}: set-up 1 RankME, three criteria (stp1_rankME)",
            _rankme(
                [{"name": n, "score": n + "{i}", "scale": "magnitude"} for n in names],
                one_per_row=False,
                metadata=[*RANKME_METADATA, "primary"],
            ),
        ),
    }
    for name, prefix in RANKME_SETUP2_SCORES.items():
        criterion: dict[str, Any] = {"name": name, "score": prefix + "{i}", "scale": "magnitude"}
        if name == "quality":
            criterion["checks"] = "check{i}"
        presets[f"rankme-crowdflower-setup2-{name}"] = (
            f"{release}: set-up 2 RankME {name} (stp2_rankME_{RANKME_FILES[name]})",
            _rankme([criterion], one_per_row=False, metadata=RANKME_METADATA),
        )
    for method, scale in (("plain", "magnitude"), ("likert", "likert")):
        levels = {"levels": RANKME_LIKERT_LEVELS} if scale == "likert" else {}
        title = "PlainME" if method == "plain" else "Likert (6 points)"
        presets[f"rankme-crowdflower-{method}"] = (
            f"{release}: set-up 1 {title}, three criteria, one output per row",
            _rankme(
                [{"name": n, "score": n, "scale": scale, **levels} for n in names],
                one_per_row=True,
                metadata=RANKME_METADATA,
            ),
        )
        for name in names:
            criterion = {"name": name, "score": name, "scale": scale, **levels}
            metadata = RANKME_METADATA
            if name == "quality":
                criterion["checks"] = "check_those_that_apply"
                if method == "likert":  # stp2_likert_qual has no _channel and _trust
                    metadata = ["_country", "_region", "_city"]
            presets[f"rankme-crowdflower-{method}-{name}"] = (
                f"{release}: set-up 2 {title} {name}, one output per row",
                _rankme(
                    [criterion],
                    one_per_row=True,
                    # stp2_plainME_nat has no mr_id: its items are named by their MR
                    item="mr" if (method, name) == ("plain", "naturalness") else "mr_id",
                    metadata=metadata,
                ),
            )
    return presets


_CROWDFLOWER_JOB = {
    "item": "item_id",
    "input": "input",
    "system": "system{i}",
    "output": "output{i}",
    "criteria": [{"name": "rating", "score": "rating{i}"}],
}

#: name -> (title, mapping in its JSON form)
PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "e2e-quality": (
        "E2E NLG Challenge human evaluation, quality (RankME on CrowdFlower: _unit_id, "
        "sys{i}, quality{i}; not the RankME paper's release); humaneval CSV export",
        _e2e("quality", "quality"),
    ),
    "e2e-naturalness": (
        "E2E NLG Challenge human evaluation, naturalness (RankME on CrowdFlower: "
        "_unit_id, sys{i}, natur{i}; not the RankME paper's release); humaneval CSV export",
        _e2e("naturalness", "natur"),
    ),
    **_rankme_presets(),
    "wmt": (
        "WMT relative ranking CSV (humaneval WMT export)",
        {
            "format": "csv",
            "worker": "judgeId",
            "item": "segmentId",
            "slots": 0,
            "first": 1,
            "system": "system{i}Id",
            "language": "trglang",
            "criteria": [{"name": "ranking", "score": "system{i}rank", "ranks": True}],
            "skip_values": ["-1"],
            "one_value": ["srclang", "trglang"],
            # The file's own ids, kept with each judgement where the file has them, as
            # import_wmt keeps them: the WMT export writes them back.
            "metadata": ["srclang", "srcIndex", "documentId"],
            "optional": ["trglang", "srclang", "srcIndex", "documentId"],
            "aliases": {"judgeId": ["judgeID"]},
        },
    ),
    "humaneval-csv": (
        "humaneval CSV export (any criterion)",
        {
            "format": "csv",
            "worker": "_worker_id",
            "item": "item_id",
            "input": "mr",
            "unit": "_unit_id",
            "language": "_language",
            "slots": 0,
            "first": 1,
            "system": "sys{i}",
            "output": "ref{i}",
            "criteria": [
                {
                    "name": "*",
                    "score": "score{i}",
                    "rank": "rank{i}",
                    "checks": "content_checks{i}",
                    "coverage": "check{i}",
                }
            ],
            "started_at": "_started_at",
            "submitted_at": "_created_at",
            "time_format": E2E_TIME,
            "definition": "_criterion",
            "metadata_json": "_metadata",
            "formula_quoted": True,
        },
    ),
    "humaneval-jsonl": (
        "humaneval JSONL export (any criterion)",
        {
            "format": "jsonl",
            "worker": "worker_id",
            "item": "item_id",
            "input": "input",
            "unit": "unit_id",
            "language": "language",
            "slots": 0,
            "first": 0,
            "system": "outputs.{i}.system",
            "output": "outputs.{i}.text",
            "criteria": [
                {
                    "name": "*",
                    "score": "outputs.{i}.score",
                    "rank": "outputs.{i}.rank",
                    "checks": "outputs.{i}.checks",
                    "coverage": "outputs.{i}.coverage",
                }
            ],
            "started_at": "started_at",
            "submitted_at": "submitted_at",
            "time_format": "iso",
            "definition": "definition",
            "metadata_json": "metadata",
        },
    ),
    "crowdflower-full": (
        "CrowdFlower / Figure Eight full report",
        {
            "format": "csv",
            "worker": "_worker_id",
            "unit": "_unit_id",
            "slots": 0,
            "first": 1,
            "started_at": "_started_at",
            "submitted_at": "_created_at",
            "time_format": E2E_TIME,
            "metadata": ["_id", "_trust", "_channel"],
            **_CROWDFLOWER_JOB,
        },
    ),
    "crowdflower-aggregated": (
        "CrowdFlower / Figure Eight aggregated report",
        {
            "format": "csv",
            "unit": "_unit_id",
            "slots": 0,
            "first": 1,
            "submitted_at": "_last_judgment_at",
            "time_format": E2E_TIME,
            "metadata": ["_unit_state", "_trusted_judgments"],
            **_CROWDFLOWER_JOB,
        },
    ),
    "mturk": (
        "Amazon Mechanical Turk batch results",
        {
            "format": "csv",
            "worker": "WorkerId",
            "unit": "HITId",
            "item": "Input.item_id",
            "input": "Input.input",
            "slots": 0,
            "first": 1,
            "system": "Input.system{i}",
            "output": "Input.output{i}",
            "criteria": [{"name": "rating", "score": "Answer.rating{i}"}],
            "metadata": ["AssignmentId", "WorkTimeInSeconds", "AcceptTime", "SubmitTime"],
            "skip_rows": {"AssignmentStatus": ["Rejected"]},
        },
    ),
    "appraise-pairwise": (
        "Appraise pairwise direct assessment (JSONL export)",
        {
            "format": "jsonl",
            "worker": "annotator",
            "item": "segment_id",
            "input": "source_text",
            "slots": 2,
            "first": 1,
            "system": "target{i}_system_id",
            "output": "target{i}_text",
            "criteria": [{"name": "direct-assessment", "score": "score{i}", "scale": "slider"}],
            "started_at": "start_time",
            "submitted_at": "end_time",
            "time_format": "epoch",
            "metadata": ["item_type", "document_id"],
        },
    ),
    "appraise-csv": (
        "Appraise CSV export (direct assessment / pairwise, one output per row)",
        {
            "format": "csv",
            "columns": APPRAISE_CSV_COLUMNS,
            "worker": "username",
            "item": "segment_id",
            "language": "target_language",
            "slots": 1,
            "system": "system",
            "criteria": [{"name": "direct-assessment", "score": "score", "scale": "slider"}],
            "started_at": "start_time",
            "submitted_at": "end_time",
            "time_format": "epoch",
            "metadata": ["item_type", "source_language", "document_id", "is_complete_document"],
        },
    ),
    "potato": (
        "Potato annotated_instances.tsv",
        {
            "format": "tsv",
            "worker": "user",
            "item": "instance_id",
            "input": "displayed_text",
            "slots": 0,
            "first": 1,
            "system": "system{i}",
            "output": "output{i}",
            "criteria": [{"name": "rating", "score": "rating{i}:::score"}],
        },
    ),
}


def preset_mapping(name: str) -> Mapping:
    """The built-in preset ``name`` (``KeyError`` when there is none)."""
    return mapping_from_dict(PRESETS[name][1])


def preset_dict(name: str) -> dict[str, Any]:
    """A copy of the preset's JSON form, to start a mapping of one's own from."""
    return mapping_from_dict(PRESETS[name][1]).to_dict()


def mapping_renamed(mapping: Mapping, criterion: str) -> Mapping:
    """``mapping`` with its one criterion stored under another name (the exports name
    their score columns after the criterion, the presets after a default)."""
    data = mapping.to_dict()
    if len(data["criteria"]) != 1:
        raise MappingError("only a mapping with one criterion can be renamed.", field="criteria")
    data["criteria"][0]["name"] = criterion
    return mapping_from_dict(data)
