"""The import contracts fence every module, including one added tomorrow.

Each test copies the packages and pyproject.toml to a temporary folder, changes the copy
and runs ``lint-imports`` there: the untouched copy keeps every contract, and each
change breaks one, naming the module.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("humaneval", "common", "annotations", "ranking", "reports")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    if not LINT_IMPORTS.exists():
        pytest.skip(f"{LINT_IMPORTS} is absent (install the dev extras)")
    for package in PACKAGES:
        shutil.copytree(
            REPO / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_tree_as_it_is_keeps_every_contract(tree: Path) -> None:
    result = lint_imports(tree)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_an_interface_importing_another_apps_interface_is_refused(tree: Path) -> None:
    module = tree / "ranking" / "views" / "means.py"
    module.write_text(module.read_text() + "\nfrom annotations.views import campaigns  # noqa\n")
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "ranking.views.means -> annotations.views.campaigns" in result.stdout


@pytest.mark.parametrize("app", ["annotations", "ranking", "reports", "common"])
def test_a_new_module_is_fenced_the_day_it_lands(tree: Path, app: str) -> None:
    (tree / app / "brand_new_feature.py").write_text('"""Not placed in any layer yet."""\n')
    result = lint_imports(tree)
    assert result.returncode != 0
    assert f"{app}.brand_new_feature" in result.stdout


def test_a_new_module_importing_upwards_is_refused(tree: Path) -> None:
    # Placed nowhere, importing a view from a selector's neighbour: both faults are named.
    (tree / "ranking" / "selectors_extra.py").write_text("from ranking import views  # noqa\n")
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "ranking.selectors_extra" in result.stdout


def test_a_service_importing_web_plumbing_is_refused(tree: Path) -> None:
    module = tree / "annotations" / "services" / "payments.py"
    module.write_text(
        module.read_text() + "\nfrom annotations.access.pages import campaign_view  # noqa\n"
    )
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "annotations.services.payments -> annotations.access.pages" in result.stdout


def test_another_apps_selector_importing_an_annotations_form_is_refused(tree: Path) -> None:
    module = tree / "ranking" / "selectors" / "means.py"
    module.write_text(module.read_text() + "\nfrom annotations.forms import plan  # noqa\n")
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "ranking.selectors.means -> annotations.forms.plan" in result.stdout


def test_a_service_importing_an_importer_is_refused(tree: Path) -> None:
    # Imports call the services; the reverse import made the two packages a circle.
    module = tree / "annotations" / "services" / "demo.py"
    module.write_text(
        module.read_text() + "\nfrom annotations.importing.outputs import outputs_import  # noqa\n"
    )
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "annotations.services.demo -> annotations.importing.outputs" in result.stdout


def test_a_page_importing_another_page_is_refused(tree: Path) -> None:
    # What two pages share goes below them (access/, forms/, selectors/): the session's
    # page once imported the task page's helpers from views/judgements.py.
    module = tree / "annotations" / "views" / "sessions.py"
    module.write_text(module.read_text() + "\nfrom annotations.views import judgements  # noqa\n")
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "annotations.views.sessions -> annotations.views.judgements" in result.stdout


def test_a_new_page_module_is_fenced_the_day_it_lands(tree: Path) -> None:
    (tree / "annotations" / "views" / "brand_new_page.py").write_text('"""Not named yet."""\n')
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "annotations.views.brand_new_page" in result.stdout


# annotations' access sits in two layers: the doors that take a request above the
# services, the one check below the selectors -------------------------------------------


def test_an_access_door_importing_a_form_is_refused(tree: Path) -> None:
    module = tree / "annotations" / "access" / "pages.py"
    module.write_text(module.read_text() + "\nfrom annotations.forms import plan  # noqa\n")
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "annotations.access.pages -> annotations.forms.plan" in result.stdout


def test_the_one_access_check_importing_a_selector_is_refused(tree: Path) -> None:
    # Services and selectors use the check (roles, the campaigns a user sees): it reads
    # the models only.
    module = tree / "annotations" / "access" / "campaigns.py"
    module.write_text(
        module.read_text() + "\nfrom annotations.selectors import campaigns  # noqa\n"
    )
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "annotations.access.campaigns -> annotations.selectors.campaigns" in result.stdout


def test_a_new_access_module_is_fenced_the_day_it_lands(tree: Path) -> None:
    (tree / "annotations" / "access" / "brand_new.py").write_text('"""Not placed yet."""\n')
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "annotations.access.brand_new" in result.stdout


def _layer_modules(layers: list[str]) -> set[str]:
    return {name for layer in layers for name in re.findall(r"[\w.]+", layer)}


def test_every_access_module_has_its_place_in_the_annotations_layers() -> None:
    """The annotations contract names access module by module (the package is exempt from
    its exhaustive check), so each module must be named there, as in access's own."""
    contracts = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"
    ]
    annotations = next(c for c in contracts if c.get("containers") == ["annotations"])
    placed = {
        name.removeprefix("access.")
        for name in _layer_modules(annotations["layers"])
        if name.startswith("access.")
    }
    modules = {p.stem for p in (REPO / "annotations" / "access").glob("*.py")} - {"__init__"}
    assert placed == modules, "place every annotations/access module in the annotations layers"
    access = next(c for c in contracts if c.get("containers") == ["annotations.access"])
    assert _layer_modules(access["layers"]) == modules
