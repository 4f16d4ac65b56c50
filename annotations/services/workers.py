"""Workers: an organizer's marks on them (flagged for review, excluded from rankings,
experts), and freeing a platform id someone else took first.

The quality checks flag workers on their own (``services.quality``); the payment
decision is ``services.payments``'.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction

from annotations.models import Criterion, Worker
from annotations.selectors import platforms as platform_selectors
from annotations.selectors.experts import expert_report
from annotations.services.expiry import worker_assignments_expire
from common.errors import DomainError

#: The longest reason an exclusion keeps.
REASON_MAX_LENGTH = 500


@transaction.atomic
def worker_mark(
    *,
    worker: Worker,
    flagged: bool | None = None,
    excluded: bool | None = None,
    reason: str | None = None,
    expert: bool | None = None,
) -> Worker:
    """Flag a worker for review, exclude them from rankings, and/or mark them an expert
    (``selectors.experts`` compares the crowd with the experts).

    Their judgements stay stored; rankings run with ``exclude_flagged`` leave out
    excluded workers. An exclusion says why: ``reason`` is required (under 500
    characters) unless the worker is already excluded, whose reason is then kept; it is
    stored as ``Worker.exclusion_reason`` and cleared when the worker is included again.
    Refusals are ``DomainError`` naming the field ``reason``, whichever door asks (the
    monitor page, the API, the experts' agreement rule).
    """
    excluded_after = worker.excluded if excluded is None else excluded
    wanted = (reason or "").strip() if excluded_after else ""
    if excluded_after and reason is None and worker.excluded:
        wanted = worker.exclusion_reason  # kept
    if excluded and not wanted:
        raise DomainError(
            "Say why this worker is excluded (e.g. 'failed 3 of 4 checks').", field="reason"
        )
    if reason is not None and len(wanted) > REASON_MAX_LENGTH:
        raise DomainError(f"Keep the reason under {REASON_MAX_LENGTH} characters.", field="reason")
    fields = []
    if flagged is not None and worker.flagged != flagged:
        worker.flagged = flagged
        fields.append("flagged")
    if excluded is not None and worker.excluded != excluded:
        worker.excluded = excluded
        fields.append("excluded")
    if expert is not None and worker.expert != expert:
        worker.expert = expert
        fields.append("expert")
    if worker.exclusion_reason != wanted:
        worker.exclusion_reason = wanted
        fields.append("exclusion_reason")
    if fields:
        worker.save(update_fields=fields)
    return worker


def worker_exclude(*, worker: Worker, reason: str) -> Worker:
    """Exclude a worker from rankings, saying why (the reason is required and kept)."""
    return worker_mark(worker=worker, excluded=True, reason=reason)


def worker_include(*, worker: Worker) -> Worker:
    """Undo an exclusion: the worker's judgements count again; the reason is cleared."""
    return worker_mark(worker=worker, excluded=False)


@transaction.atomic
def worker_release_identity(*, worker: Worker, reason: str, owner_session: str = "") -> Worker:
    """Free the platform id this worker holds for the person it belongs to.

    A Prolific id or an MTurk worker id is not a secret, and whoever arrives first with
    one holds it: its owner, arriving later from their own platform session, is refused
    (``SessionElsewhere``) and told to write to the researchers. Releasing the id
    excludes the record that holds it (``reason`` is required and kept, as for any
    exclusion; a worker excluded already keeps theirs), stops it (no more tasks, no
    submit), ends its active assignments so that their places are free, gives its
    language place back, decides its payment as rejected with no bonus, and renames its
    id (``<id>~released-<pk>``), keeping the id in its metadata. Their judgements stay
    stored and leave the rankings with the exclusion.

    ``owner_session``: the owner's Prolific submission id (their ``SESSION_ID``) or MTurk
    assignment id, which the platform shows the researchers. The id is then kept for
    them: only an arrival from that platform session consents with it. Without it the
    next arrival with the id takes it, whoever they are. A second release of the same
    record changes nothing.
    """
    owner_session = owner_session.strip()
    secret = platform_selectors.PLATFORM_SECRET.get(str(worker.platform))
    if secret is None:
        # A plain-link worker's id is their browser's own random secret: nobody else can
        # hold it, and freeing it would let its holder start again, included.
        raise DomainError(
            "Only a Prolific or MTurk id can be taken by someone else; exclude this worker "
            "instead.",
            field="owner_session",
        )
    if len(owner_session) > 200:
        raise DomainError("The owner's session id is too long.", field="owner_session")
    locked = Worker.objects.select_for_update().get(pk=worker.pk)
    if locked.released:
        if owner_session:
            raise DomainError(
                "This id was freed already, without being kept for its owner; if someone "
                "has taken it again, free that worker's id with the owner's session id.",
                field="owner_session",
            )
        return locked
    # A worker excluded already keeps their reason when none is given.
    worker_mark(
        worker=locked,
        excluded=True,
        reason=reason if reason.strip() or not locked.excluded else None,
    )
    original = locked.external_id
    locked.metadata = {**locked.metadata, Worker.RELEASED_ID_KEY: original}
    locked.external_id = _released_id(locked)
    locked.stopped = True
    # Paid nothing: the work is not the id's owner's, and the payment files carry ids.
    locked.review, locked.bonus = Worker.Review.REJECTED, Decimal(0)
    locked.save(update_fields=["metadata", "external_id", "stopped", "review", "bonus"])
    worker_assignments_expire(worker=locked)
    if owner_session:
        # The owner's record, waiting for their consent from their platform session
        # (services.sessions: a record not yet consented is a newcomer's).
        Worker.objects.create(
            campaign_id=locked.campaign_id,
            platform=locked.platform,
            external_id=original,
            metadata={secret: owner_session},
        )
    return locked


def _released_id(worker: Worker) -> str:
    """``<id>~released-<pk>`` within the column, or with a counter when someone entered
    with that very id first (a decoy made to make the release fail)."""
    max_length = Worker._meta.get_field("external_id").max_length or 200
    taken = Worker.objects.filter(campaign_id=worker.campaign_id, platform=worker.platform)
    for n in range(1, 1000):
        suffix = f"~released-{worker.pk}" + (f"-{n}" if n > 1 else "")
        candidate = worker.external_id[: max_length - len(suffix)] + suffix
        if not taken.filter(external_id=candidate).exists():
            return candidate
    raise DomainError("This worker's id cannot be renamed; write to the maintainers.")


@transaction.atomic
def workers_exclude_by_expert_agreement(
    *, criterion: Criterion, threshold: float, min_units: int = 10
) -> list[Worker]:
    """Exclude the crowd workers whose agreement with the experts on ``criterion``
    (Krippendorff's alpha, ``selectors.experts``) is below ``threshold``, among those
    sharing at least ``min_units`` units with the experts. Workers already excluded keep
    their reason. Returns the workers newly excluded."""
    if not -1.0 <= threshold <= 1.0:
        raise DomainError("The threshold is an alpha: a number from -1 to 1.")
    if min_units < 1:
        raise DomainError("Ask for at least 1 shared unit.")
    report = expert_report(criterion=criterion, resamples=0)
    if not report.available:
        raise DomainError(
            f"No expert has judged '{criterion.name}': mark experts first (monitor, workers)."
        )
    newly = []
    for row in report.workers:
        alpha = row.alpha
        if row.worker.excluded or not alpha.defined or alpha.n < min_units:
            continue
        if alpha.value < threshold:
            newly.append(
                worker_mark(
                    worker=row.worker,
                    excluded=True,
                    reason=(
                        f"Agreement with the experts' consensus on {criterion.name}: "
                        f"alpha {alpha.value:.2f} < {threshold:g} ({alpha.n} units)"
                    ),
                )
            )
    return newly
