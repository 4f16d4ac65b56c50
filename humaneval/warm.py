"""A web process made ready before it serves: what Django and the worker pages load on
first use, loaded once in gunicorn's master (``--preload``) and shared by every worker it
forks.

Django builds much lazily, per process: the URL resolvers' reverse tables and their
patterns' compiled expressions, each template's parsed nodes (the cached loader), each
language's message catalogue and format module; the worker pages also import numpy's
random generators (the hand-out's seeded start) and ``langcodes``' data on first use. A
cold web process paid about 0.3 s of CPU in its first entry, consent and task, and a
gunicorn master with five workers paid it five times, just as a crowd arrives. Nothing
here touches the database: connections opened before a fork would be shared by the
workers.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any


def web_process_warm() -> dict[str, int]:
    """Load what the pages would load on first use (module docstring). Returns how many
    URL patterns, templates and languages were made ready (for the tests)."""
    import numpy.random  # noqa: F401  (the hand-out's seeded generator)

    from annotations.core.languages import direction, language_check

    language_check("en")  # langcodes' tag parser
    direction("en")  # and its likely-subtags data
    return {
        "patterns": _urls_ready(),
        "templates": _templates_ready(),
        "languages": _languages_ready(),
    }


def _urls_ready() -> int:
    """Every resolver's reverse tables and every pattern's compiled expression."""
    from django.urls import get_resolver

    return _resolver_ready(get_resolver())


def _resolver_ready(resolver: Any) -> int:
    from django.urls import URLResolver

    resolver.reverse_dict  # noqa: B018  (populates the resolver's tables)
    count = 0
    for pattern in resolver.url_patterns:
        pattern.pattern.regex  # noqa: B018  (compiled and kept on first access)
        count += 1
        if isinstance(pattern, URLResolver):
            count += _resolver_ready(pattern)
    return count


def _templates_ready() -> int:
    """Every template of this project (its ``templates`` folders), parsed into the cached
    loader; Django's and other packages' own templates load on first use, as before."""
    from django.conf import settings
    from django.template import TemplateSyntaxError, engines

    root = Path(settings.BASE_DIR).resolve()
    count = 0
    for engine in engines.all():
        for folder in _template_dirs(engine):
            if root not in folder.resolve().parents:
                continue
            for path in sorted(folder.rglob("*.html")):
                try:
                    engine.get_template(path.relative_to(folder).as_posix())
                except TemplateSyntaxError:  # pragma: no cover - the tests render every page
                    continue
                count += 1
    return count


def _template_dirs(engine: Any) -> Iterator[Path]:
    from django.template.utils import get_app_template_dirs

    yield from (Path(d) for d in engine.dirs)
    if engine.app_dirs:
        yield from (Path(d) for d in get_app_template_dirs("templates"))


def _languages_ready() -> int:
    """Each interface language's message catalogue and format module."""
    from django.conf import settings
    from django.utils import formats
    from django.utils.translation import trans_real

    for code, _ in settings.LANGUAGES:
        trans_real.translation(code)
        formats.get_format_modules(code)
    return len(settings.LANGUAGES)
