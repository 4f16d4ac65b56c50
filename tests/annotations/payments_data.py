"""Workers with quality checks, for the payment suggestions and decisions."""

from __future__ import annotations

from annotations.models import Assignment, Campaign, Worker, WorkerCheck


def _checks(worker: Worker, kind: str, results: list[bool]) -> None:
    """One WorkerCheck per result, each on one of the worker's assignments."""
    assignments = list(Assignment.objects.filter(worker=worker).order_by("pk"))
    taken = set(
        WorkerCheck.objects.filter(worker=worker, kind=kind).values_list("assignment_id", flat=True)
    )
    free = [a for a in assignments if a.pk not in taken]
    assert len(free) >= len(results)
    WorkerCheck.objects.bulk_create(
        WorkerCheck(worker=worker, assignment=a, kind=kind, passed=p)
        for a, p in zip(free, results, strict=False)
    )


def _worker(campaign: Campaign, external_id: str) -> Worker:
    return campaign.workers.get(external_id=external_id)
