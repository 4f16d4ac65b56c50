"""How a process starts: a production process fails closed, saying why in one line.

A production process (gunicorn through ``humaneval.wsgi``, ``make serve`` and ``make
deploy``, the systemd units) is marked by ``HUMANEVAL_PRODUCTION_PROCESS``: there DEBUG
defaults to off and the secret key, which signs worker session tokens, consent identities
and link cookies, must be one nobody can guess (``humaneval.settings``). A WSGI server
has no way out of it: ``humaneval.wsgi`` marks its process whatever the environment says,
and a server that loaded the settings some other way with DEBUG on by default is refused
when it builds its handler (``ServerGuard``). Only Django's ``runserver`` (``make run``)
and the test suite serve with the development defaults.

This module imports nothing of the project and Django only inside its functions: the
settings module uses it while it is being imported.
"""

from __future__ import annotations

import difflib
import os
import sys
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import Any

#: The environment variable that marks a production process.
PRODUCTION_MARK = "HUMANEVAL_PRODUCTION_PROCESS"
_TRUE, _FALSE = {"true", "1", "yes", "on"}, {"false", "0", "no", "off"}
#: Below about 100 bits (10**30 guesses by zxcvbn's estimate) a key is guessable. Keys
#: made by ``secrets.token_urlsafe(50)``, ``secrets.token_hex(32)`` or Django's
#: ``get_random_secret_key()`` score 48 or more; a short pattern repeated, a run of the
#: alphabet or a few words padded out score 15 or less.
GUESSES_LOG10_MIN = 30
# zxcvbn refuses longer passwords (its matching is quadratic); a key whose first 72
# characters are random is random enough.
_ZXCVBN_MAX_LENGTH = 72
#: Words a guesser tries first with this project's keys (zxcvbn's ``user_inputs``).
_PROJECT_WORDS = ("humaneval", "django", "secret", "key", "insecure", "production")


def production_mark(value: str | None) -> bool:
    """Whether ``HUMANEVAL_PRODUCTION_PROCESS`` (``value``; None: not set) marks a
    production process. Strict: a value that is neither true nor false (``"garbage"``,
    an empty string, ``'"true"'`` with the quotes an env file kept) is refused, never
    read as false."""
    if value is None:
        return False
    word = _mark_word(value)
    if word in _TRUE | _FALSE:
        return word in _TRUE
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(
        f"{PRODUCTION_MARK} must be true or false, not {value[:20]!r} (an env file's quotes "
        "are part of the value)."
    )


def production_mark_given() -> bool:
    """Whether the environment sets the mark to anything but a false word (a value the
    settings will accept as true, or refuse)."""
    value = os.environ.get(PRODUCTION_MARK)
    return value is not None and _mark_word(value) not in _FALSE


def _mark_word(value: str) -> str:
    return value.strip().lower()


#: Cyrillic and Greek letters that look like Latin ones (lower case, after casefold), as
#: Unicode's confusables.txt maps them: a public key retyped with them looks the same.
_LOOK_ALIKES = str.maketrans(
    "аеорсухіјѕԁԛԝһӏԍвкмнтαορνκτυιχεβη",
    "aeopcyxijsdqwhlgbkmhtaopvktuixebn",
)


