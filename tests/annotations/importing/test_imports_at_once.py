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
from annotations.importing.wmt import wmt_import
from annotations.models import Judgement, Output
from common.errors import DomainError, ImportFileError
from tests.annotations.importing.conftest import write_csv
from tests.annotations.importing.test_wmt import GOOD
from tests.at_once import at_once
from tests.factories import CampaignFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="Row locks (SELECT ... FOR UPDATE) need PostgreSQL; SQLite serialises writes.",
    ),
]


def test_a_ratings_file_imported_twice_at_once_is_refused_as_imported_before(
    tmp_path: Path,
) -> None:
    campaign = CampaignFactory()
    path = write_csv(tmp_path / "wmt.csv", GOOD)
    outcomes = at_once(lambda: wmt_import(campaign=campaign, path=path), times=3)
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(refused) == 2, outcomes
    assert all(isinstance(o, ImportFileError) for o in refused), refused
    assert all("imported before" in str(o) for o in refused), refused
    assert Judgement.objects.filter(criterion__campaign=campaign).count() == 2


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
