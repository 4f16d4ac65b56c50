"""How a process starts: a production process fails closed, saying why in one line.

A production process (gunicorn through ``humaneval.wsgi``, ``make serve`` and ``make
deploy``, the systemd units) is marked by ``HUMANEVAL_PRODUCTION_PROCESS``: there DEBUG
defaults to off and the secret key, which signs worker session tokens, consent identities
and link cookies, must be one nobody can guess (``humaneval.settings``).

This module imports nothing of the project and Django only inside its functions: the
settings module uses it while it is being imported.
"""

from __future__ import annotations

import os
import sys

#: The environment variable that marks a production process.
PRODUCTION_MARK = "HUMANEVAL_PRODUCTION_PROCESS"
#: Below about 100 bits (10**30 guesses by zxcvbn's estimate) a key is guessable. Keys
#: made by ``secrets.token_urlsafe(50)``, ``secrets.token_hex(32)`` or Django's
#: ``get_random_secret_key()`` score 48 or more; a short pattern repeated, a run of the
#: alphabet or a few words padded out score 15 or less.
GUESSES_LOG10_MIN = 30
# zxcvbn refuses longer passwords (its matching is quadratic); a key whose first 72
# characters are random is random enough.
_ZXCVBN_MAX_LENGTH = 72


def secret_key_weakness(key: str, *, public_keys: tuple[str, ...]) -> str:
    """Why ``key`` cannot sign a production server's tokens, or "": not set, public,
    the example's placeholder, weak by Django's own rule (``check --deploy``'s W009), or
    guessable: a pattern (a repeated run, a sequence, dictionary words) that W009 passes,
    such as ``"abcde" * 10``."""
    from django.core.checks.security.base import (
        SECRET_KEY_INSECURE_PREFIX,
        SECRET_KEY_MIN_LENGTH,
        SECRET_KEY_MIN_UNIQUE_CHARACTERS,
    )

    if not key:
        return "is not set"
    if key in public_keys or key.startswith(SECRET_KEY_INSECURE_PREFIX):
        return "is the public development key"
    if "change-me" in key.lower():
        return "is still the example's placeholder"
    if len(key) < SECRET_KEY_MIN_LENGTH or len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS:
        return (
            f"is too weak (fewer than {SECRET_KEY_MIN_LENGTH} characters or fewer than "
            f"{SECRET_KEY_MIN_UNIQUE_CHARACTERS} different ones)"
        )
    from zxcvbn import zxcvbn

    if zxcvbn(key[:_ZXCVBN_MAX_LENGTH])["guesses_log10"] < GUESSES_LOG10_MIN:
        return "is guessable (a repeated or predictable pattern, not random characters)"
    return ""


def is_development_server() -> bool:
    """Django's own development server (``manage.py runserver``, ``make run``)."""
    return sys.argv[1:2] == ["runserver"]


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
    settings. Django's runserver, and a server told ``HUMANEVAL_PRODUCTION_PROCESS=false``,
    keep the development defaults; any other server whose settings were loaded before
    ``humaneval.wsgi`` without the mark (a gunicorn.conf.py or an APM wrapper that calls
    ``django.setup()`` first) is refused, since it would run with DEBUG on by default and
    accept the public development key."""
    from django.conf import settings

    told = os.environ.get(PRODUCTION_MARK)
    unmarked_server = told is None and not is_development_server()
    if unmarked_server and not settings.configured:
        os.environ[PRODUCTION_MARK] = "true"
    settings_or_exit()
    if unmarked_server and not settings.PRODUCTION_PROCESS:
        refuse(
            "the settings were loaded before humaneval.wsgi, as a development process "
            "(DEBUG on by default, the public development key allowed). Set "
            f"{PRODUCTION_MARK}=true in the server's environment."
        )
