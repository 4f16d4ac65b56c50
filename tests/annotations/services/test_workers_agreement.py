"""Excluding workers by their agreement with the experts (annotations/services/workers.py)."""

from __future__ import annotations

import pytest

from annotations.models import Worker
from annotations.selectors.experts import expert_report
from annotations.services.workers import workers_exclude_by_expert_agreement
from common.errors import DomainError
from tests.annotations.experts_data import experts_campaign

pytestmark = pytest.mark.django_db


def test_exclusion_by_agreement_excludes_only_those_below_with_a_reason() -> None:
    _campaign, criterion = experts_campaign()
    newly = workers_exclude_by_expert_agreement(criterion=criterion, threshold=0.5)
    assert [w.external_id for w in newly] == ["careless"]
    careless = Worker.objects.get(external_id="careless")
    assert careless.excluded and "Agreement with the experts' consensus on quality" in (
        careless.exclusion_reason
    )
    assert not Worker.objects.get(external_id="careful").excluded
    # Again: nobody new.
    assert workers_exclude_by_expert_agreement(criterion=criterion, threshold=0.5) == []
    # Too few shared outputs: nobody.
    Worker.objects.filter(external_id="careless").update(excluded=False)
    assert (
        workers_exclude_by_expert_agreement(criterion=criterion, threshold=0.5, min_units=81) == []
    )


@pytest.mark.parametrize("threshold", [-1.5, 2.0])
def test_an_impossible_threshold_is_refused(threshold: float) -> None:
    _campaign, criterion = experts_campaign()
    with pytest.raises(DomainError, match="from -1 to 1"):
        workers_exclude_by_expert_agreement(criterion=criterion, threshold=threshold)
    assert not Worker.objects.filter(excluded=True).exists()


def test_no_experts_is_said_not_computed() -> None:
    _campaign, criterion = experts_campaign()
    Worker.objects.update(expert=False)
    assert not expert_report(criterion=criterion).available
    with pytest.raises(DomainError, match="No expert has judged"):
        workers_exclude_by_expert_agreement(criterion=criterion, threshold=0.5)
