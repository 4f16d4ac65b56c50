"""The ``ensure_admin`` command prints the URL and credentials and adopts the demo."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from annotations.models import Campaign

pytestmark = pytest.mark.django_db


def _run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_ensure_admin_prints_url_and_credentials_and_adopts_the_demo(
    settings, tmp_path, monkeypatch
):
    monkeypatch.delenv("HUMANEVAL_ADMIN_PASSWORD", raising=False)
    settings.BASE_DIR = tmp_path
    _run("seed_demo")
    out = _run("ensure_admin")
    password = (tmp_path / ".admin-password").read_text().strip()
    assert "http://127.0.0.1:8000/admin/" in out
    assert "username: admin" in out and f"password: {password}" in out
    assert "now the owner of campaign 'demo'" in out
    assert "now the owner of campaign 'demo-mtg'" in out
    owner = Campaign.objects.get(slug="demo-mtg").owner
    assert owner is not None and owner.username == "admin"
    assert get_user_model().objects.get(username="admin").check_password(password)
    again = _run("ensure_admin")
    assert again.startswith("Admin account exists") and f"password: {password}" in again
    assert "owner" not in again


def test_ensure_admin_with_the_password_in_the_environment(settings, tmp_path, monkeypatch):
    monkeypatch.setenv("HUMANEVAL_ADMIN_PASSWORD", "from-env-123")
    settings.BASE_DIR = tmp_path
    out = _run("ensure_admin")
    assert "password: from-env-123" in out
    assert not (tmp_path / ".admin-password").exists()
