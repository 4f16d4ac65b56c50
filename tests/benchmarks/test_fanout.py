"""The fan-out benchmark's verdict and its refusal to time another workload
(benchmarks/fanout.py; the benchmark itself runs by hand: make benchmark-fanout)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from benchmarks import fanout


def test_the_verdict_is_met_or_missed_only_when_every_round_agrees() -> None:
    """One machine's noise moved two workers' ratio from 1.31x to 2.34x within minutes:
    a median near the target says nothing, so rounds on both sides of it are
    inconclusive."""
    assert fanout._verdict([1.81, 1.9, 2.3], 1.8) == "met in every round"
    assert fanout._verdict([1.31, 1.44, 1.79], 1.8) == "MISSED in every round"
    assert fanout._verdict([1.74, 1.75, 1.88], 1.8) == "inconclusive (1 of 3 rounds reach it)"


def test_without_the_e2e_data_it_skips_rather_than_time_another_workload(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A clone away from ../shared/e2e used to time a planted campaign under the same
    verdict as E2E quality (1.75x there against 1.44x on E2E the same hour); it now
    says what is missing, before touching a database, unless --synthetic asks for it."""
    monkeypatch.setenv("HUMANEVAL_E2E_DIR", str(tmp_path / "absent"))
    monkeypatch.setattr(sys, "argv", ["fanout.py", "--rounds", "1"])

    def unreachable() -> str:
        raise AssertionError("the data check comes before PostgreSQL and Redis")

    monkeypatch.setattr(fanout, "_reachable", unreachable)
    assert fanout.main() == 0
    out = capsys.readouterr().out
    assert "skipped: the E2E data is not at" in out and "--synthetic" in out
