"""Production settings: `check --deploy` is clean with the environment docs/deploy.md
lists, and the development defaults stay plain HTTP."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess

import pytest
from django.core.management.utils import get_random_secret_key
from django.test import Client, override_settings

from tests.fresh_interpreter import (
    REPO,
    TEST_SECRET_KEY,
    run_command,
    run_python,
    start_environment,
)

PRODUCTION = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": TEST_SECRET_KEY,
    "DJANGO_ALLOWED_HOSTS": "eval.example.org",
    "CACHE_URL": "redis://127.0.0.1:6379/1",
}


#: "INSECURE" in fullwidth letters (U+FF29 ...), as a key pasted from some fonts comes.
FULLWIDTH_INSECURE = "".join(chr(ord(c) + 0xFEE0) for c in "INSECURE")


_TEST_KEY_OF_HISTORY = "k3Yq8w-7Zp2s_Rr9vT1uXe4bN6mC0hJ5gLdAaFfQoWiEyUzKtPjVnHcBxSlMI-prod"
EVERY_12TH_CHANGED = "".join("Z" if i % 12 == 11 else c for i, c in enumerate(_TEST_KEY_OF_HISTORY))
#: Every 8th character changed: no run of 8 is left in common (an outside review's).
EVERY_8TH_CHANGED = "".join("Z" if i % 8 == 7 else c for i, c in enumerate(_TEST_KEY_OF_HISTORY))
#: The development key retyped with Cyrillic look-alikes (U+0430 a, U+0435 ie, ...).
CYRILLIC_DEVELOPMENT_KEY = "insecure-dev-key-change-me-in-production-0123456789abcdef".translate(
    str.maketrans("aeopci", "\u0430\u0435\u043e\u0440\u0441\u0456")
)
#: The development key with a combining acute accent on every vowel.
ACCENTED_DEVELOPMENT_KEY = "".join(
    c + "\u0301" if c in "aeiou" else c
    for c in "insecure-dev-key-change-me-in-production-0123456789abcdef"
)


def _run(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return run_python(*args, env=start_environment(**env))


def _settings(env: dict[str, str], *names: str) -> dict[str, object]:
    code = (
        "import json, django; from django.conf import settings; django.setup(); "
        f"print(json.dumps({{n: getattr(settings, n, None) for n in {list(names)!r}}}))"
    )
    result = _run("-c", code, env={"DJANGO_SETTINGS_MODULE": "humaneval.settings", **env})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("behind_proxy", ["false", "true"])
def test_check_deploy_is_clean_with_the_production_environment(behind_proxy):
    result = _run(
        "manage.py",
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env={**PRODUCTION, "DJANGO_BEHIND_PROXY": behind_proxy},
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues" in output
    assert "WARNING" not in output and "security.W" not in output


def test_check_deploy_warns_when_the_limits_count_per_process():
    """Without CACHE_URL the throttles live in each gunicorn worker's memory (an outside
    review found nothing said so at deploy time)."""
    env = {k: v for k, v in PRODUCTION.items() if k != "CACHE_URL"}
    result = _run("manage.py", "check", "--deploy", env=env)
    output = result.stdout + result.stderr
    assert "humaneval.W001" in output and "CACHE_URL" in output


def test_production_settings_derive_from_debug_off_and_can_be_overridden():
    names = (
        "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS",
        "SECURE_HSTS_PRELOAD",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SECURE_PROXY_SSL_HEADER",
        "SECURE_CONTENT_TYPE_NOSNIFF",
        "SECURE_REFERRER_POLICY",
    )
    production = _settings({**PRODUCTION, "DJANGO_BEHIND_PROXY": "true"}, *names)
    assert production == {
        "SECURE_SSL_REDIRECT": True,
        "SECURE_HSTS_SECONDS": 31_536_000,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SECURE_HSTS_PRELOAD": True,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        "SECURE_CONTENT_TYPE_NOSNIFF": True,
        "SECURE_REFERRER_POLICY": "same-origin",
    }
    overridden = _settings(
        {
            **PRODUCTION,
            "DJANGO_SECURE_HSTS_SECONDS": "3600",
            "DJANGO_SECURE_HSTS_PRELOAD": "0",
            "CACHE_URL": "redis://127.0.0.1:6379/9",
        },
        "SECURE_HSTS_SECONDS",
        "SECURE_HSTS_PRELOAD",
        "SECURE_PROXY_SSL_HEADER",
        "CACHES",
    )
    # Not behind a proxy: X-Forwarded-Proto is not trusted (a client could forge it).
    assert overridden == {
        "SECURE_HSTS_SECONDS": 3600,
        "SECURE_HSTS_PRELOAD": False,
        "SECURE_PROXY_SSL_HEADER": None,
        "CACHES": {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": "redis://127.0.0.1:6379/9",
            }
        },
    }


def test_development_defaults_stay_plain_http():
    development = _settings(
        {},
        "CACHES",
        "DEBUG",
        "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
    )
    assert development == {
        "CACHES": {
            "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": ""}
        },
        "DEBUG": True,
        "SECURE_SSL_REDIRECT": False,
        "SECURE_HSTS_SECONDS": 0,
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
    }


@pytest.mark.parametrize("command", [("check",), ("check", "--deploy")])
def test_debug_off_refuses_a_missing_key_in_one_line(command):
    """Every manage.py command, ``check --deploy`` too, says in one line what to set; it
    used to print Django's traceback through the server's paths."""
    result = _run(
        "manage.py", *command, env={"DJANGO_DEBUG": "false", "DJANGO_ALLOWED_HOSTS": "x.org"}
    )
    assert result.returncode == 3
    assert result.stderr.startswith("humaneval: DJANGO_SECRET_KEY is not set.")
    assert "needs a real DJANGO_SECRET_KEY" in result.stderr
    assert "Traceback" not in result.stderr and str(REPO) not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("insecure-dev-key-change-me-in-production-0123456789abcdef", "a public key"),
        ("django-insecure-" + "x1" * 30, "a public key"),
        # The development key changed a little, and a test key this repository's history
        # holds (an outside review forged sessions on a server using each).
        ("fedcba9876543210-noitcudorp-ni-em-egnahc-yek-ved-erucesni", "a public key"),
        ("insecure_dev_key_change_me_in_production_0123456789abcdef", "a public key"),
        (FULLWIDTH_INSECURE + "-dev-key-change-me-in-production-0123456789abcdef", "a public key"),
        ("k3Yq8w-7Zp2s_Rr9vT1uXe4bN6mC0hJ5gLdAaFfQoWiEyUzKtPjVnHcBxSlMI-prod", "a public key"),
        ("RgTqI-E-FU6dszQs4bLqKwrnhYviLkVtSbFOfT5_yB3qgKOMhDnNQbbH0SME2nkDnqU", "a public key"),
        # Near copies: cut, edited, extended (the second review forged a session on the
        # first, and recovered the last from its own worker token in 12,520 guesses).
        ("k3Yq8w-7Zp2s_Rr9vT1uXe4bN6mC0hJ5gLdAaFfQoWiEyUzKtPjVnHcBxSlMI", "a public key"),
        ("k3Yq8w-7Zp2s_Rr9vT1uXe4bN6mC0hJ5gLdAaFfQoWiEyUzKtPjVnHcBxSlMI-staging", "a public key"),
        ("RgTqI-E-FU6dszQs4bLqKwrnhYviLkVtSbFOfT5_yB3qgKOMhDnNQbbH0SME2nkDnqX", "a public key"),
        ("Zq9" + "RgTqI-E-FU6dszQs4bLqKwrnhYviLkVtSbFOfT5_yB3qgKOMhD"[:48], "a public key"),
        # The third review: every 12th character changed, accents on the vowels, and
        # sentences (zxcvbn multiplies their words' guesses past any threshold).
        (EVERY_12TH_CHANGED, "a public key"),
        (ACCENTED_DEVELOPMENT_KEY, "a public key"),
        # The fourth review: every 8th character changed, and Cyrillic look-alikes.
        (EVERY_8TH_CHANGED, "a public key"),
        (CYRILLIC_DEVELOPMENT_KEY, "a public key"),
        ("your-secret-key-here-please-replace-with-a-long-random-string-1234", "guessable"),
        ("this is my super secret key for the live server of humaneval", "guessable"),
        ("<put-a-long-random-secret-key-here-generated-by-secrets-module>", "guessable"),
        ("correct-horse-battery-staple-humaneval-django-secret-key-live", "guessable"),
        ("change-me-to-50-random-characters", "still the example's placeholder"),
        ("short-key", "too weak"),
        ("ab" * 40, "too weak"),
        # Django's W009 passes these (50 characters, 5 different ones or more); an outside
        # review forged a worker's session on a server that used the first.
        ("abcde" * 10, "guessable"),
        ("password" * 6 + "12", "guessable"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwx", "guessable"),
        # Keys this repository's own tests and benchmarks used to start servers with.
        ("load-benchmark-" + "x" * 50, "guessable"),
        ("supervisor-test-" + "k" * 50, "guessable"),
        ("Qe7-" + "x9Zr" * 14, "guessable"),
    ],
)
def test_debug_off_refuses_a_public_weak_or_guessable_secret_key(key, reason):
    """``check --deploy`` only warns (W009) about a weak key and passes a repeated
    pattern; a server with DEBUG off refuses both, as it refuses the development key."""
    result = _run(
        "manage.py",
        "check",
        env={"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": key, "DJANGO_ALLOWED_HOSTS": "x.org"},
    )
    assert result.returncode == 3
    assert f"DJANGO_SECRET_KEY is {reason}" in result.stderr
    assert "needs a real DJANGO_SECRET_KEY" in result.stderr


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: secrets.token_urlsafe(50), id="token_urlsafe(50)"),
        pytest.param(lambda: secrets.token_hex(32), id="token_hex(32)"),
        pytest.param(get_random_secret_key, id="Django's get_random_secret_key"),
        pytest.param(lambda: secrets.token_urlsafe(150), id="a long key"),
    ],
)
def test_random_keys_as_the_usual_tools_make_them_are_accepted(make):
    """The refusal must never turn a real key away: 500 of each kind pass."""
    from humaneval.settings import PUBLIC_SECRET_KEYS
    from humaneval.startup import secret_key_weakness

    keys = (make() for _ in range(500))
    weak = [k for k in keys if secret_key_weakness(k, public_keys=PUBLIC_SECRET_KEYS)]
    assert weak == []


@pytest.mark.django_db
@override_settings(
    SECURE_SSL_REDIRECT=True,
    SECURE_HSTS_SECONDS=31_536_000,
    SECURE_HSTS_INCLUDE_SUBDOMAINS=True,
    SECURE_HSTS_PRELOAD=True,
    SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
)
def test_behind_a_proxy_http_is_redirected_and_https_gets_hsts():
    client = Client()
    plain = client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="http")
    assert plain.status_code == 301
    assert plain["Location"] == "https://testserver/accounts/login/"
    secure = client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert secure["X-Content-Type-Options"] == "nosniff"
    assert secure["Referrer-Policy"] == "same-origin"


def test_look_alike_letters_of_other_scripts_fold_to_latin():
    """A key retyped with Cyrillic or Greek look-alikes reads as the same key."""
    from humaneval.startup import _folded

    development = "insecure-dev-key-change-me-in-production-0123456789abcdef"
    assert _folded(CYRILLIC_DEVELOPMENT_KEY) == _folded(development)
    assert _folded("\u03bf\u03c1\u03b1") == "opa"  # Greek omicron, rho, alpha


def test_a_key_starting_with_a_dollar_is_read_as_written():
    """About one of Django's get_random_secret_key() in 50 starts with "$", which
    django-environ took for the name of another variable: a real key was refused as
    "not set", and with DEBUG on the server silently signed with the development key."""
    key = "$85b_*$^i(@$3*d=ha73i)54o5#lrbcw@-5o5k!9vvv_tv5$ej"
    production = dict(PRODUCTION, DJANGO_SECRET_KEY=key)
    assert _settings(production, "SECRET_KEY") == {"SECRET_KEY": key}
    development = {"DJANGO_DEBUG": "true", "DJANGO_SECRET_KEY": "$DATABASE_URL"}
    assert _settings(development, "SECRET_KEY") == {"SECRET_KEY": "$DATABASE_URL"}


def test_a_key_that_is_not_text_is_refused_at_start_not_on_every_page():
    """A byte the environment could not decode became a lone surrogate: the key passed,
    and every page then failed (500) when it was encoded to sign."""
    from humaneval.startup import secret_key_weakness

    key = secrets.token_urlsafe(50) + "\udcff"
    assert secret_key_weakness(key, public_keys=()) == "holds bytes that are not UTF-8 text"


@pytest.mark.parametrize("mark", ["garbage", "", '"true"', "enabled"])
def test_the_production_mark_is_true_or_false_and_nothing_else(mark):
    """The mark used to read anything but a true word as false: an env file that kept
    its quotes made a development process, on the public key with DEBUG pages."""
    result = _run("manage.py", "check", env={"HUMANEVAL_PRODUCTION_PROCESS": mark})
    assert result.returncode == 3
    assert result.stderr.startswith("humaneval: HUMANEVAL_PRODUCTION_PROCESS must be true or false")
    assert len(result.stderr.strip().splitlines()) == 1


def test_no_key_this_repository_has_ever_written_down_is_accepted():
    """A key in a test, a benchmark or an example is public for good: its commits keep
    it. Every string this repository's history assigned to a secret key (by name) is
    refused; an outside review forged sessions on a server using one of them."""
    history = run_command(["git", "log", "-p", "--all", "-G", "SECRET_KEY"], env=dict(os.environ))
    if history.returncode != 0:
        pytest.skip(f"no git history here: {history.stderr.strip()[:200]}")
    from humaneval.settings import PUBLIC_SECRET_KEYS
    from humaneval.startup import secret_key_weakness

    written = set(re.findall(r"SECRET_KEY\W{1,4}[\"']([^\s\"']{20,})[\"']", history.stdout))
    assert "insecure-dev-key-change-me-in-production-0123456789abcdef" in written
    accepted = sorted(
        k for k in written if not secret_key_weakness(k, public_keys=PUBLIC_SECRET_KEYS)
    )
    assert accepted == [], "add these to humaneval.settings.PUBLIC_SECRET_KEYS"


# The interpreter make creates the venv with (deploy/pick_python.py) -----------------------


def _pick_python():
    import importlib.util

    spec = importlib.util.spec_from_file_location("pick_python", REPO / "deploy" / "pick_python.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fake_interpreter(folder, name: str, answer: str) -> str:
    """A candidate that answers the probe with ``answer`` whatever it is asked."""
    path = folder / name
    path.write_text(f"#!/bin/sh\necho '{answer}'\n")
    path.chmod(0o755)
    return str(path)


def test_make_creates_the_venv_with_the_fastest_interpreter_of_its_version(tmp_path):
    """Of two builds of one version the faster wins (a pyenv build without optimisation
    ran the crowd worker's page on 9.7 ms of CPU, Debian's on 6.0: make used to take
    whichever ``python3`` was first on PATH); another version or a build that cannot hold
    a venv is never taken; when the first cannot, it is kept, as make always did."""
    pick = _pick_python().pick
    first = _fake_interpreter(tmp_path, "first", "ok 3.11.2 0.35 /opt/slow/python3.11")
    fast = _fake_interpreter(tmp_path, "fast", "ok 3.11.7 0.22 /usr/bin/python3.11")
    newer = _fake_interpreter(tmp_path, "newer", "ok 3.13.1 0.10 /usr/bin/python3.13")
    no_venv = _fake_interpreter(tmp_path, "novenv", "no: no venv/ensurepip")
    assert pick([first, no_venv, newer, fast]) == "/usr/bin/python3.11"
    assert pick([first, no_venv, newer]) == "/opt/slow/python3.11"
    assert pick([no_venv, fast]) == no_venv
    assert pick([str(tmp_path / "missing"), fast]) == str(tmp_path / "missing")


def test_an_older_patch_release_is_never_taken_however_fast(tmp_path):
    """Debian 12's 3.11.2 ran the loop faster than pyenv's 3.11.7, and make took it: CI's
    API schema test then failed on CPython's AST recursion bug (fixed in 3.11.5)."""
    pick = _pick_python().pick
    pyenv = _fake_interpreter(tmp_path, "pyenv", "ok 3.11.7 0.35 /root/.pyenv/python3.11")
    debian = _fake_interpreter(tmp_path, "debian", "ok 3.11.2 0.22 /usr/bin/python3.11")
    assert pick([pyenv, debian]) == "/root/.pyenv/python3.11"


def test_the_probe_runs_in_this_interpreter_and_the_makefile_uses_it():
    import sys

    real = os.path.realpath(sys.executable)
    module = _pick_python()
    version, seconds, executable = module.probe(sys.executable)
    assert (version, executable) == (".".join(map(str, sys.version_info[:3])), real)
    assert 0 < seconds < 30
    assert module.pick([sys.executable]) == real
    makefile = (REPO / "Makefile").read_text()
    assert re.search(r"^PYTHON \?= \$\(shell python3 deploy/pick_python\.py", makefile, re.M)
