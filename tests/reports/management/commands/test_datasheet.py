"""The ``datasheet`` command writes every format."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("fmt", ["markdown", "latex", "json"])
def test_cli_formats(campaign, fmt):
    out = StringIO()
    call_command("datasheet", campaign.slug, "--format", fmt, stdout=out)
    text = out.getvalue()
    if fmt == "json":
        data = json.loads(text)
        assert data["campaign"] == campaign.slug and "5.1" in data["open"]
        assert (
            next(q for q in data["questions"] if q["key"] == "4.3.7@quality")["answer"]
            == "How good is it?"
        )
    elif fmt == "latex":
        assert text.startswith(r"\section*{Human evaluation datasheet: Demo}")
    else:
        assert text.startswith("# Human evaluation datasheet: Demo") and "## 4. Quality" in text


def test_an_unknown_campaign_is_refused_in_the_other_commands_words():
    """The words of ``correlate``, ``rank`` and ``build_tasks`` (the selector's one
    refusal), not a wording of this command's own."""
    with pytest.raises(CommandError) as error:
        call_command("datasheet", "nope", stdout=StringIO())
    assert str(error.value) == "No campaign with the slug 'nope'."
