"""One layout rule in every app, and no import circles.

Each app (annotations, ranking, reports) has a package per layer and a module per entity
or feature inside it; only Django's and Celery's own names stay flat modules. A file
such as ``views_means.py`` or ``apis_power.py`` beside the packages breaks the rule, and
so does a serializer written inside an API module (it belongs in
``<app>/serializers/<feature>.py``) or an import circle anywhere in the project's own
modules.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import grimp
import pytest

REPO = Path(__file__).resolve().parent.parent
APPS = ("annotations", "ranking", "reports")
# Django's and Celery's own module names.
FLAT_MODULES = {"__init__", "models", "admin", "apps", "tasks"}
# The layers an app may have, each a package.
LAYERS = {
    "urls",
    "views",
    "apis",
    "forms",
    "serializers",
    "services",
    "importing",
    "selectors",
    "exports",
    "access",
    "core",
    "stats",
    "management",
    "templatetags",
    "migrations",
    # models grown past one module: a package, one module per entity
    "models",
}


@pytest.mark.parametrize("app", APPS)
def test_an_app_has_only_layer_packages_and_framework_modules(app: str) -> None:
    root = REPO / app
    flat = sorted(p.stem for p in root.glob("*.py") if p.stem not in FLAT_MODULES)
    assert flat == [], f"{app}: modules outside a layer package: {flat}"
    packages = {p.name for p in root.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages <= LAYERS, f"{app}: packages that are not layers: {sorted(packages - LAYERS)}"


def test_a_feature_has_the_same_name_in_every_layer() -> None:
    # Pages and their APIs are named alike: every API module of an app has a page, a
    # service or a selector of the same name (tokens: the API's own sign-in).
    for app in APPS:
        names = {
            p.stem
            for layer in ("views", "services", "selectors", "importing")
            for p in (REPO / app / layer).glob("*.py")
        }
        apis = {p.stem for p in (REPO / app / "apis").glob("*.py")} - {"__init__", "tokens"}
        assert apis <= names, (
            f"{app}: API modules without a page, service or selector: {sorted(apis - names)}"
        )


def _serializer_classes(source: str) -> list[str]:
    """Classes of a module that subclass a DRF serializer: a base named ``...Serializer``
    (``Serializer``, ``serializers.ModelSerializer``, ``ApiModelSerializer``), or a class
    of the same module that does."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ClassDef):
            continue
        for base in node.bases:
            name = (
                base.id
                if isinstance(base, ast.Name)
                else base.attr
                if isinstance(base, ast.Attribute)
                else ""
            )
            if name.endswith("Serializer") or name in found:
                found.append(node.name)
                break
    return found


@pytest.mark.parametrize("app", APPS)
def test_an_api_module_defines_no_serializer(app: str) -> None:
    # The shape of an API's input and output lives in serializers/<feature>.py, beside
    # the forms, below the interfaces (the import contracts place it there).
    defined = {
        f"{app}/apis/{module.name}": classes
        for module in sorted((REPO / app / "apis").glob("*.py"))
        if (classes := _serializer_classes(module.read_text()))
    }
    assert defined == {}, f"serializers in API modules (move them to {app}/serializers/)"


@pytest.mark.parametrize("app", APPS)
def test_routes_import_their_interfaces_by_their_own_names(app: str) -> None:
    # ``from ranking.apis import means, power``, never ``power as apis_power``: a module
    # has one name wherever it is routed.
    aliased = [
        f"{module.name}: {node.module}.{alias.name} as {alias.asname}"
        for module in sorted((REPO / app / "urls").glob("*.py"))
        for node in ast.walk(ast.parse(module.read_text()))
        if isinstance(node, ast.ImportFrom) and node.module in (f"{app}.apis", f"{app}.views")
        for alias in node.names
        if alias.asname is not None
    ]
    assert aliased == [], f"{app}/urls/ imports interfaces under other names: {aliased}"


def test_the_serializer_finder_finds_serializers() -> None:
    source = """
from rest_framework import serializers
from rest_framework.serializers import Serializer
from common.serializers import ApiModelSerializer

class Query(serializers.Serializer): ...
class Run(serializers.ModelSerializer): ...
class Plain(Serializer): ...
class Campaign(ApiModelSerializer): ...
class Narrower(Query): ...
class Field(serializers.BooleanField): ...
class Api(CampaignScoped, APIView): ...
"""
    assert _serializer_classes(source) == ["Query", "Run", "Plain", "Campaign", "Narrower"]


