"""An outputs file uploaded twice at once on PostgreSQL: the second upload waits on the
campaign's row lock and is refused naming the file and line (it was refused by the
output's unique constraint, "System 'sys0' already has an output", with neither)."""

from __future__ import annotations

from pathlib import Path

from annotations.importing.outputs import outputs_import
from annotations.models import Output
from common.errors import DomainError, ImportFileError
from tests.at_once import ROW_LOCKS, at_once
from tests.factories import CampaignFactory

pytestmark = ROW_LOCKS


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
