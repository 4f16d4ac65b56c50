"""Outputs into a campaign past its draft are refused; a system no built task shows is named."""

from __future__ import annotations

import pytest

from annotations.importing.jobs import import_job_create
from annotations.importing.outputs import Upload, outputs_import, outputs_import_uploads
from common.errors import DomainError
from tests.annotations.import_jobs import outputs_csv
from tests.annotations.importing.conftest import model_counts
from tests.factories import CampaignFactory, CriterionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _jobs_in_this_thread(settings):
    settings.JOBS_IN_THREAD = False


@pytest.mark.parametrize("status", ["live", "paused", "closed", "archived"])
def test_outputs_into_a_campaign_past_draft_are_refused(tmp_path, status) -> None:
    campaign = CampaignFactory(status=status)
    path = tmp_path / "o.csv"
    path.write_bytes(outputs_csv(2, 2))
    before = model_counts()
    with pytest.raises(DomainError, match=f"is {status}: outputs can only be added to a draft"):
        outputs_import(campaign=campaign, path=path)
    with pytest.raises(DomainError, match="only be added to a draft"):
        outputs_import_uploads(campaign=campaign, uploads=[Upload("o.csv", path.read_bytes())])
    with pytest.raises(DomainError, match="only be added to a draft"):
        import_job_create(campaign=campaign, uploads=[Upload("o.csv", path.read_bytes())])
    assert model_counts() == before


def test_a_new_system_no_built_task_shows_is_named(tmp_path) -> None:
    from annotations.models import Task

    campaign = CampaignFactory()
    criterion = CriterionFactory(campaign=campaign)
    first = outputs_import_uploads(campaign=campaign, uploads=[Upload("a.csv", outputs_csv(2, 2))])
    assert first[0].systems_not_in_tasks == ()
    item = campaign.items.first()
    assert item is not None
    Task.objects.create(campaign=campaign, criterion=criterion, item=item, number=1)
    (result,) = outputs_import_uploads(
        campaign=campaign, uploads=[Upload("b.csv", outputs_csv(1, 2, prefix="new"))]
    )
    assert result.systems_not_in_tasks == ("new0",)
    assert result.file == "b.csv"
