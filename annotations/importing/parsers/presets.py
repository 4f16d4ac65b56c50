"""Built-in column mappings for the common rating exports (pure: no Django).

Each preset is a mapping in its JSON form (what a saved preset holds, what the
designer's form shows) with a title and the file shape it assumes. Platform exports
hold the columns of the job the researcher designed besides the platform's own, so
the job-specific columns (item, input, per-slot system / output / score) follow one
naming a job can use; where a job named them otherwise, start from the preset and
change the patterns (the form, or a JSON mapping file).

Shapes assumed:

``e2e-quality`` / ``e2e-naturalness``
    The E2E NLG Challenge RankME exports (CrowdFlower full reports, as read by
    ``import_e2e``): ``_unit_id``, ``_id``, ``_worker_id``, ``_started_at`` and
    ``_created_at`` (``MM/DD/YYYY HH:MM:SS``, UTC), ``mr``, ``mr_id``, per slot
    ``sys{i}``, ``ref{i}`` and ``quality{i}`` / ``natur{i}`` (1-based, five slots);
    quality's ``check{i}`` answers (``ok``, ``missing``, ``added``, both) are read as
    the content checks ``perfect``, ``missing``, ``added``.
    humaneval's own CSV export (``export_judgements --format csv``) has these columns
    too, so it re-imports with the preset of its criterion.
``wmt``
    The WMT13-16 relative-ranking CSV (``import_wmt``; also ``export_judgements
    --format wmt``): ``segmentId``, ``judgeId``, ``system{i}Id``, ``system{i}rank``
    (rank 1 best, ties allowed, -1 = not ranked: the row is skipped), 2 to 5 slots.
``humaneval-csv``
    humaneval's CSV export of any criterion (``export_judgements --format csv``): the
    E2E-like columns (``_unit_id``, ``_worker_id``, ``_started_at``, ``_created_at``,
    ``mr``, ``item_id``, ``sys{i}``, ``ref{i}``, ``check{i}`` coverage labels,
    ``content_checks{i}``), ``_language``, the scores as ``score{i}`` and their ranks as
``rank{i}`` (kept as given: WMT judges may rank all outputs 4th), the criterion's
    definition in ``_criterion`` (name, scale, Likert levels, content checks, question:
    the criterion is created as it was, under its own name) and each judgement's
    metadata in ``_metadata`` (JSON).
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

from annotations.importing.parsers.mapped import Mapping, MappingError, mapping_from_dict

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
        "E2E RankME quality (CrowdFlower; humaneval CSV export)",
        _e2e("quality", "quality"),
    ),
    "e2e-naturalness": (
        "E2E RankME naturalness (CrowdFlower; humaneval CSV export)",
        _e2e("naturalness", "natur"),
    ),
    "wmt": (
        "WMT relative ranking CSV (humaneval WMT export)",
        {
            "format": "csv",
            "worker": "judgeId",
            "item": "segmentId",
            "slots": 0,
            "first": 1,
            "system": "system{i}Id",
            "criteria": [{"name": "ranking", "score": "system{i}rank", "ranks": True}],
            "skip_values": ["-1"],
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


def preset_names() -> list[str]:
    return list(PRESETS)


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
