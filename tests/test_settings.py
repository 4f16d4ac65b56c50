"""Every setting has its default in humaneval/settings.py only (docs/architecture.md: it
holds every setting): code reads ``settings.X``, never ``getattr(settings, "X", default)``,
whose default would be a second one that could drift from the first, or stand for a
setting settings.py never defines."""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

REPO = Path(__file__).resolve().parent.parent
SOURCES = ("humaneval", "common", "annotations", "ranking", "reports", "benchmarks")


def _settings_read_with_a_default(path: Path, base: Path = REPO) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and len(node.args) == 3
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == "settings"
        ):
            found.append(f"{path.relative_to(base)}:{node.lineno}")
    return found


def test_no_code_reads_a_setting_with_a_default_of_its_own() -> None:
    found = [
        where
        for root in SOURCES
        for path in sorted((REPO / root).rglob("*.py"))
        for where in _settings_read_with_a_default(path)
    ]
    assert found == [], f"a setting read with a second default (define it in settings.py): {found}"


def test_the_check_finds_a_setting_read_with_a_default(tmp_path: Path) -> None:
    module = tmp_path / "probe.py"
    module.write_text(
        'from django.conf import settings\nA = getattr(settings, "A")\nN = getattr(settings, "N", 30)\n'
    )
    assert _settings_read_with_a_default(module, tmp_path) == ["probe.py:3"]


def test_the_settings_once_read_with_a_default_are_defined() -> None:
    assert settings.RANKING_MIN_COMPARISONS == 30
    assert settings.REPORTS_PAGE_RESAMPLES == 200
