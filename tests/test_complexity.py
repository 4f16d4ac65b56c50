"""No function of the project is more complex than radon's grade D (cyclomatic
complexity at most 30): a longer one is split along its own seams into helpers with
clear names. Migrations (generated) are not looked at."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class, Function

REPO = Path(__file__).resolve().parent.parent
ROOTS = ("annotations", "ranking", "reports", "common", "humaneval")
MAX_COMPLEXITY = 30  # the top of radon's grade D


def _functions(blocks: list[Function | Class], prefix: str = "") -> Iterator[tuple[str, Function]]:
    """Every function of radon's blocks, with its dotted name: methods as
    ``Class.method``, nested functions as ``outer.inner``. (``cc_visit`` lists a
    class's methods beside it too: they are taken from the class, once.)"""
    for block in blocks:
        if isinstance(block, Class):
            yield from _functions([*block.methods, *block.inner_classes], f"{prefix}{block.name}.")
        elif prefix or not block.is_method:
            name = f"{prefix}{block.name}"
            yield name, block
            yield from _functions(block.closures, f"{name}.")


def too_complex(source: str) -> list[tuple[str, int, int]]:
    """(name, line, complexity) of each function of ``source`` above the limit."""
    return [
        (name, f.lineno, f.complexity)
        for name, f in _functions(cc_visit(source))
        if f.complexity > MAX_COMPLEXITY
    ]


def test_no_function_is_more_complex_than_grade_d() -> None:
    found = []
    for root in ROOTS:
        for file in sorted((REPO / root).rglob("*.py")):
            path = file.relative_to(REPO).as_posix()
            if "migrations" in file.relative_to(REPO).parts:
                continue
            for name, line, complexity in too_complex(file.read_text(encoding="utf-8")):
                found.append(f"{path}:{line} {name} (complexity {complexity})")
    assert found == [], (
        f"functions above cyclomatic complexity {MAX_COMPLEXITY} (radon grade E or F); "
        "split them along their seams:\n" + "\n".join(found)
    )


def _indented(source: str) -> str:
    return "".join(f"    {line}\n" for line in source.splitlines())


def test_the_check_finds_a_complex_function_method_and_closure() -> None:
    # Each ``if`` adds one to the complexity of 1 of a function without branches.
    def branching(name: str, n: int) -> str:
        return f"def {name}(x):\n" + "".join(
            f"    if x == {i}:\n        return {i}\n" for i in range(n)
        )

    source = "\n".join(
        [
            branching("plain", MAX_COMPLEXITY),
            branching("fine", MAX_COMPLEXITY - 1),
            "class Box:\n" + _indented(branching("method", MAX_COMPLEXITY)),
            "def outer():\n" + _indented(branching("inner", MAX_COMPLEXITY)) + "    return inner\n",
        ]
    )
    found = {name: complexity for name, _, complexity in too_complex(source)}
    assert found == {name: MAX_COMPLEXITY + 1 for name in ("plain", "Box.method", "outer.inner")}
