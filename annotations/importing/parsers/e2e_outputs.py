"""E2E system outputs: a folder of ``<system-label>.tsv`` files and ``participants.tsv``.

Each system file has the header ``MR<TAB>output`` and one row per meaning
representation (MR), in the same order in every file. The item of row *n* (1-based,
the header not counted) gets the external id ``str(n)``: the raw rating files of the
E2E challenge refer to MRs by this number (their ``mr_id``), so ratings link up with
the outputs.

The released files are not uniform, and these differences are accepted:

- UTF-8 with or without a byte-order mark; LF, CRLF or CR CR LF line ends;
- fields quoted with double quotes (CSV style) or not;
- some systems (tnt1, tnt2) wrap every MR and output in single quotes: when every MR
  of a file is so wrapped, the quotes are removed from the MRs and the outputs of that
  file;
- MRs are compared with whitespace collapsed.

``participants.tsv`` (``label<TAB>name<TAB>affiliation``) names the teams. A system
takes the participant whose label equals its own or, failing that, the longest
participant label it starts with followed by a non-letter (``forge1`` and ``forge3``
belong to ``forge``, ``slug-alt`` to ``slug``, ``tr2`` to ``tr``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from annotations.core.outputs import OutputRow
from annotations.importing.parsers.common import (
    ParsedOutputs,
    collapse_whitespace,
    csv_records,
)
from common.errors import ImportFileError

PARTICIPANTS_FILE = "participants.tsv"
HEADER = ("MR", "output")
FIELD_NAMES = {"item_id": "MR", "input": "MR", "system": "output", "output": "output"}


@dataclass(frozen=True)
class Participant:
    label: str
    name: str
    affiliation: str


def _wrapped(value: str) -> bool:
    return len(value) >= 2 and value.startswith("'") and value.endswith("'")


def _read_system_file(path: Path) -> list[tuple[int, str, str]]:
    """(line, MR, output) for every row of one system's file."""
    file = str(path)
    records = list(csv_records(path, delimiter="\t"))
    if not records:
        raise ImportFileError("the file is empty (header 'MR<TAB>output' expected).", file=file)
    header_line, header = records[0]
    names = tuple(h.strip() for h in header)
    if names != HEADER:
        raise ImportFileError(
            f"the header is {'/'.join(names)!r}, expected 'MR<TAB>output'.",
            file=file,
            line=header_line,
            field=next((h for h, e in zip(names, HEADER, strict=False) if h != e), "output"),
        )
    rows: list[tuple[int, str, str]] = []
    for line, record in records[1:]:
        if len(record) != 2:
            raise ImportFileError(
                f"expected 2 columns (MR, output), found {len(record)}.",
                file=file,
                line=line,
                field="output" if len(record) < 2 else "column 3",
            )
        rows.append((line, record[0].strip(), record[1].strip()))
    if rows and all(_wrapped(mr) for _, mr, _ in rows):
        rows = [
            (line, mr[1:-1].strip(), out[1:-1].strip() if _wrapped(out) else out)
            for line, mr, out in rows
        ]
    for line, mr, out in rows:
        if not mr:
            raise ImportFileError("the MR is empty.", file=file, line=line, field="MR")
        if not out:
            raise ImportFileError("the output is empty.", file=file, line=line, field="output")
    if not rows:
        raise ImportFileError("the file has a header but no outputs.", file=file, line=header_line)
    return rows


def system_files(folder: Path) -> list[Path]:
    """The systems' TSV files of an E2E folder (``system_outputs/`` when it exists)."""
    outputs_dir = folder / "system_outputs" if (folder / "system_outputs").is_dir() else folder
    return sorted(
        p for p in outputs_dir.glob("*.tsv") if p.is_file() and p.name != PARTICIPANTS_FILE
    )


def parse_e2e_outputs(folder: Path) -> ParsedOutputs:
    """Outputs of every system in the folder, checked to be aligned by MR."""
    if not folder.is_dir():
        raise ImportFileError("not a folder.", file=str(folder))
    files = system_files(folder)
    if not files:
        raise ImportFileError("the folder holds no <system>.tsv files.", file=str(folder))
    reference_file = files[0]
    reference = _read_system_file(reference_file)
    reference_mrs = [collapse_whitespace(mr) for _, mr, _ in reference]
    rows: list[OutputRow] = []
    where: list[tuple[str, int]] = []
    for path in files:
        label = path.stem
        if len(label) > 100:
            raise ImportFileError(
                "the system label (file name) is longer than 100.", file=str(path)
            )
        system_rows = reference if path == reference_file else _read_system_file(path)
        if len(system_rows) != len(reference):
            last_line = system_rows[-1][0]
            raise ImportFileError(
                f"has {len(system_rows)} outputs but {reference_file.name} has "
                f"{len(reference)}: the files are not aligned by MR.",
                file=str(path),
                line=last_line if len(system_rows) > len(reference) else last_line + 1,
                field="MR",
            )
        for n, ((line, mr, out), expected) in enumerate(
            zip(system_rows, reference_mrs, strict=True), start=1
        ):
            if collapse_whitespace(mr) != expected:
                raise ImportFileError(
                    f"the MR '{mr[:100]}' differs from row {n} of {reference_file.name} "
                    f"('{expected[:100]}'): the files are not aligned by MR.",
                    file=str(path),
                    line=line,
                    field="MR",
                )
            rows.append(OutputRow(item_id=str(n), input=expected, system=label, text=out))
            where.append((str(path), line))
    seen: dict[str, int] = {}
    for n, mr in enumerate(reference_mrs, start=1):
        if mr in seen:
            raise ImportFileError(
                f"the MR is the same as on row {seen[mr]}: each MR must appear once.",
                file=str(reference_file),
                line=reference[n - 1][0],
                field="MR",
            )
        seen[mr] = n
    return ParsedOutputs(rows=rows, where=where, field_names=FIELD_NAMES)


def parse_participants(path: Path) -> list[Participant]:
    file = str(path)
    records = list(csv_records(path, delimiter="\t"))
    if not records:
        raise ImportFileError("the file is empty.", file=file)
    header_line, header = records[0]
    names = [h.strip() for h in header]
    for column in ("label", "name"):
        if column not in names:
            raise ImportFileError(
                f"the header lacks the column '{column}' (expected label, name, affiliation).",
                file=file,
                line=header_line,
                field=column,
            )
    participants: list[Participant] = []
    labels: set[str] = set()
    for line, record in records[1:]:
        if len(record) != len(names):
            raise ImportFileError(
                f"expected {len(names)} columns as in the header, found {len(record)}.",
                file=file,
                line=line,
                field=names[len(record)] if len(record) < len(names) else "",
            )
        values = dict(zip(names, (v.strip() for v in record), strict=True))
        if not values["label"]:
            raise ImportFileError("the label is empty.", file=file, line=line, field="label")
        if values["label"] in labels:
            raise ImportFileError("the label appears twice.", file=file, line=line, field="label")
        if len(values["name"]) > 200:
            raise ImportFileError(
                "the name is longer than 200 characters.", file=file, line=line, field="name"
            )
        labels.add(values["label"])
        participants.append(
            Participant(
                label=values["label"],
                name=values["name"],
                affiliation=values.get("affiliation", ""),
            )
        )
    return participants


def participant_for(label: str, participants: list[Participant]) -> Participant | None:
    """The participant a system label belongs to (see the module docstring)."""
    for participant in participants:
        if participant.label == label:
            return participant
    matches = [
        p for p in participants if label.startswith(p.label) and not label[len(p.label)].isalpha()
    ]
    return max(matches, key=lambda p: len(p.label), default=None)