def _circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_circles() -> None:
    sys.path.insert(0, str(REPO))
    graph = grimp.build_graph(*APPS, "common", "humaneval", cache_dir=None)
    assert _circles(graph) == []


def test_the_circle_finder_finds_a_circle() -> None:
    graph = grimp.ImportGraph()
    for name in ("a", "a.x", "a.y", "a.z"):
        graph.add_module(name)
    graph.add_import(importer="a.x", imported="a.y")
    graph.add_import(importer="a.y", imported="a.x")
    graph.add_import(importer="a.z", imported="a.x")
    assert _circles(graph) == [["a.x", "a.y"]]


# A module longer than this is split along its own seams (a module per feature, as the
# layout asks); generated migrations are not looked at.
MAX_MODULE_LINES = 800
SIZED_ROOTS = (*APPS, "common")


def _modules_too_long(root: Path, roots: tuple[str, ...]) -> list[str]:
    """``path: lines`` of each production module of ``roots`` above the limit."""
    found = []
    for name in roots:
        for path in sorted((root / name).rglob("*.py")):
            if "migrations" in path.relative_to(root).parts:
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_MODULE_LINES:
                found.append(f"{path.relative_to(root)}: {lines}")
    return found


def test_no_production_module_is_longer_than_the_limit() -> None:
    too_long = _modules_too_long(REPO, SIZED_ROOTS)
    assert too_long == [], f"modules over {MAX_MODULE_LINES} lines: {too_long}"


def test_the_size_check_sees_long_modules_and_skips_migrations(tmp_path: Path) -> None:
    long = "x = 1\n" * (MAX_MODULE_LINES + 1)
    for relative, text in (
        ("app/views/long.py", long),
        ("app/views/short.py", "x = 1\n" * MAX_MODULE_LINES),
        ("app/migrations/0001_initial.py", long),
    ):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    assert _modules_too_long(tmp_path, ("app",)) == [f"app/views/long.py: {MAX_MODULE_LINES + 1}"]


# Tests mirror the source tree ------------------------------------------------------------------

# The roots a test file may mirror: the apps, the plumbing they share, the benchmarks' code.
TESTED_ROOTS = (*APPS, "common", "benchmarks")
# The test files that mirror no module, each with its reason (docs/architecture.md,
# "Tests"): tests of a whole flow across modules and processes. A folder ends in "/".
# Besides these, the top-level ``tests/test_*.py`` check the whole repository (layout,
# import contracts, docs, ...) or every page or URL at once.
OFF_THE_MIRROR: dict[str, str] = {
    "flows/browser/": "drives Chromium through the pages of every app, as a person does",
    "flows/security/": "fills a campaign with hostile strings and renders every page, "
    "export and API response",
    "flows/workers/": "starts Celery workers and kills them mid-run",
    "flows/test_corpus_round_trip.py": "imports, exports and re-imports a corpus of file "
    "shapes through several importers and exporters",
}


def _tested_module(test: Path, source: Path) -> str | None:
    """The module ``test`` (``tests/<root>/[<package>/...]test_<x>.py``) tests, or None.

    ``<x>`` is the module's name or the module's name, an underscore and an aspect
    (``test_compute_chunks.py`` tests ``compute.py``); a private module of ranking's pure
    core is named without its underscore (``tests/ranking/stats/test_wmt14.py`` tests
    ``ranking/stats/_wmt14.py``); a package is tested as a whole under its own name
    (``tests/annotations/test_models.py`` tests ``annotations/models/``), but an app's
    layer packages are not (``tests/ranking/test_views.py`` names no module): their tests
    go in the layer's folder, module by module. The longest name that fits wins.
    """
    folder = source.joinpath(*test.parent.parts)
    if not (folder / "__init__.py").exists():
        return None
    x = test.stem.removeprefix("test_")
    names = {p.stem.lstrip("_") for p in folder.glob("*.py") if p.stem != "__init__"}
    # A package is tested as a whole by a file of its name beside its tests' folder.
    packages = {p.parent.name for p in folder.glob("*/__init__.py")}
    if len(test.parent.parts) == 1:
        packages -= LAYERS - FLAT_MODULES  # views/, services/ ... module by module
    names |= packages
    fits = [n for n in names if x == n or x.startswith(n + "_")]
    if not fits:
        return None
    return "/".join((*test.parent.parts, max(fits, key=len)))