def _folded(text: str) -> str:
    """``text`` as a guesser varies it away: compatibility forms (fullwidth letters),
    accents and other combining marks, case, punctuation, and Cyrillic or Greek letters
    that look like Latin ones."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))
    return "".join(c for c in bare.casefold().translate(_LOOK_ALIKES) if c.isalnum())


#: A key that shares this many characters in a row (folded) with a public key, either
#: way round, is a copy of it changed a little: cut, extended or edited. A random key
#: shares such a run with one of a few public keys about once in 10**8.
_SHARED_RUN = 8
#: A key whose letters and digits are mostly words and patterns (zxcvbn's matches of 4
#: characters or more) is a sentence, however long: zxcvbn multiplies its words' guesses
#: past any threshold. Random keys stay under 0.45 (hex) and 0.25 (the others).
_PATTERN_SHARE_MAX = 0.55


#: A key whose characters match a public key's, in order, over this share of both
#: (difflib's ratio) is that key edited throughout (every 8th character changed is 0.87).
#: Random keys of the usual tools stay under 0.32 against this repository's keys.
_SIMILAR_MIN = 0.6


def _similar(folded: str, known: list[str]) -> bool:
    """Whether ``folded`` is one of the ``known`` (folded) keys with characters changed
    throughout, which leaves no run of :data:`_SHARED_RUN` in common."""
    return any(
        difflib.SequenceMatcher(None, folded, k, autojunk=False).ratio() >= _SIMILAR_MIN
        for k in known
    )


def _shares_a_run(folded: str, known: list[str], *, run: int) -> bool:
    """Whether ``folded`` shares ``run`` characters in a row with one of the ``known``
    (folded) keys."""
    return any(k[i : i + run] in folded for k in known for i in range(len(k) - run + 1))


def secret_key_weakness(key: str, *, public_keys: Iterable[str]) -> str:
    """Why ``key`` cannot sign a production server's tokens, or "": not set, public (a
    key written in this repository, or one of those reversed, recased, repunctuated,
    accented or in compatibility forms, or sharing 8 characters in a row with one, or
    matching one over 60% with characters changed throughout), the
    example's placeholder, not text, weak by Django's own rule (``check --deploy``'s
    W009), or guessable: a pattern that W009 passes (a repeated run, a sequence, such as
    ``"abcde" * 10``) or a sentence (mostly dictionary words). Cyrillic and Greek
    look-alikes of Latin letters are folded to them."""
    from django.core.checks.security.base import (
        SECRET_KEY_INSECURE_PREFIX,
        SECRET_KEY_MIN_LENGTH,
        SECRET_KEY_MIN_UNIQUE_CHARACTERS,
    )

    public = tuple(public_keys)
    if not key:
        return "is not set"
    folded = _folded(key)
    # Each public key folded, both ways round.
    known = [f for p in public for f in (_folded(p), _folded(p)[::-1])]
    is_public = "is a public key (this repository's, or one of them changed a little)"
    if key.startswith(SECRET_KEY_INSECURE_PREFIX) or folded in known:
        return is_public
    if "changeme" in folded:
        return "is still the example's placeholder"
    if _shares_a_run(folded, known, run=_SHARED_RUN) or _similar(folded, known):
        return is_public
    try:
        key.encode("utf-8")
    except UnicodeEncodeError:
        return "holds bytes that are not UTF-8 text"
    if len(key) < SECRET_KEY_MIN_LENGTH or len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS:
        return (
            f"is too weak (fewer than {SECRET_KEY_MIN_LENGTH} characters or fewer than "
            f"{SECRET_KEY_MIN_UNIQUE_CHARACTERS} different ones)"
        )
    from zxcvbn import zxcvbn

    head = key[:_ZXCVBN_MAX_LENGTH]
    found = zxcvbn(head, user_inputs=[*public, *_PROJECT_WORDS])
    if (
        found["guesses_log10"] < GUESSES_LOG10_MIN
        or _pattern_share(head, found) > _PATTERN_SHARE_MAX
    ):
        return "is guessable (words or a repeated or predictable pattern, not random characters)"
    return ""


def _pattern_share(text: str, found: Mapping[str, Any]) -> float:
    """The share of ``text``'s letters and digits inside zxcvbn's non-random matches of
    4 characters or more (dictionary words, sequences, repeats, dates)."""
    covered = [False] * len(text)
    for match in found["sequence"]:
        if match["pattern"] != "bruteforce" and len(match["token"]) >= 4:
            covered[match["i"] : match["j"] + 1] = [True] * (match["j"] + 1 - match["i"])
    counted = [i for i, c in enumerate(text) if c.isalnum()]
    return sum(covered[i] for i in counted) / max(1, len(counted))


def is_development_server() -> bool:
    """Django's own development server (``manage.py runserver``, ``make run``) runs in
    this process: its command module is imported only when the command runs."""
    return "django.core.management.commands.runserver" in sys.modules


def refuse(reason: str) -> None:
    """Stop the process with one line on stderr (no traceback through the server's
    paths) and exit status 3: gunicorn's boot error, which the systemd units do not
    restart on."""
    sys.stderr.write(f"humaneval: {reason}\n")
    raise SystemExit(3)


def settings_or_exit() -> None:
    """Load the settings, or refuse in one line saying what to set."""
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "humaneval.settings")
    try:
        settings.DEBUG  # noqa: B018 (loading the settings module is the point)
    except ImproperlyConfigured as refused:
        refuse(str(refused))


def server_settings_or_exit() -> None:
    """What a WSGI server needs before it loads the application: a production process's
    settings, whatever the environment says (a server has no development mode but
    Django's runserver). A server whose settings were loaded before ``humaneval.wsgi``
    without the mark (a gunicorn.conf.py or an APM wrapper that calls ``django.setup()``
    first) is refused, since it would run with DEBUG on by default and accept the public
    development key."""
    from django.conf import settings

    if is_development_server():
        return
    if not settings.configured:
        os.environ[PRODUCTION_MARK] = "true"
    settings_or_exit()
    if not settings.PRODUCTION_PROCESS:
        refuse(
            "the settings were loaded before humaneval.wsgi, as a development process "
            "(DEBUG on by default, the public development key allowed). Set "
            f"{PRODUCTION_MARK}=true in the server's environment."
        )


class ServerGuard:
    """The first middleware: when a WSGI server builds its handler, any entry point
    (``humaneval.wsgi`` or ``django.core.wsgi`` under a config of one's own), it refuses
    to serve with the development defaults (DEBUG on without the production mark, so
    the public development key allowed). Django's runserver, the test client and the
    test suite's live server keep them. It then leaves the middleware chain: requests
    never pass through it."""

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        from django.conf import settings
        from django.core.exceptions import MiddlewareNotUsed

        handler = sys._getframe(1).f_locals.get("self")  # BaseHandler.load_middleware's
        serving = not type(handler).__module__.startswith("django.test")
        if (
            serving
            and settings.DEBUG
            and not settings.PRODUCTION_PROCESS
            and not is_development_server()
            and "pytest" not in sys.modules
        ):
            refuse(
                "a WSGI server is starting with DEBUG on by default (the public development "
                f"key allowed). Serve humaneval.wsgi, or set {PRODUCTION_MARK}=true and a "
                "real DJANGO_SECRET_KEY in the server's environment."
            )
        raise MiddlewareNotUsed
