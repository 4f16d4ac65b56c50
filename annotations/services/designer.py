"""Writes of task designers and organizers: settings, life cycle, members, workers, uploads.

Every function here is called by both interfaces (the pages and the REST API).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction

from annotations.errors import DomainError, ImportFileError
from annotations.models import Campaign, CampaignMembership, Criterion, Task, Worker
from annotations.services.campaigns import campaign_create, criterion_from_preset

# Slugs that would collide with designer pages under /campaigns/.
RESERVED_SLUGS = frozenset({"new", "account"})

# Fields that shape the task design: they change only while the campaign is a draft.
DESIGN_FIELDS = frozenset(
    {
        "outputs_per_task",
        "judgements_per_task",
        "tasks_per_worker",
        "merge_identical_outputs",
        "task_seed",
        "attention_check_rate",
        "repeat_rate",
    }
)
SETTINGS_FIELDS = DESIGN_FIELDS | {
    "name",
    "description",
    "instructions",
    "consent_text",
    "min_seconds_per_task",
    "min_time_policy",
    "assignment_timeout_minutes",
    "quality_threshold",
    "stop_failed_workers",
    "accept_prolific",
    "accept_mturk",
    "accept_link",
    "completion_code",
    "failed_check_code",
}


class UploadedFileLike(Protocol):
    name: str

    def chunks(self) -> Iterable[bytes]: ...


def _clean(instance: Any, fields: Iterable[str] | None = None) -> None:
    """Model validation as a DomainError naming the field."""
    try:
        instance.full_clean(exclude=None, validate_unique=False)
    except ValidationError as exc:
        parts = [
            f"{field}: {' '.join(str(m) for m in messages)}"
            for field, messages in exc.message_dict.items()
        ]
        raise DomainError("; ".join(parts)) from exc


@transaction.atomic
def campaign_start(*, user: User, slug: str, name: str = "", **fields: Any) -> Campaign:
    """A new draft campaign owned by ``user``."""
    if slug in RESERVED_SLUGS:
        raise DomainError(f"The slug '{slug}' is reserved; choose another.")
    return campaign_create(slug=slug, name=name, owner=user, **fields)


@transaction.atomic
def campaign_settings_update(*, campaign: Campaign, **fields: Any) -> Campaign:
    """Change a campaign's settings.

    Design fields (outputs per task, judgements per task, check rates ...) are refused
    once tasks have been built, since the built tasks would no longer match them.
    """
    unknown = set(fields) - SETTINGS_FIELDS
    if unknown:
        raise DomainError(f"These settings cannot be changed here: {', '.join(sorted(unknown))}.")
    changed = {k: v for k, v in fields.items() if getattr(campaign, k) != v}
    design_changes = sorted(set(changed) & DESIGN_FIELDS)
    if design_changes and campaign.tasks.exists():
        raise DomainError(
            "Tasks are built already; the design ("
            + ", ".join(design_changes)
            + ") can no longer change. Settings like instructions and codes still can."
        )
    if not changed:
        return campaign
    for key, value in changed.items():
        setattr(campaign, key, value)
    if campaign.attention_check_rate + campaign.repeat_rate >= 1:
        raise DomainError("Attention checks and repeats together must leave room for real tasks.")
    _clean(campaign)
    campaign.save(update_fields=[*changed, "updated_at"])
    return campaign


def _transition(campaign: Campaign, allowed_from: set[str], to: str, verb: str) -> Campaign:
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.status not in allowed_from:
        raise DomainError(f"A {campaign.get_status_display().lower()} campaign cannot be {verb}.")
    campaign.status = to
    campaign.save(update_fields=["status", "updated_at"])
    return campaign


@transaction.atomic
def campaign_launch(*, campaign: Campaign) -> Campaign:
    """Open a draft or paused campaign to workers (locks the campaign row).

    A campaign needs criteria, systems, built tasks and at least one entry platform.
    """
    if campaign.status == Campaign.Status.DRAFT or campaign.status == Campaign.Status.PAUSED:
        if not campaign.criteria.exists():
            raise DomainError("Add at least one criterion before launching.")
        if not campaign.tasks.filter(kind=Task.Kind.REGULAR).exists():
            raise DomainError("Build the tasks before launching.")
        if not (campaign.accept_prolific or campaign.accept_mturk or campaign.accept_link):
            raise DomainError("Accept at least one entry platform before launching.")
    return _transition(
        campaign, {Campaign.Status.DRAFT, Campaign.Status.PAUSED}, Campaign.Status.LIVE, "launched"
    )


@transaction.atomic
def campaign_pause(*, campaign: Campaign) -> Campaign:
    """Stop handing out tasks; submitted work stays and running assignments may finish."""
    return _transition(campaign, {Campaign.Status.LIVE}, Campaign.Status.PAUSED, "paused")


@transaction.atomic
def campaign_close(*, campaign: Campaign) -> Campaign:
    """End the campaign for good."""
    return _transition(
        campaign,
        {Campaign.Status.DRAFT, Campaign.Status.LIVE, Campaign.Status.PAUSED},
        Campaign.Status.CLOSED,
        "closed",
    )


@transaction.atomic
def campaign_tasks_build(*, campaign: Campaign, seed: int | None = None) -> Any:
    """Build the task design (delegates to ``services.tasks.tasks_build``); drafts only."""
    if campaign.status != Campaign.Status.DRAFT:
        raise DomainError("Tasks can be built only while the campaign is a draft.")
    if not campaign.criteria.exists():
        raise DomainError("Add at least one criterion before building tasks.")
    if not campaign.systems.exists():
        raise DomainError("Upload system outputs before building tasks.")
    from annotations.services.tasks import tasks_build

    # A draft's tasks may be rebuilt (tasks_build refuses when judgements exist).
    return tasks_build(campaign=campaign, seed=seed, rebuild=campaign.tasks.exists())


# Criteria ---------------------------------------------------------------------------------

CRITERION_FIELDS = frozenset(
    {"name", "question", "show_input", "scale", "scale_settings", "position"}
)


def _criterion_editable(criterion: Criterion) -> None:
    if criterion.pk and criterion.tasks.exists():
        raise DomainError(
            f"Criterion '{criterion.name}' has tasks already; it can no longer change."
        )


@transaction.atomic
def criterion_create(*, campaign: Campaign, preset: str = "", **fields: Any) -> Criterion:
    """A new criterion, from a preset (fields then override it) or from fields alone."""
    if campaign.status != Campaign.Status.DRAFT:
        raise DomainError("Criteria can be added only while the campaign is a draft.")
    unknown = set(fields) - CRITERION_FIELDS
    if unknown:
        raise DomainError(f"Unknown criterion fields: {', '.join(sorted(unknown))}.")
    name = fields.get("name") or preset
    if not name:
        raise DomainError("name: a criterion needs a name (or a preset).")
    if campaign.criteria.filter(name=name).exists():
        raise DomainError(f"name: the campaign already has a criterion '{name}'.")
    if preset:
        criterion = criterion_from_preset(campaign=campaign, preset=preset, name=name)
        overrides = {k: v for k, v in fields.items() if k != "name" and v not in (None, "")}
        if overrides:
            return criterion_update(criterion=criterion, **overrides)
        return criterion
    criterion = Criterion(campaign=campaign, position=campaign.criteria.count(), **fields)
    _check_scale_settings(criterion)
    _clean(criterion)
    criterion.save()
    return criterion


@transaction.atomic
def criterion_update(*, criterion: Criterion, **fields: Any) -> Criterion:
    unknown = set(fields) - CRITERION_FIELDS
    if unknown:
        raise DomainError(f"Unknown criterion fields: {', '.join(sorted(unknown))}.")
    _criterion_editable(criterion)
    if (
        "name" in fields
        and fields["name"] != criterion.name
        and criterion.campaign.criteria.filter(name=fields["name"]).exists()
    ):
        raise DomainError(f"name: the campaign already has a criterion '{fields['name']}'.")
    for key, value in fields.items():
        setattr(criterion, key, value)
    _check_scale_settings(criterion)
    _clean(criterion)
    criterion.save()
    return criterion


@transaction.atomic
def criterion_delete(*, criterion: Criterion) -> None:
    _criterion_editable(criterion)
    criterion.delete()


def _check_scale_settings(criterion: Criterion) -> None:
    settings = criterion.scale_settings or {}
    if not isinstance(settings, dict):
        raise DomainError("scale_settings: must be a JSON object.")
    if criterion.scale == Criterion.Scale.MAGNITUDE:
        standard = settings.get("standard", 100)
        if not isinstance(standard, int | float) or standard <= 0:
            raise DomainError("scale_settings.standard: must be a positive number.")
    if criterion.scale == Criterion.Scale.LIKERT:
        levels = settings.get("levels")
        if not isinstance(levels, list) or len(levels) < 2:
            raise DomainError("scale_settings.levels: a Likert scale needs at least two levels.")
        for i, level in enumerate(levels, start=1):
            if not isinstance(level, dict) or not isinstance(level.get("value"), int):
                raise DomainError(
                    f"scale_settings.levels[{i}]: each level needs an integer 'value'."
                )


# Members ----------------------------------------------------------------------------------


@transaction.atomic
def membership_set(*, campaign: Campaign, username: str, role: str) -> CampaignMembership:
    """Give a user a role in the campaign (creating or changing their membership)."""
    if role not in CampaignMembership.Role.values:
        raise DomainError(f"role: choose one of {', '.join(CampaignMembership.Role.values)}.")
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise DomainError(f"username: there is no user '{username}'.")
    if campaign.owner_id == user.pk and role != CampaignMembership.Role.OWNER:
        raise DomainError("The campaign's owner keeps the owner role.")
    membership, _ = CampaignMembership.objects.update_or_create(
        campaign=campaign, user=user, defaults={"role": role}
    )
    return membership


@transaction.atomic
def membership_remove(*, membership: CampaignMembership) -> None:
    if membership.campaign.owner_id == membership.user_id:
        raise DomainError("The campaign's owner cannot be removed.")
    membership.delete()


# Workers ----------------------------------------------------------------------------------


@transaction.atomic
def worker_mark(
    *, worker: Worker, flagged: bool | None = None, excluded: bool | None = None
) -> Worker:
    """Flag a worker for review and/or exclude them from rankings.

    Their judgements stay stored; rankings run with ``exclude_flagged`` leave out
    excluded workers.
    """
    fields = []
    if flagged is not None and worker.flagged != flagged:
        worker.flagged = flagged
        fields.append("flagged")
    if excluded is not None and worker.excluded != excluded:
        worker.excluded = excluded
        fields.append("excluded")
    if fields:
        worker.save(update_fields=fields)
    return worker


# Uploads ----------------------------------------------------------------------------------


def outputs_upload(*, campaign: Campaign, files: Iterable[UploadedFileLike]) -> list[Any]:
    """Import uploaded output files (any importer format) into a campaign.

    All files go in one transaction: when one fails, nothing of any file is kept and the
    ImportFileError names the uploaded file, the line and the field.
    """
    from annotations.services.importing import outputs_import

    files = list(files)
    if not files:
        raise DomainError("Choose at least one file to upload.")
    if campaign.status == Campaign.Status.CLOSED:
        raise DomainError("A closed campaign takes no new outputs.")
    results = []
    with tempfile.TemporaryDirectory(prefix="humaneval-upload-") as tmp:
        # E2E-style <system>.tsv files (and participants.tsv) form one folder; every
        # other file is imported on its own.
        folder = Path(tmp) / "outputs"
        paths: list[Path] = []
        for i, upload in enumerate(files):
            name = Path(upload.name).name or f"upload-{i}"
            if name.lower().endswith(".tsv"):
                folder.mkdir(exist_ok=True)
                path = folder / name
            else:
                (Path(tmp) / str(i)).mkdir()
                path = Path(tmp) / str(i) / name
                paths.append(path)
            with path.open("wb") as handle:
                for chunk in upload.chunks():
                    handle.write(chunk)
        if folder.exists():
            paths.insert(0, folder)
        with transaction.atomic():
            for path in paths:
                try:
                    results.append(outputs_import(campaign=campaign, path=path))
                except ImportFileError as exc:
                    # Name the file the designer uploaded, not our temporary path.
                    shown = exc.file
                    if shown.startswith(tmp):
                        shown = Path(shown).name
                    raise ImportFileError(
                        exc.reason, file=shown, line=exc.line, field=exc.field
                    ) from exc
    return results
