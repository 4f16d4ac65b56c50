"""Shared fixtures: factories live in tests/factories.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings


@pytest.fixture(scope="session")
def e2e_dir() -> Path:
    """The released E2E data (../shared/e2e); tests using it skip when it is absent."""
    path = Path(settings.E2E_DATA_DIR)
    if not (path / "system_outputs").is_dir() or not (path / "quality.csv").is_file():
        pytest.skip(
            f"E2E data not found at {path} (set HUMANEVAL_E2E_DIR or place the released "
            "data in ../shared/e2e)"
        )
    return path