def _off_the_mirror_allowed(relative: str, exceptions: dict[str, str]) -> bool:
    return any(
        relative.startswith(name) if name.endswith("/") else relative == name for name in exceptions
    )


def _tests_off_the_mirror(
    tests: Path,
    source: Path,
    roots: tuple[str, ...] = TESTED_ROOTS,
    exceptions: dict[str, str] = OFF_THE_MIRROR,
) -> list[str]:
    """Test files of ``tests`` that name no module of ``source`` by the mirror rule.

    Left out: the top-level ``tests/test_*.py`` (about the whole repository), the
    ``exceptions`` (flows, each with its reason), and files that are not tests
    (``conftest.py``, helpers, factories).
    """
    off = []
    for path in sorted(tests.rglob("test_*.py")):
        relative = path.relative_to(tests)
        if len(relative.parts) == 1 or _off_the_mirror_allowed(relative.as_posix(), exceptions):
            continue
        if relative.parts[0] not in roots or _tested_module(relative, source) is None:
            off.append(relative.as_posix())
    return off


def test_tests_mirror_the_source_tree() -> None:
    """``tests/<app>/<layer>/[<package>/]test_<module>[_<aspect>].py`` tests
    ``<app>/<layer>/[<package>/]<module>.py`` (docs/architecture.md, "Tests")."""
    off = _tests_off_the_mirror(REPO / "tests", REPO)
    assert off == [], f"test files that mirror no module (rename or move them): {off}"


def test_every_exception_to_the_mirror_exists_and_says_why() -> None:
    for name, reason in OFF_THE_MIRROR.items():
        assert (REPO / "tests" / name).exists(), f"tests/{name} is gone: drop its exception"
        assert len(reason.split()) >= 5, f"tests/{name}: say why it mirrors no module"


