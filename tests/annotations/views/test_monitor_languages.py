"""The monitor shows progress per language."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.models import Task
from annotations.services import assignment as assignment_services
from tests.annotations.languages_data import _live_two_languages
from tests.factories import WorkerFactory

pytestmark = pytest.mark.django_db


def test_progress_per_language_on_the_monitor(client, django_user_model, tmp_path: Path) -> None:
    from annotations.models import CampaignMembership
    from annotations.selectors.languages import language_progress

    campaign = _live_two_languages(tmp_path)
    campaign.language_quotas = {"de": 1}
    campaign.save(update_fields=["language_quotas"])
    worker = WorkerFactory(campaign=campaign, language="de", consented_at="2026-01-01T00:00Z")
    assignment = assignment_services.task_next_for(worker=worker, campaign=campaign)
    assert assignment is not None
    rows = {r.language: r for r in language_progress(campaign=campaign)}
    assert set(rows) == {"de", "en"}
    assert rows["de"].workers == 1 and rows["de"].quota == 1 and rows["de"].full
    assert rows["en"].quota is None and not rows["en"].full
    assert rows["de"].tasks == Task.objects.filter(campaign=campaign, language="de").count()
    assert rows["de"].needed == rows["de"].tasks * campaign.judgements_per_task
    user = django_user_model.objects.create_user("designer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="designer")
    client.force_login(user)
    body = client.get(f"/campaigns/{campaign.slug}/monitor/").content.decode()
    assert "data-language-progress" in body and "full" in body
