"""The developer documentation matches the code, and a newcomer finds things by one rule.

- every module path (``ranking/stats/_wmt14.py``, ``annotations/importing/``) and every
  dotted name (``ranking.selectors.data_rule.DataRule``) the docs name exists;
- the README stays a short front page (under 250 lines) whose relative links all lead to
  pages in docs/ that exist, and the docs' own links and anchors resolve;
- docs/architecture.md names every package and module group of the apps, every API
  module and every import-linter contract (numbered as in pyproject.toml, and counted);
  its module map names every module of the apps and of common/, and nothing else;
- the layer packages whose docstring lists their modules list exactly them; the stats
  door names every package its modules import, and the pages' docstring says what each
  page without an entity of its name works on;
- docs/glossary.md defines every word the code relies on;
- no comment, docstring or page cites an issue number of our own tracker (the history
  the number pointed at is not in the repository; the comment says what it means).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import subprocess
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
DOCS = REPO / "docs"
ARCHITECTURE = DOCS / "architecture.md"
GLOSSARY = DOCS / "glossary.md"
ROOTS = ("annotations", "ranking", "reports", "common", "humaneval")
APPS = ("annotations", "ranking", "reports")
PAGES = sorted([README, *DOCS.glob("*.md")])

# A path into the source tree: starts at a top-level folder of the repository, and is not
# the tail of a longer path (``tests/annotations/...`` is checked as a whole).
PATH = re.compile(
    r"(?<![\w/.<>{}-])((?:annotations|ranking|reports|common|humaneval|tests|benchmarks|"
    r"deploy|templates|static|docs|locale)/[\w./-]*)"
)
# A dotted name in one of our packages: ``ranking.stats``, ``annotations.models.Campaign``.
DOTTED = re.compile(r"(?<![\w./-])((?:annotations|ranking|reports|common|humaneval)(?:\.\w+)+)")
CHECK_ID = re.compile(r"\.[CEWI]\d{3}$")
# Celery task names look like dotted names but are registered names (``ranking.sweep_runs``).
TASK_NAME = re.compile(r"""name=["']((?:annotations|ranking|reports)\.\w+)["']""")


def _task_names() -> set[str]:
    names: set[str] = set()
    for app in APPS:
        tasks = REPO / app / "tasks.py"
        if tasks.exists():
            names |= set(TASK_NAME.findall(tasks.read_text()))
    return names


def _paths_named(text: str) -> set[str]:
    found = set()
    for match in PATH.finditer(text):
        path = match.group(1).rstrip(".,;:")
        # A path followed by a placeholder (``views/<feature>.py``, ``{pages,api}.py``) or
        # a wildcard (``commands/*.py``) names a family, not one file.
        after = text[match.end(1) : match.end(1) + 1]
        if after in ("<", "{", "*") or path.endswith("/."):
            continue
        found.add(path)
    return found


FILE_SUFFIXES = {"py", "html", "md", "txt", "json", "jsonl", "csv", "tsv"}


def _dotted_names(text: str) -> set[str]:
    """Dotted names, leaving out file names (``common.py`` in a list of parsers)."""
    return {
        m.group(1)
        for m in DOTTED.finditer(text)
        if m.group(1).rsplit(".", 1)[1] not in FILE_SUFFIXES
    }


def _resolves(dotted: str) -> bool:
    """``dotted`` is a module, or a module and a chain of attributes of it. A module is
    found, not run: ``humaneval.wsgi`` run in this process (its settings already
    loaded, and not as a server's) would refuse to start."""
    try:
        if importlib.util.find_spec(dotted) is not None:
            return True
    except ModuleNotFoundError:
        pass
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            if not hasattr(obj, name):
                # A submodule not imported by its package is still a module.
                try:
                    obj = importlib.import_module(f"{obj.__name__}.{name}")
                except (ModuleNotFoundError, AttributeError):
                    return False
            else:
                obj = getattr(obj, name)
        return True
    return False


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_path_the_docs_name_exists(page: Path) -> None:
    missing = sorted(p for p in _paths_named(page.read_text()) if not (REPO / p).exists())
    assert missing == [], f"{page.name} names paths that do not exist: {missing}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_dotted_name_the_docs_use_resolves(page: Path) -> None:
    tasks = _task_names()
    # System check ids (``humaneval.W001``) are names, not modules.
    names = {n for n in _dotted_names(page.read_text()) - tasks if not CHECK_ID.search(n)}
    missing = sorted(n for n in names if not _resolves(n))
    assert missing == [], f"{page.name} names modules or objects that do not exist: {missing}"


def test_the_path_check_sees_what_it_must() -> None:
    """The parsers find paths and names in prose, code spans and tables alike, and skip
    families and the tails of longer paths."""
    text = (
        "see `ranking/stats/_wmt14.py`, annotations/importing/ and (tests/test_docs.py);\n"
        "| `annotations/services/<entity>.py` | `<app>/views/<feature>.py` | "
        "`annotations/urls/{pages,api}.py` |\n"
        "`ranking.stats.check_parameters` and ranking.selectors.data_rule.DataRule, "
        "not ``tests/annotations/test_x.py`` as annotations/test_x.py; `common.py`"
    )
    assert _paths_named(text) == {
        "ranking/stats/_wmt14.py",
        "annotations/importing/",
        "tests/test_docs.py",
        "tests/annotations/test_x.py",
        "annotations/test_x.py",
    }
    assert _dotted_names(text) == {
        "ranking.stats.check_parameters",
        "ranking.selectors.data_rule.DataRule",
    }
    assert _resolves("ranking.stats.check_parameters")
    assert _resolves("annotations.selectors.judgements")
    assert not _resolves("ranking.selectors.runs.NoSuchThing")
    assert not _resolves("annotations.access.nothing_here")
    assert not (REPO / "annotations/test_x.py").exists()


# --- The README: short, and its links lead into docs/ --------------------------------------

LINK = re.compile(r"\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    return {
        _slug(line.lstrip("#"))
        for line in page.read_text().splitlines()
        if re.match(r"#{1,6} ", line)
    }


def test_the_readme_is_a_short_front_page() -> None:
    lines = README.read_text().splitlines()
    assert len(lines) < 250, f"README.md has {len(lines)} lines: move long material to docs/"


def test_the_readme_links_only_to_docs_pages_that_exist() -> None:
    text = README.read_text()
    relative = [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t)]
    assert relative, "the README links into docs/"
    for target in relative:
        path, _, anchor = target.partition("#")
        # pages, and the figures they show (an image of docs/)
        assert path.startswith("docs/") and path.endswith((".md", ".png")), target
        assert (REPO / path).is_file(), target
        if anchor:
            assert anchor in _anchors(REPO / path), target
    # Every page in docs/ is reachable from the README.
    linked = {t.partition("#")[0] for t in relative}
    unlinked = sorted(f"docs/{p.name}" for p in DOCS.glob("*.md") if f"docs/{p.name}" not in linked)
    assert unlinked == [], f"docs pages the README does not link: {unlinked}"


