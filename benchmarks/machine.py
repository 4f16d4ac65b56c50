"""How fast this machine runs plain Python right now: the yardstick the benchmarks' notes
quote for the hour's speed (this machine's varies within a day: a 10-million-addition
loop takes 0.6-0.9 s on fast hours and 1.2-1.7 s on slow ones), printed by the load,
fan-out and rank benchmarks beside their figures so that a figure carries its hour."""

from __future__ import annotations

import os
import time


def loop_seconds(n: int = 10_000_000) -> float:
    """Wall seconds of a plain loop adding ``n`` integers."""
    started = time.perf_counter()
    total = 0
    for i in range(n):
        total += i
    assert total == n * (n - 1) // 2
    return time.perf_counter() - started


def machine_line() -> str:
    """One line for a benchmark's report: the loop's time and the load average."""
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"machine: a 10-million-addition loop {loop_seconds():.2f} s, load average {load}"
