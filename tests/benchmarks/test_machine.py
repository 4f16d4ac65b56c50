"""The machine-speed line the benchmarks print beside their figures."""

from __future__ import annotations

import re

from benchmarks.machine import loop_seconds, machine_line


def test_the_loop_is_timed_and_the_line_names_it_with_the_load_and_the_interpreter():
    assert loop_seconds(1000) > 0
    assert re.fullmatch(
        r"machine: a 10-million-addition loop [0-9.]+ s, load average [0-9.]+, [0-9.]+, "
        r"[0-9.]+, Python 3\.[0-9]+\.[0-9]+ at /\S+",
        machine_line(),
    )
