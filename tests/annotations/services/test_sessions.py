"""A worker's identity (annotations/services/sessions.py) is stable and merges metadata."""

from __future__ import annotations

import pytest

from annotations.models import Worker
from annotations.services.sessions import worker_get_or_create
from tests.annotations.built_campaigns import live_campaign

pytestmark = pytest.mark.django_db


def test_worker_get_or_create_is_stable_and_merges_metadata():
    campaign = live_campaign()
    first = worker_get_or_create(
        campaign=campaign, platform="prolific", external_id="P1", metadata={"study_id": "S"}
    )
    again = worker_get_or_create(
        campaign=campaign, platform="prolific", external_id="P1", metadata={"session_id": "X"}
    )
    assert first.pk == again.pk
    again.refresh_from_db()
    assert again.metadata == {"study_id": "S", "session_id": "X"}
    assert Worker.objects.count() == 1
