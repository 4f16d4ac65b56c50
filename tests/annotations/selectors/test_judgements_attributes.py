"""The counted judgements of a slice of the items."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.models import Item
from annotations.selectors.judgements import judgements_counted

pytestmark = pytest.mark.django_db


def test_counted_judgements_of_a_slice(tmp_path: Path) -> None:
    from tests.annotations.experts_data import experts_campaign

    campaign, criterion = experts_campaign()
    Item.objects.filter(campaign=campaign, external_id__in=["i0", "i1", "i2"]).update(
        attributes={"challenge_set": "scramble"}
    )
    every = judgements_counted(criterion=criterion).count()
    sliced = judgements_counted(criterion=criterion, where={"challenge_set": "scramble"})
    # Three items judged by four workers (two experts, careful, careless).
    assert sliced.count() == 12 < every
    assert set(sliced.values_list("task__item__external_id", flat=True)) == {"i0", "i1", "i2"}
    assert judgements_counted(criterion=criterion, where={"challenge_set": "nope"}).count() == 0
