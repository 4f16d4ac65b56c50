"""Run a script in a fresh Python interpreter: what a process does when it starts.

For tests of what a process imports, refuses or sets at start-up: the test process has
imported everything and configured its settings already, so only a new interpreter can
tell."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
#: A key a production process accepts, made afresh for each test run: a key written in
#: the repository would be public, and so refused.
TEST_SECRET_KEY = secrets.token_urlsafe(50)
# What decides how a process starts (humaneval.settings, humaneval.startup): a test
# says what it wants of these rather than inheriting the test run's.
_START_SETTINGS = ("DJANGO_", "HUMANEVAL_PRODUCTION_PROCESS", "HUMANEVAL_LOGIN")


def start_environment(**env: str) -> dict[str, str]:
    """This process's environment without the settings that decide how a process starts
    (DJANGO_*, the production mark, the login limits), with the project's settings module
    and ``env`` added."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith(_START_SETTINGS)}
    return kept | {"DJANGO_SETTINGS_MODULE": "humaneval.settings"} | env


def run_command(
    argv: list[str], *, env: dict[str, str], cwd: Path = REPO
) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` from ``cwd`` (the repository's root) with exactly ``env``, its output
    captured as text; not checked."""
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def run_python(
    *args: str, env: dict[str, str], cwd: Path = REPO
) -> subprocess.CompletedProcess[str]:
    """``python *args`` (this interpreter), as :func:`run_command` runs it."""
    return run_command([sys.executable, *args], env=env, cwd=cwd)


def fresh_interpreter_json(script: str, **env: str) -> Any:
    """The JSON of the last line ``script`` prints, run from the repository's root with
    this interpreter and ``env`` added to the environment. Fails with its stderr."""
    result = run_python("-c", script, env={**os.environ, **env})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])
