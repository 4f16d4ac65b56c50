"""A ratings file imported twice at once (two tabs, a retried upload) on PostgreSQL: the
import takes the campaign's row lock first, so the second is refused as imported before
(an outside review saw it refused by the criterion's unique constraint instead: "The
campaign already has a criterion 'ranking'")."""

from __future__ import annotations

from pathlib import Path

from annotations.importing.wmt import wmt_import
from annotations.models import Judgement
from common.errors import ImportFileError
from tests.annotations.importing.conftest import write_csv
from tests.annotations.importing.test_wmt import GOOD
from tests.at_once import ROW_LOCKS, at_once
from tests.factories import CampaignFactory

pytestmark = ROW_LOCKS


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
