"""Run a script in a fresh Python interpreter and read what it printed last, as JSON.

For tests of what a process imports at start-up: the test process has imported
everything already, so only a new interpreter can tell."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def fresh_interpreter_json(script: str, **env: str) -> Any:
    """The JSON of the last line ``script`` prints, run from the repository's root with
    this interpreter and ``env`` added to the environment. Fails with its stderr."""
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])