@pytest.mark.parametrize("page", sorted(DOCS.glob("*.md")), ids=lambda p: p.name)
def test_the_docs_links_resolve(page: Path) -> None:
    for target in LINK.findall(page.read_text()):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.exists(), f"{page.name}: {target}"
        if anchor and linked.suffix == ".md":
            assert anchor in _anchors(linked), f"{page.name}: {target}"


# --- docs/architecture.md covers the code --------------------------------------------------


def test_the_architecture_names_every_layer_package_and_flat_module() -> None:
    text = ARCHITECTURE.read_text()
    named = _paths_named(text) | {n.replace(".", "/") for n in _dotted_names(text)}
    missing = []
    for app in APPS:
        for entry in sorted((REPO / app).iterdir()):
            if entry.name.startswith(("_", ".")) or entry.name == "migrations":
                continue
            if entry.is_dir() and (entry / "__init__.py").exists():
                if not any(n.rstrip("/") == f"{app}/{entry.name}" for n in named):
                    missing.append(f"{app}/{entry.name}/")
            elif (
                entry.suffix == ".py" and not {f"{app}/{entry.name}", f"{app}/{entry.stem}"} & named
            ):
                missing.append(f"{app}/{entry.name}")
    for module in sorted((REPO / "common").glob("*.py")):
        if (
            module.stem != "__init__"
            and not {f"common/{module.name}", f"common/{module.stem}"} & named
        ):
            missing.append(f"common/{module.name}")
    assert missing == [], f"docs/architecture.md does not name: {missing}"


