"""One file imported twice at once (two tabs, a retried upload) on PostgreSQL: imports
into one campaign take its row lock first, so the second sees the first's work and is
refused as imported before (an outside review saw the second refused by a criterion's
or an output's unique constraint: "The campaign already has a criterion 'ranking'",
"System 'sys0' already has an output", without file or line)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import connection

from annotations.importing.outputs import outputs_import
from annotations.models import Output
from common.errors import DomainError, ImportFileError
from tests.at_once import at_once
from tests.factories import CampaignFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="Row locks (SELECT ... FOR UPDATE) need PostgreSQL; SQLite serialises writes.",
    ),
]


def test_an_outputs_file_uploaded_twice_at_once_names_its_file_and_line(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    path = tmp_path / "outputs.csv"
    path.write_text(
        "item_id,input,system,output\n"
        + "".join(f"i{i},name[P{i}],s{s},s{s} on {i}\n" for i in range(20) for s in range(3)),
        encoding="utf-8",
    )
    outcomes = at_once(lambda: outputs_import(campaign=campaign, path=path), times=2)
    refused = [o for o in outcomes if isinstance(o, DomainError)]
    assert len(refused) == 1 and isinstance(refused[0], ImportFileError), outcomes
    assert (refused[0].file, refused[0].line) == (str(path), 2)
    assert Output.objects.filter(system__campaign=campaign).count() == 60
