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
PACKAGES = ("humaneval", "common", "annotations", "ranking", "reports", "benchmarks")
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
        # Wide enough that a long chain (a command importing a command) stays on one line.
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "COLUMNS": "400"},
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


def test_the_product_importing_a_benchmark_is_refused(tree: Path) -> None:
    module = tree / "ranking" / "selectors" / "power.py"
    module.write_text(module.read_text() + "\nfrom benchmarks import simulate  # noqa\n")
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "ranking.selectors.power -> benchmarks.simulate" in result.stdout


def test_a_benchmark_importing_a_page_is_refused(tree: Path) -> None:
    module = tree / "benchmarks" / "ranking.py"
    module.write_text(module.read_text() + "\nfrom ranking.views import means  # noqa\n")
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "benchmarks.ranking -> ranking.views.means" in result.stdout


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


# Every interface package is one layer of independent siblings, as annotations' pages are.
INTERFACE_PACKAGES = (
    "annotations.views",
    "annotations.apis",
    "annotations.management.commands",
    "annotations.templatetags",
    "ranking.views",
    "ranking.apis",
    "ranking.management.commands",
    "ranking.templatetags",
    "reports.views",
    "reports.apis",
    "reports.management.commands",
)


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("ranking.views.means", "ranking.views.runs"),
        ("ranking.management.commands.rank", "ranking.management.commands.means"),
        ("annotations.apis.workers", "annotations.apis.judgements"),
        (
            "annotations.management.commands.import_e2e",
            "annotations.management.commands.import_ratings",
        ),
        ("reports.apis.metrics", "reports.apis.datasheet"),
    ],
)
def test_an_interface_importing_a_sibling_is_refused(
    tree: Path, importer: str, imported: str
) -> None:
    # What two commands (or two pages, two APIs) share goes below them, in a service,
    # selector or form.
    module = tree.joinpath(*importer.split(".")).with_suffix(".py")
    package, name = imported.rsplit(".", 1)
    module.write_text(module.read_text() + f"\nfrom {package} import {name}  # noqa\n")
    result = lint_imports(tree)
    assert result.returncode != 0
    assert f"{importer} -> {imported}" in result.stdout


@pytest.mark.parametrize(
    "package", ["ranking.views", "ranking.management.commands", "reports.apis"]
)
def test_a_new_interface_module_is_fenced_the_day_it_lands(tree: Path, package: str) -> None:
    tree.joinpath(*package.split("."), "brand_new.py").write_text('"""Not named yet."""\n')
    result = lint_imports(tree)
    assert result.returncode != 0
    assert f"{package}.brand_new" in result.stdout


def _contracts() -> list[dict]:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def test_every_interface_package_has_its_contract_of_independent_siblings() -> None:
    """One exhaustive contract per interface package, one layer whose modules are all
    independent (``|``): an interface package added to an app needs one too."""
    fenced = {
        c["containers"][0]: c
        for c in _contracts()
        if c["type"] == "layers" and len(c.get("containers", [])) == 1
    }
    for package in INTERFACE_PACKAGES:
        contract = fenced.get(package)
        assert contract is not None, f"{package} has no contract of independent siblings"
        assert contract.get("exhaustive") is True, package
        assert len(contract["layers"]) == 1 and ":" not in contract["layers"][0], package
    folders = {
        f"{app}.{layer}"
        for app in ("annotations", "ranking", "reports")
        for layer in ("views", "apis", "management.commands", "templatetags")
        if (REPO / app).joinpath(*layer.split(".")).is_dir()
    }
    assert folders == set(INTERFACE_PACKAGES)


# ranking.stats has one public door ---------------------------------------------------------


def test_a_module_importing_a_private_stats_module_is_refused(tree: Path) -> None:
    # The door exports what the rest of the project needs; a private module is the
    # door's to change.
    module = tree / "ranking" / "selectors" / "means.py"
    module.write_text(
        module.read_text() + "\nfrom ranking.stats._means import mean_intervals  # noqa\n"
    )
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "ranking.selectors.means -> ranking.stats._means" in result.stdout


def test_the_stats_door_contract_lists_every_private_module_and_every_source() -> None:
    """A new private module of ranking/stats/ must be listed as forbidden, and a new
    module of ranking/ as a source (import-linter cannot say "ranking but stats")."""
    contract = next(c for c in _contracts() if c["name"] == "ranking.stats has one public door")
    private = {
        f"ranking.stats.{p.stem}"
        for p in (REPO / "ranking" / "stats").glob("_*.py")
        if p.stem != "__init__"
    }
    assert set(contract["forbidden_modules"]) == private
    ranking = {
        f"ranking.{entry.stem}"
        for entry in (REPO / "ranking").iterdir()
        if entry.name not in ("stats", "__init__.py")
        and (entry.suffix == ".py" or (entry / "__init__.py").exists())
    }
    assert set(contract["source_modules"]) == {
        *ranking,
        "annotations",
        "reports",
        "common",
        "humaneval",
    }


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