def test_the_architecture_lists_every_api_module() -> None:
    text = ARCHITECTURE.read_text()
    missing = [
        f"{app}/apis/{module.name}"
        for app in APPS
        for module in sorted((REPO / app / "apis").glob("*.py"))
        if module.stem != "__init__" and f"{app}/apis/{module.name}" not in text
    ]
    assert missing == [], f"the API table of docs/architecture.md lacks: {missing}"


def test_the_architecture_lists_every_import_contract() -> None:
    text = ARCHITECTURE.read_text()
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    missing = [c["name"] for c in contracts if c["name"] not in text]
    assert missing == [], f"docs/architecture.md does not list the contracts: {missing}"
    # The count it gives, and the numbered list, are those of pyproject.toml.
    assert f"`pyproject.toml` holds {len(contracts)} contracts" in text
    section = text[text.index("## The import contracts") :]
    for number, contract in enumerate(contracts, 1):
        assert f"{number}. **{contract['name']}**" in section, contract["name"]


def test_the_architecture_says_what_the_pure_cores_import() -> None:
    """ranking.stats uses scipy and numba: the page must not claim numpy alone."""
    text = " ".join(ARCHITECTURE.read_text().split())
    assert "numpy and the standard library only" not in text
    stats = " ".join(p.read_text() for p in (REPO / "ranking" / "stats").glob("*.py"))
    for library in ("numpy", "scipy", "numba"):
        if re.search(rf"^\s*(from|import) {library}\b", stats, re.MULTILINE):
            assert library in text, library
    assert "both apps" not in text


# --- docs/glossary.md ------------------------------------------------------------------

TERMS = (
    "task",
    "assignment",
    "place",
    "slot",
    "page",
    "group",
    "unit",
    "chunk",
    "lane",
    "batch",
    "refit",
    "slice",
    "standard",
    "criterion",
    "judgement",
    "comparison",
    "run",
    "cluster",
    "rank range",
    "attention check",
    "repeat",
    "content check",
)


def _glossary() -> dict[str, tuple[str, str]]:
    """The glossary's table: each word (a row may name several, ``a / b``, and add a
    parenthesis) -> (definition, where in the code)."""
    rows: dict[str, tuple[str, str]] = {}
    for line in GLOSSARY.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or set(cells[0]) <= {"-", " "} or cells[0] == "word":
            continue
        for word in cells[0].split(" / "):
            word = re.sub(r"\s*\(.*\)$", "", word).strip("* ")
            rows[word] = (cells[1], cells[2])
    return rows


@pytest.mark.parametrize("term", TERMS)
def test_the_glossary_defines(term: str) -> None:
    rows = _glossary()
    assert term in rows, f"docs/glossary.md does not define {term!r}"
    definition, where = rows[term]
    assert len(definition.split()) >= 6, f"{term}: a definition, not a label"
    assert where, f"{term}: where the code keeps it"


# --- No issue numbers of our tracker -------------------------------------------------------

ISSUE = re.compile(r"[Ii]ssues? ?#?[0-9]+|\(#[0-9]+\)")
SKIP_DIRS = {".git", ".venv", "node_modules", ".pytest_cache", ".mypy_cache", ".ruff_cache"}
SUFFIXES = {".py", ".html", ".md", ".js", ".css", ".po", ".toml", ".conf", ".service", ".txt"}