def test_the_mirror_check_finds_a_test_named_after_no_module(tmp_path: Path) -> None:
    for name in (
        "app/__init__.py",
        "app/models/__init__.py",
        "app/views/__init__.py",
        "app/views/campaigns.py",
        "app/services/__init__.py",
        "app/services/tasks.py",
        "app/tasks.py",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    tests = tmp_path / "tests"
    for name in (
        "test_whole_repo.py",
        "flows/walk/test_pages.py",
        "flows/test_round_trip.py",
        "flows/test_anything.py",
        "app/conftest.py",
        "app/test_models.py",
        "app/test_tasks_limits.py",
        "app/test_views.py",
        "app/test_services_tasks.py",
        "app/views/test_campaigns.py",
        "app/views/test_campaigns_clone.py",
        "app/views/test_designer.py",
        "app/views/test_campaign.py",
        "app/services/test_campaigns.py",
        "app/services/test_tasks.py",
        "app/forms/test_campaigns.py",
        "browser/test_pages.py",
    ):
        (tests / name).parent.mkdir(parents=True, exist_ok=True)
        (tests / name).write_text("")
    exceptions = {"flows/walk/": "walks every page", "flows/test_round_trip.py": "files"}
    assert _tests_off_the_mirror(tests, tmp_path, roots=("app",), exceptions=exceptions) == [
        "app/forms/test_campaigns.py",  # no forms layer
        "app/services/test_campaigns.py",  # no such service
        "app/test_services_tasks.py",  # a layer is tested module by module
        "app/test_views.py",
        "app/views/test_campaign.py",  # campaign is not campaigns
        "app/views/test_designer.py",
        "browser/test_pages.py",  # not a tested root
        "flows/test_anything.py",  # a flow not listed with its reason
    ]


# Templates are named after the module that renders them ----------------------------------------

TEMPLATES = REPO / "templates"
# Templates more than one module of an app renders, includes or extends.
SHARED = "shared"
TEMPLATE_NAME = re.compile(r"[\w./-]+/[\w.-]+\.(?:html|txt)(?:#[\w-]+)?")
TEMPLATE_REFERENCE = re.compile(r"""{%\s*(?:extends|include)\s+["']([^"']+)["']""")


def _renderers(source: Path, app: str) -> set[str]:
    """The modules of ``app`` that render templates: its views and its template tags."""
    return {
        p.stem
        for layer in ("views", "templatetags")
        for p in (source / app / layer).glob("*.py")
        if p.stem != "__init__"
    }


def _templates_off_their_module(templates: Path, source: Path) -> list[str]:
    """Templates of ``templates/<app>/`` not at ``<app>/<module>/<page>.html``, where
    ``<module>`` is a views or template-tags module of the app, or the shared folder."""
    off = []
    for app in APPS:
        folders = _renderers(source, app) | {SHARED}
        for path in sorted((templates / app).rglob("*")):
            if path.is_dir():
                continue
            relative = path.relative_to(templates / app)
            if len(relative.parts) != 2 or relative.parts[0] not in folders:
                off.append(f"{app}/{relative.as_posix()}")
    return off


def _names_used(source: Path, templates: Path) -> list[tuple[str, str]]:
    """(where, template name) for every template name the views, the forms (the task
    page's, ``annotations/forms/judgements.py``), the template tags and the templates
    themselves (``extends``, ``include``) use."""
    used = []
    for app in APPS:
        for layer in ("views", "forms", "templatetags"):
            for module in sorted((source / app / layer).glob("*.py")):
                for node in ast.walk(ast.parse(module.read_text())):
                    if (
                        isinstance(node, ast.Constant)
                        and isinstance(node.value, str)
                        and TEMPLATE_NAME.fullmatch(node.value)
                    ):
                        used.append((module.relative_to(source).as_posix(), node.value))
    for page in sorted(templates.rglob("*.html")):
        for name in TEMPLATE_REFERENCE.findall(page.read_text()):
            used.append((page.relative_to(templates.parent).as_posix(), name))
    return used


def _missing_templates(source: Path, templates: Path) -> list[str]:
    missing = []
    for where, name in _names_used(source, templates):
        page, _, partial = name.partition("#")
        path = templates / page
        if where.startswith("templates/drf_spectacular/") and not path.exists():
            continue  # the package's own template, which ours extends
        if not path.exists():
            missing.append(f"{where}: {name}")
        elif partial and not re.search(rf"{{%\s*partialdef\s+{partial}\b", path.read_text()):
            missing.append(f"{where}: {name} (no such partial)")
    return missing


def test_templates_sit_under_the_module_that_renders_them() -> None:
    """``templates/<app>/<module>/<page>.html`` is rendered by ``<app>/views/<module>.py``
    (or a template-tags module); what several modules use is in ``templates/<app>/shared/``
    (docs/architecture.md, "Templates"). Django's, DRF-spectacular's and the site's
    top-level templates keep the names their frameworks look for."""
    off = _templates_off_their_module(TEMPLATES, REPO)
    assert off == [], f"templates not under the folder of the module that renders them: {off}"


def test_every_template_name_used_exists() -> None:
    missing = _missing_templates(REPO, TEMPLATES)
    assert missing == [], f"template names that lead nowhere: {missing}"


def test_the_template_checks_find_a_misplaced_page_and_a_stale_name(tmp_path: Path) -> None:
    for name in ("views/campaigns.py", "views/__init__.py", "templatetags/panels.py"):
        path = tmp_path / "annotations" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
    (tmp_path / "annotations/views/campaigns.py").write_text(
        'TEMPLATE = "annotations/campaigns/detail.html#rows"\nOLD = "annotations/designer/new.html"\n'
    )
    templates = tmp_path / "templates"
    for name, text in {
        "annotations/campaigns/detail.html": '{% extends "annotations/shared/_layout.html" %}',
        "annotations/shared/_layout.html": "",
        "annotations/panels/_runs.html": "",
        "annotations/designer/new.html": '{% include "annotations/designer/_gone.html" %}',
        "annotations/home.html": "",
    }.items():
        (templates / name).parent.mkdir(parents=True, exist_ok=True)
        (templates / name).write_text(text)
    assert _templates_off_their_module(templates, tmp_path) == [
        "annotations/designer/new.html",
        "annotations/home.html",
    ]
    assert _missing_templates(tmp_path, templates) == [
        "annotations/views/campaigns.py: annotations/campaigns/detail.html#rows (no such partial)",
        "templates/annotations/designer/new.html: annotations/designer/_gone.html",
    ]
