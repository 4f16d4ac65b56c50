"""An upload of no file (annotations/importing/outputs.py, ``uploads_refuse_if_none``):
reading the upload, queueing its job and importing it refuse it with the one sentence,
written once."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing.jobs import import_job_create
from annotations.importing.outputs import outputs_import_uploads, uploads_refuse_if_none
from annotations.importing.uploads import uploads_read
from common.errors import DomainError
from tests.factories import CampaignFactory

IMPORTING = Path(__file__).resolve().parents[3] / "annotations" / "importing"
SENTENCE = "Choose at least one file to upload."


@pytest.mark.django_db
def test_every_entry_refuses_no_file_with_the_one_sentence() -> None:
    campaign = CampaignFactory()
    refusals = (
        lambda: uploads_refuse_if_none([]),
        lambda: uploads_read(files=[]),
        lambda: import_job_create(campaign=campaign, uploads=[], queue=False),
        lambda: outputs_import_uploads(campaign=campaign, uploads=[]),
    )
    for refuse in refusals:
        with pytest.raises(DomainError) as refused:
            refuse()
        assert str(refused.value) == SENTENCE
    assert not campaign.import_jobs.exists()


def test_the_sentence_is_written_once() -> None:
    written = [
        path.name
        for path in sorted(IMPORTING.rglob("*.py"))
        for _ in range(path.read_text().count(SENTENCE))
    ]
    assert written == ["outputs.py"]
