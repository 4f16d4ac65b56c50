"""Print the fastest Python interpreter of this machine that can hold the project's venv.

``make`` creates ``.venv`` with it (``PYTHON ?= $(shell python3 deploy/pick_python.py)``;
``PYTHON=...`` on the command line still wins). Builds of the same version differ:
Debian's ``/usr/bin/python3.11`` is built with profile-guided and link-time optimisation
into one static binary, while a pyenv build without ``--enable-optimizations`` runs
through a shared ``libpython`` (measured side by side on the project's machine: a plain
loop about a third faster, a worker's arrival and cycle on about a fifth less server CPU,
docs/benchmarks.md). Build flags do not say which is which
(Debian's ``sysconfig`` reports its shared build's), so each candidate runs the same
loop and the fastest wins.

A candidate counts when it is the minor version of the first candidate (``python3``: the
choice never changes the version, only the build) and at least its patch release, has ``venv`` with ``ensurepip``
(Debian's comes with the ``python3.X-venv`` package) and its C headers (a dependency
without a wheel is built against them). Candidates: the arguments, else ``python3``,
``python3.11`` to ``python3.13`` on ``PATH`` and ``/usr/bin/python3``. When the first does
not count, prints it anyway (``make`` then fails or succeeds as it always did). Standard
library only: runs before any venv exists.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

#: run by each candidate: its real executable and the best of three timings of a loop,
#: or a line saying why it cannot hold the venv
PROBE = """
import os, sys, sysconfig, time
if sys.version_info < (3, 11):
    print("no: older than 3.11"); raise SystemExit
version = "%d.%d.%d" % sys.version_info[:3]
try:
    import ensurepip, venv  # noqa: F401
    ensurepip.version()  # the pip wheel it installs (Debian: python3-pip-whl)
except Exception:
    print("no: no venv/ensurepip"); raise SystemExit
if not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")):
    print("no: no C headers"); raise SystemExit
best = float("inf")
for _ in range(3):
    started = time.perf_counter()
    total = 0
    for i in range(2_000_000):
        total += i
    best = min(best, time.perf_counter() - started)
print("ok", version, best, os.path.realpath(sys.executable))
"""

DEFAULT_CANDIDATES = ("python3", "python3.11", "python3.12", "python3.13", "/usr/bin/python3")


def probe(command: str) -> tuple[str, float, str] | None:
    """(version, loop seconds, real executable) of one candidate, or None when it cannot
    hold the venv."""
    found = shutil.which(command)
    if found is None:
        return None
    try:
        answer = subprocess.run(
            [found, "-I", "-c", PROBE], capture_output=True, text=True, timeout=60, check=False
        ).stdout.split()
    except (OSError, subprocess.TimeoutExpired):
        return None
    if len(answer) != 4 or answer[0] != "ok":
        return None
    return answer[1], float(answer[2]), answer[3]


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def pick(candidates: list[str]) -> str:
    """The fastest candidate of the first one's minor version and at least its patch
    release (the first when it does not count). An older patch release is never taken,
    however fast: Debian 12's 3.11.2 is faster than pyenv's 3.11.7 but has CPython's
    "AST constructor recursion depth mismatch" bug (fixed in 3.11.5), which failed the
    API schema test's ``ast.parse`` in CI."""
    first = probe(candidates[0])
    if first is None:
        return candidates[0]
    floor = _release(first[0])
    timed = {first[2]: first[1]}
    for command in candidates[1:]:
        result = probe(command)
        if (
            result is not None
            and _release(result[0])[:2] == floor[:2]
            and _release(result[0]) >= floor
        ):
            _, seconds, executable = result
            timed[executable] = min(seconds, timed.get(executable, seconds))
    return min(timed, key=lambda executable: timed[executable])


def main() -> None:
    print(pick(sys.argv[1:] or list(DEFAULT_CANDIDATES)))


if __name__ == "__main__":
    main()
