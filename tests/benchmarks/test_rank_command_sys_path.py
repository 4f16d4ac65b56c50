"""The benchmark scripts run as the Makefile runs them (``python benchmarks/x.py``) even
where PYTHONPATH already names the repository: the script's own folder comes first on
``sys.path``, and its ``ranking.py`` hid the ``ranking`` package ("'ranking' is not a
package") because each script put the repository first only where it was absent."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("script", ["rank_command.py", "ranking_stats.py", "arena.py"])
def test_a_script_imports_the_ranking_package_with_pythonpath_set(script):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / script), "--help"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout
