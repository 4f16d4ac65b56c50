"""Helpers of the importer tests: small files written into tmp_path, model counts, a
three-output rating file and its mapping (the fixtures built on them are in
tests/annotations/conftest.py)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from django.apps import apps

SYSTEMS = ["alpha", "beta1", "beta2", "gamma", "delta"]
MRS = [
    "name[Aromi], eatType[coffee shop], area[city centre]",
    "name[Cotto], eatType[pub], near[The Bakers]",
]


def output_text(system: str, n: int) -> str:
    # gamma and delta say the same thing on MR 1: a group of identical outputs.
    if n == 1 and system in ("gamma", "delta"):
        return "Aromi is a coffee shop in the city centre."
    return f"{system} says something about MR {n}."


def model_counts() -> dict[str, int]:
    """Rows of every model of the annotations app."""
    return {
        m.__name__: m._default_manager.count()
        for m in apps.get_app_config("annotations").get_models()
    }


def write_tsv(path: Path, rows: list[list[str]]) -> Path:
    path.write_text("".join("\t".join(r) + "\n" for r in rows), encoding="utf-8")
    return path


def write_csv(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


QUALITY_HEADER = (
    ["_unit_id", "_created_at", "_id", "_started_at", "_tainted", "_channel", "_trust"]
    + ["_worker_id", "_country"]
    + [f"check{k}" for k in range(1, 6)]
    + [f"quality{k}" for k in range(1, 6)]
    + [f"dupl_ref{k}" for k in range(1, 6)]
    + ["mr", "mr_id"]
    + [f"ref{k}" for k in range(1, 6)]
    + [f"sys{k}" for k in range(1, 6)]
)
NATUR_HEADER = [h.replace("quality", "natur") for h in QUALITY_HEADER if not h.startswith("check")]


def rating_row(
    *,
    unit: str,
    judgement_id: str,
    worker: str,
    mr_id: int,
    scores: list[str],
    criterion: str = "quality",
    started: str = "11/28/2017 14:42:14",
    created: str = "11/28/2017 14:51:43",
) -> dict[str, str]:
    systems = SYSTEMS if mr_id == 1 else list(reversed(SYSTEMS))
    row = {
        "_unit_id": unit,
        "_created_at": created,
        "_id": judgement_id,
        "_started_at": started,
        "_tainted": "False",
        "_channel": "neodev",
        "_trust": "0.9",
        "_worker_id": worker,
        "_country": "USA",
        "mr": MRS[mr_id - 1],
        "mr_id": str(mr_id),
    }
    prefix = "quality" if criterion == "quality" else "natur"
    for k, system in enumerate(systems, start=1):
        row[f"sys{k}"] = system
        row[f"ref{k}"] = output_text(system, mr_id)
        row[f"{prefix}{k}"] = scores[k - 1]
        row[f"dupl_ref{k}"] = ""
        if criterion == "quality":
            row[f"check{k}"] = "added\nmissing" if k == 2 else "ok"
    if mr_id == 1:  # gamma (slot 4) and delta (slot 5) showed the same text
        row["dupl_ref4"], row["dupl_ref5"] = "5.0", "4.0"
    return row


def write_ratings(path: Path, rows: list[dict[str, str]], *, criterion: str = "quality") -> Path:
    header = QUALITY_HEADER if criterion == "quality" else NATUR_HEADER
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=header)
        writer.writeheader()
        for row in rows:
            writer.writerow(row)
    return path


def good_quality_rows() -> list[dict[str, str]]:
    return [
        rating_row(
            unit="u1",
            judgement_id="j1",
            worker="w1",
            mr_id=1,
            scores=["100", "50", "150", "80", "80"],
        ),
        rating_row(
            unit="u1",
            judgement_id="j2",
            worker="w2",
            mr_id=1,
            scores=["90", "90", "100", "70", "75"],
            started="11/28/2017 15:00:00",
            created="11/28/2017 15:01:30",
        ),
        rating_row(
            unit="u2",
            judgement_id="j3",
            worker="w1",
            mr_id=2,
            scores=["100", "100", "100", "100", "100"],
        ),
    ]


def good_natur_rows() -> list[dict[str, str]]:
    return [
        rating_row(
            unit="n1",
            judgement_id="k1",
            worker="w1",
            mr_id=2,
            criterion="naturalness",
            scores=["10", "20", "30", "40", "50"],
        ),
        rating_row(
            unit="n2",
            judgement_id="k2",
            worker="w3",
            mr_id=1,
            criterion="naturalness",
            scores=["60", "70", "80", "90", "100"],
        ),
    ]


def make_e2e_folder(root: Path, *, ratings: bool = True) -> Path:
    """A small E2E folder: 5 systems x 2 MRs, participants, quality and naturalness."""
    outputs = root / "system_outputs"
    outputs.mkdir(parents=True)
    for system in SYSTEMS:
        write_tsv(
            outputs / f"{system}.tsv",
            [["MR", "output"]] + [[mr, output_text(system, n)] for n, mr in enumerate(MRS, 1)],
        )
    write_tsv(
        root / "participants.tsv",
        [
            ["label", "name", "affiliation"],
            ["alpha", "Alpha Team", "Uni A"],
            ["beta", "Beta Team", "Uni B"],
        ],
    )
    if ratings:
        write_ratings(root / "quality.csv", good_quality_rows())
        write_ratings(root / "naturalness.csv", good_natur_rows(), criterion="naturalness")
    return root


# A CSV of three outputs per row judged on two criteria, and its column mapping.
HEADER = ["judge", "seg", "src", "team1", "team2", "team3", "hyp1", "hyp2", "hyp3"] + [
    f"{c}{i}" for c in ("flu", "ade") for i in (1, 2, 3)
]


def three_slot_mapping(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "csv",
        "worker": "judge",
        "item": "seg",
        "input": "src",
        "slots": 3,
        "system": "team{i}",
        "output": "hyp{i}",
        "criteria": [
            {"name": "fluency", "score": "flu{i}"},
            {"name": "adequacy", "score": "ade{i}"},
        ],
    }
    data.update(changes)
    return data


def rows3() -> list[list[str]]:
    return [
        list(HEADER),
        ["w1", "s1", "a source", "A", "B", "C", "ta", "tb", "tc", "1", "2", "3", "4", "5", "5"],
        ["w2", "s1", "a source", "C", "A", "B", "tc", "ta", "tb", "3", "3", "1", "2", "2", "2.5"],
    ]