def _source_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    if listed.returncode == 0:
        files = [REPO / line for line in listed.stdout.splitlines() if line]
    else:
        files = [p for p in REPO.rglob("*") if not SKIP_DIRS & set(p.relative_to(REPO).parts)]
    return sorted(
        p
        for p in files
        if p.is_file()
        and "vendor" not in p.parts
        and (p.suffix in SUFFIXES or p.name in ("Makefile", "run"))
    )


def test_no_comment_cites_an_issue_number() -> None:
    """An issue number points into a tracker this repository does not carry; a comment
    says what it means instead. A reference to another project's issue is a link
    (``github.com/<owner>/<project>/issues/<n>``), which this does not match."""
    cited = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()[:80]}"
        for path in _source_files()
        if path != Path(__file__).resolve()
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if ISSUE.search(line)
    ]
    assert cited == [], "issue numbers cited:\n" + "\n".join(cited)


def test_the_issue_check_sees_what_it_must() -> None:
    for cited in ("(issue 16)", "issue 14", "Issue 13's target", "issues 9 and 10", "(#29)"):
        assert ISSUE.search(cited), cited
    for fine in (
        "https://github.com/numba/numba/issues/1234",
        "color: #2929ff",
        "&#8212;",
        "the issue of ties",
    ):
        assert not ISSUE.search(fine), fine


def _api_routes() -> list[tuple[str, str]]:
    """Every route under /api/ served by one of our API modules, as docs/api.md writes
    it (``<slug>``, ``<id>``, ``<format>``), with the module's path."""
    from django.urls import URLResolver, get_resolver

    def walk(resolver: URLResolver, prefix: str = ""):
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern, prefix + str(pattern.pattern))
            else:
                yield prefix + str(pattern.pattern), pattern

    routes = []
    for route, pattern in walk(get_resolver()):
        view = getattr(pattern.callback, "cls", None) or getattr(
            pattern.callback, "view_class", None
        )
        if (
            not route.startswith("api/")
            or view is None
            or view.__module__.split(".")[0] not in APPS
        ):
            continue
        for typed, plain in (
            ("<slug:slug>", "<slug>"),
            ("<id:pk>", "<id>"),
            ("<str:fmt>", "<format>"),
        ):
            route = route.replace(typed, plain)
        routes.append((f"/{route}", view.__module__.replace(".", "/") + ".py"))
    return routes


def test_the_api_page_lists_every_route_with_its_module() -> None:
    text = (DOCS / "api.md").read_text()
    routes = _api_routes()
    assert len(routes) > 30
    missing = [
        f"{route} ({module})"
        for route, module in routes
        if not re.search(rf"\| `{re.escape(route)}` \|[^|\n]*\| `{re.escape(module)}` \|", text)
    ]
    assert missing == [], f"docs/api.md lacks: {missing}"


# --- The module map names every module ------------------------------------------------------

MAP_ROOTS = ("annotations", "ranking", "reports", "common")


def _module_map() -> list[tuple[str, str]]:
    """docs/architecture.md's module map: (first cell, second cell) of each table row of
    "Packages and modules"."""
    text = ARCHITECTURE.read_text()
    section = text[text.index("## Packages and modules") : text.index("## Templates")]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 2:
            rows.append((cells[0], cells[1]))
    return rows


def _production_modules() -> list[Path]:
    return sorted(
        path.relative_to(REPO)
        for root in MAP_ROOTS
        for path in (REPO / root).rglob("*.py")
        if path.name != "__init__.py"
        and "migrations" not in path.parts
        and "__pycache__" not in path.parts
    )


def _row_of(module: Path, rows: list[tuple[str, str]]) -> tuple[str, str] | None:
    """The row that names ``module``: its own (``common/http.py``, ``annotations/tasks.py``)
    or its layer package's (``annotations/services/``)."""
    for first, second in rows:
        if f"`{module.as_posix()}`" in first:
            return first, second
    package = f"`{'/'.join(module.parts[:2])}/`"
    for first, second in rows:
        if first == package:
            return first, second
    return None


