"""Workers get tasks in their language only."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.models import Task
from annotations.services import assignment as assignment_services
from tests.annotations.languages_data import _live_two_languages
from tests.factories import WorkerFactory

pytestmark = pytest.mark.django_db


def test_workers_get_tasks_in_their_language_only(tmp_path: Path) -> None:
    campaign = _live_two_languages(tmp_path)
    for language in ("de", "en"):
        worker = WorkerFactory(campaign=campaign, language=language)
        seen = []
        while assignment := assignment_services.task_next_for(worker=worker, campaign=campaign):
            seen.append(assignment.task.language)
            assignment.state = assignment.State.SUBMITTED
            assignment.save(update_fields=["state"])
        assert seen and set(seen) == {language}
        assert len(seen) == Task.objects.filter(campaign=campaign, language=language).count()
