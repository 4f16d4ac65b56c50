"""The worker interface's catalogs (de, fr, es) are complete and up to date.

- every message has a translation, none fuzzy, placeholders intact (``msgfmt --check``);
- the catalogs hold exactly the messages the code marks (``makemessages`` run afresh into
  a temporary folder finds nothing new): a marked string without a translation fails here.

That every worker-facing string is marked at all is checked by rendering the worker
pages in German (tests/annotations/views/test_sessions_i18n.py).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

LANGUAGES = ("de", "fr", "es")
LOCALE = Path(settings.BASE_DIR) / "locale"


def _messages(po: Path) -> dict[str, str]:
    """msgid -> msgstr (plural forms joined) of a catalog written with --no-wrap."""
    text = po.read_text(encoding="utf-8")
    found: dict[str, str] = {}
    for block in text.split("\n\n"):
        ids = re.findall(r'^msgid "(.*)"$', block, flags=re.M)
        if not ids or not ids[0]:
            continue
        strings = re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', block, flags=re.M)
        assert "#, fuzzy" not in block, f"{po}: fuzzy translation of {ids[0]!r}"
        found[ids[0]] = "|".join(strings) if all(strings) else ""
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language: str) -> None:
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    messages = _messages(po)
    assert len(messages) > 100
    untranslated = [m for m, t in messages.items() if not t]
    assert untranslated == [], f"{language}: untranslated {untranslated[:5]}"
    for msgid, msgstr in messages.items():
        wanted = sorted(set(re.findall(r"%\(\w+\)s", msgid)))
        for form in msgstr.split("|"):
            assert sorted(set(re.findall(r"%\(\w+\)s", form))) == wanted, (language, msgid)


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="msgfmt (Debian's gettext) absent")
@pytest.mark.parametrize("language", LANGUAGES)
def test_msgfmt_accepts_the_catalog(language: str, tmp_path: Path) -> None:
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    result = subprocess.run(
        ["msgfmt", "--check", "-o", str(tmp_path / "django.mo"), str(po)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="xgettext (Debian's gettext) absent")
def test_the_catalogs_hold_every_marked_message(tmp_path: Path, settings, monkeypatch) -> None:
    """``makemessages`` over the code finds no message the German catalog lacks, and the
    catalog has none the code no longer marks. Run in a scratch tree of links to the
    code, so the repository's catalogs are never written."""
    base = Path(settings.BASE_DIR)
    tree = tmp_path / "src"
    tree.mkdir()
    for name in ("annotations", "ranking", "reports", "common", "humaneval", "templates", "static"):
        (tree / name).symlink_to(base / name)
    (tree / "locale").mkdir()
    settings.LOCALE_PATHS = [str(tree / "locale")]
    monkeypatch.chdir(tree)
    call_command(
        "makemessages",
        locale=["de"],
        no_location=True,
        no_wrap=True,
        symlinks=True,
        ignore_patterns=["static/vendor/*", "*/migrations/*"],
        verbosity=0,
    )
    fresh = set(_messages(tree / "locale" / "de" / "LC_MESSAGES" / "django.po"))
    held = set(_messages(LOCALE / "de" / "LC_MESSAGES" / "django.po"))
    assert fresh - held == set(), f"marked but not in the catalogs: {sorted(fresh - held)[:5]}"
    assert held - fresh == set(), (
        f"in the catalogs but no longer marked: {sorted(held - fresh)[:5]}"
    )
