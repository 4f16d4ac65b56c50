"""How fast this machine runs plain Python right now: the yardstick the benchmarks' notes
quote for the hour's speed (this machine's varies within a day: a 10-million-addition
loop takes 0.6-0.9 s on fast hours and 1.2-1.7 s on slow ones), printed by the load,
fan-out and rank benchmarks beside their figures so that a figure carries its hour."""

from __future__ import annotations

import os
import platform
import sys
import time


def loop_seconds(n: int = 10_000_000) -> float:
    """Wall seconds of a plain loop adding ``n`` integers."""
    started = time.perf_counter()
    total = 0
    for i in range(n):
        total += i
    assert total == n * (n - 1) // 2
    return time.perf_counter() - started


def interpreter() -> str:
    """Which Python runs the benchmark: builds of one version differ by a fifth to a third in speed
    (deploy/pick_python.py), so a figure names its build."""
    return f"Python {platform.python_version()} at {os.path.realpath(sys.executable)}"


def machine_line() -> str:
    """One line for a benchmark's report: the loop's time, the load average and the
    interpreter."""
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"machine: a 10-million-addition loop {loop_seconds():.2f} s, load average {load}, "
        f"{interpreter()}"
    )
