"""The E2E presets say which release they fit."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_e2e_presets_say_which_release_they_fit():
    from annotations.importing.parsers.presets import PRESETS

    for name in ("e2e-quality", "e2e-naturalness"):
        title = PRESETS[name][0]
        assert "E2E NLG Challenge" in title and "not the RankME paper's release" in title