def test_the_module_map_names_every_module() -> None:
    """Every module of the apps and of common/ is named in its package's row of the map
    (the API modules in the REST API table, commands by name), as often as files of that
    name sit in the package; and every module a row names exists there."""
    text = ARCHITECTURE.read_text()
    rows = _module_map()
    missing, stale = [], []
    for module in _production_modules():
        if module.parts[1:2] == ("apis",):
            if f"`{module.as_posix()}`" not in text:
                missing.append(str(module))
            continue
        row = _row_of(module, rows)
        if row is None:
            missing.append(str(module))
            continue
        if f"`{module.as_posix()}`" in row[0]:
            continue
        name = f"`{module.stem}`" if "commands" in module.parts else f"`{module.name}`"
        package = REPO.joinpath(*module.parts[:2])
        files = [p for p in package.rglob(module.name) if "__pycache__" not in p.parts]
        if row[1].count(name) < len(files):
            missing.append(str(module))
    for first, second in rows:
        for package in re.findall(r"`((?:annotations|ranking|reports)/\w+)/`", first):
            for name in re.findall(r"`(\w+\.py)`", second):
                if not list((REPO / package).rglob(name)):
                    stale.append(f"{package}/ names {name}")
    assert missing == [], f"docs/architecture.md's module map does not name: {missing}"
    assert stale == [], f"docs/architecture.md's module map names what is not there: {stale}"


# --- A layer package's docstring names its modules ---------------------------------------

# Packages whose docstring lists their modules: each names exactly its modules.
LISTED = (
    "annotations.apis",
    "annotations.core",
    "annotations.importing",
    "annotations.models",
    "annotations.selectors",
    "annotations.serializers",
    "annotations.services",
    "annotations.views",
    "ranking.selectors",
    "reports.core",
)


def _modules_of(package: str) -> set[str]:
    folder = REPO.joinpath(*package.split("."))
    return {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}


@pytest.mark.parametrize("package", LISTED)
def test_a_package_docstring_names_exactly_its_modules(package: str) -> None:
    docstring = importlib.import_module(package).__doc__ or ""
    named = set(re.findall(r"``(\w+)``", docstring))
    modules = _modules_of(package)
    assert modules - named == set(), f"{package}'s docstring does not name {modules - named}"
    assert named - modules == set(), f"{package}'s docstring names no module {named - modules}"


def test_the_stats_door_names_every_private_module() -> None:
    docstring = importlib.import_module("ranking.stats").__doc__ or ""
    named = set(re.findall(r"``(_\w+)``", docstring))
    private = {m for m in _modules_of("ranking.stats") if m.startswith("_")}
    assert private - named == set(), f"ranking.stats' docstring does not name {private - named}"


def test_the_stats_door_names_every_package_its_modules_import() -> None:
    # "Imports numpy, scipy and numba only" was false while _pairwise imported
    # annotations.core.scoring: every package outside the standard library that a module
    # of ranking/stats/ imports, at the top or inside a function, is named.
    import sys

    docstring = importlib.import_module("ranking.stats").__doc__ or ""
    imported: set[str] = set()
    for module in (REPO / "ranking" / "stats").glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    outside = imported - set(sys.stdlib_module_names) - {"__future__"}
    unnamed = {package for package in outside if package not in docstring}
    assert unnamed == set(), f"ranking.stats' docstring does not say it imports {unnamed}"


def test_the_pages_docstring_says_what_each_feature_without_its_entitys_name_uses() -> None:
    # Pages are named by feature, services and selectors by entity: a page module with no
    # service or selector of its name is named where the docstring says what it uses.
    docstring = importlib.import_module("annotations.views").__doc__ or ""
    paragraphs = [" ".join(p.split()) for p in docstring.split("\n\n")]
    others = next((p for p in paragraphs if "The other features" in p), "")
    site = {"home", "accounts", "errors"}  # the site's pages: no entity of their own
    unnamed = {
        name
        for name in _modules_of("annotations.views") - site
        if not (REPO / "annotations" / "services" / f"{name}.py").exists()
        and not (REPO / "annotations" / "selectors" / f"{name}.py").exists()
        and not re.search(rf"\b{name}\b", others)
    }
    assert others and unnamed == set(), f"annotations.views' docstring does not place {unnamed}"
