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
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import transaction

from annotations.errors import DomainError, ImportFileError
from annotations.models import (
    Campaign,
    CampaignMembership,
    Criterion,
    Item,
    Output,
    System,
    Task,
    Worker,
)
from annotations.services.campaigns import (
    SETTING_NAMES,
    campaign_create,
    campaign_settings_check,
    criterion_from_preset,
)

# Slugs that would collide with designer pages under /campaigns/.
RESERVED_SLUGS = frozenset({"new", "account"})

# Fields that shape the task design: they change only while the campaign is a draft.
DESIGN_FIELDS = frozenset(
    {
        "setup",
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
    "screened_out_code",
}


class UploadedFileLike(Protocol):
    name: str

    def chunks(self) -> Iterable[bytes]: ...


def _clean(instance: Any, fields: Iterable[str] | None = None) -> None:
    """Model validation as a DomainError naming the field in words (its label, never
    the attribute or a constraint name: those are caught by the checks before this)."""
    try:
        instance.full_clean(exclude=None, validate_unique=False)
    except ValidationError as exc:
        parts = []
        for field, messages in exc.message_dict.items():
            text = " ".join(str(m) for m in messages)
            if field == "__all__":
                parts.append(text)
                continue
            try:
                label = str(instance._meta.get_field(field).verbose_name)
            except FieldDoesNotExist:
                label = field.replace("_", " ")
            label = SETTING_NAMES.get(field, label[:1].upper() + label[1:])
            parts.append(f"{label}: {text}")
        raise DomainError("; ".join(parts)) from exc


@transaction.atomic
def campaign_start(*, user: User, slug: str, name: str = "", **fields: Any) -> Campaign:
    """A new draft campaign owned by ``user``."""
    if slug in RESERVED_SLUGS:
        raise DomainError(f"The slug '{slug}' is reserved; choose another.")
    return campaign_create(slug=slug, name=name, owner=user, **fields)


# What a closed or archived campaign may still change: how it is called.
ALWAYS_EDITABLE = frozenset({"name", "description"})


def campaign_fixed_fields(*, campaign: Campaign) -> frozenset[str]:
    """The settings that can no longer change, and so are shown read-only.

    The design fields once tasks are built (the built tasks would no longer match them;
    a live, paused or closed campaign always has tasks), and everything but the name
    and description once the campaign is closed or archived.
    """
    if campaign.status in (Campaign.Status.CLOSED, Campaign.Status.ARCHIVED):
        return frozenset(SETTINGS_FIELDS - ALWAYS_EDITABLE)
    if campaign.status != Campaign.Status.DRAFT or campaign.tasks.exists():
        return DESIGN_FIELDS
    return frozenset()


def _named(fields: Iterable[str]) -> str:
    return ", ".join(SETTING_NAMES.get(f, f.replace("_", " ")).lower() for f in sorted(fields))


@transaction.atomic
def campaign_settings_update(*, campaign: Campaign, **fields: Any) -> Campaign:
    """Change a campaign's settings (locks the campaign row).

    Fields in ``campaign_fixed_fields`` are refused (design fields once tasks are built,
    almost everything once closed). The result must pass ``campaign_settings_check``:
    ``CampaignSettingsError`` names each impossible field and why; nothing is saved.
    """
    unknown = set(fields) - SETTINGS_FIELDS
    if unknown:
        raise DomainError(f"These settings cannot be changed here: {', '.join(sorted(unknown))}.")
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    changed = {k: v for k, v in fields.items() if getattr(campaign, k) != v}
    fixed = sorted(set(changed) & campaign_fixed_fields(campaign=campaign))
    if fixed:
        if campaign.status in (Campaign.Status.CLOSED, Campaign.Status.ARCHIVED):
            why = f"The campaign is {campaign.get_status_display().lower()}"
        else:
            why = "Tasks are built already"
        raise DomainError(
            f"{why}; these settings can no longer change: {_named(fixed)}. "
            "Clone the campaign to run a new round with other settings."
        )
    if not changed:
        return campaign
    for key, value in changed.items():
        setattr(campaign, key, value)
    campaign_settings_check(campaign=campaign)
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

    A campaign needs criteria, systems, built tasks, at least one entry platform and
    settings that pass ``campaign_settings_check``.
    """
    if campaign.status == Campaign.Status.DRAFT or campaign.status == Campaign.Status.PAUSED:
        campaign_settings_check(campaign=campaign)
        if not campaign.criteria.exists():
            raise DomainError("Add at least one criterion before launching.")
        if not campaign.tasks.filter(kind=Task.Kind.REGULAR).exists():
            raise DomainError("Build the tasks before launching.")
        if not (campaign.accept_prolific or campaign.accept_mturk or campaign.accept_link):
            raise DomainError("Accept at least one entry platform before launching.")
        from annotations.services.criteria import criteria_check_launchable

        criteria_check_launchable(campaign=campaign)  # magnitude criteria need a standard
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
def campaign_archive(*, campaign: Campaign) -> Campaign:
    """Put a closed campaign away: off the campaign list, read-only, nothing deleted."""
    return _transition(campaign, {Campaign.Status.CLOSED}, Campaign.Status.ARCHIVED, "archived")


@transaction.atomic
def campaign_unarchive(*, campaign: Campaign) -> Campaign:
    """Bring an archived campaign back as closed (to rank or export it again)."""
    return _transition(campaign, {Campaign.Status.ARCHIVED}, Campaign.Status.CLOSED, "restored")


# Statuses a campaign may be deleted in: a draft has collected nothing; a closed or
# archived one has ended (deleting a live or paused one would pull tasks from workers).
DELETABLE = frozenset({Campaign.Status.DRAFT, Campaign.Status.CLOSED, Campaign.Status.ARCHIVED})


@transaction.atomic
def campaign_delete(*, campaign: Campaign) -> None:
    """Delete a draft, closed or archived campaign with everything it holds (locks the row).

    Judgements, workers, tasks, outputs and ranking runs go with it; the confirmation
    page shows their counts first (``selectors.campaigns.campaign_contents``).
    """
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.status not in DELETABLE:
        raise DomainError(
            f"A {campaign.get_status_display().lower()} campaign cannot be deleted: "
            "close it first, so that no worker is in the middle of a task."
        )
    campaign.delete()


# Campaign fields a clone copies: the whole design and what workers read, not the
# identity (slug, name, owner), the status, the design seed or the completion codes
# (a new round gets fresh codes, so that one round's code never pays for another).
_NOT_CLONED = frozenset(
    {
        "id",
        "slug",
        "name",
        "status",
        "owner",
        "created_at",
        "updated_at",
        "task_seed",
        "completion_code",
        "failed_check_code",
        "screened_out_code",
    }
)


@transaction.atomic
def campaign_clone(*, campaign: Campaign, user: User, slug: str, name: str = "") -> Campaign:
    """A new draft with the campaign's settings, criteria, systems, items and outputs.

    For a second round: workers, tasks, assignments, judgements and ranking runs are not
    copied; ``user`` owns the clone. Criteria keep every field (scale, standard,
    content checks); a standard copied from an output points to the clone's output.
    """
    if slug in RESERVED_SLUGS:
        raise DomainError(f"The slug '{slug}' is reserved; choose another.")
    fields = {
        f.name: getattr(campaign, f.name)
        for f in Campaign._meta.concrete_fields
        if f.name not in _NOT_CLONED
    }
    clone = campaign_create(
        slug=slug, name=name or f"{campaign.name} (round 2)", owner=user, **fields
    )
    systems = {
        s.pk: System(campaign=clone, label=s.label, name=s.name, metadata=s.metadata)
        for s in campaign.systems.all()
    }
    System.objects.bulk_create(systems.values())
    items = {
        i.pk: Item(campaign=clone, external_id=i.external_id, input=i.input, position=i.position)
        for i in campaign.items.all()
    }
    Item.objects.bulk_create(items.values(), batch_size=2000)
    old_outputs = list(
        Output.objects.filter(item__campaign=campaign)
        .order_by("id")
        .values_list("id", "item_id", "system_id", "text", "canonical_id")
    )
    outputs = {
        pk: Output(item=items[item_id], system=systems[system_id], text=text)
        for pk, item_id, system_id, text, _ in old_outputs
    }
    Output.objects.bulk_create(outputs.values(), batch_size=2000)
    twins = []
    for pk, _, _, _, canonical_id in old_outputs:
        if canonical_id is not None and canonical_id in outputs:
            outputs[pk].canonical = outputs[canonical_id]
            twins.append(outputs[pk])
    Output.objects.bulk_update(twins, ["canonical"], batch_size=2000)
    criteria = []
    for criterion in campaign.criteria.order_by("position", "name"):
        copy = Criterion(
            **{
                f.attname: getattr(criterion, f.attname)
                for f in Criterion._meta.concrete_fields
                if f.name not in ("id", "campaign", "standard_output")
            },
            campaign=clone,
        )
        if criterion.standard_output_id in outputs:
            copy.standard_output = outputs[criterion.standard_output_id]
        criteria.append(copy)
    Criterion.objects.bulk_create(criteria)
    return clone


@transaction.atomic
def campaign_tasks_build(*, campaign: Campaign, seed: int | None = None) -> Any:
    """Build the task design (delegates to ``services.tasks.tasks_build``); drafts only."""
    if campaign.status != Campaign.Status.DRAFT:
        raise DomainError("Tasks can be built only while the campaign is a draft.")
    if not campaign.criteria.exists():
        raise DomainError("Add at least one criterion before building tasks.")
    if not campaign.systems.exists():
        raise DomainError("Upload system outputs before building tasks.")
    campaign_settings_check(campaign=campaign)
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
        raise DomainError("Name: a criterion needs a name (or a preset).")
    if campaign.criteria.filter(name=name).exists():
        raise DomainError(f"Name: the campaign already has a criterion '{name}'.")
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
        raise DomainError(f"Name: the campaign already has a criterion '{fields['name']}'.")
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
        raise DomainError("Scale settings must be a JSON object.")
    if criterion.scale == Criterion.Scale.MAGNITUDE:
        standard = settings.get("standard", 100)
        if not isinstance(standard, int | float) or standard <= 0:
            raise DomainError("The standard's value must be a positive number.")
    if criterion.scale == Criterion.Scale.LIKERT:
        levels = settings.get("levels")
        if not isinstance(levels, list) or len(levels) < 2:
            raise DomainError("A Likert scale needs at least two levels.")
        for i, level in enumerate(levels, start=1):
            if not isinstance(level, dict) or not isinstance(level.get("value"), int):
                raise DomainError(f"Likert level {i}: each level needs a whole-number value.")


# Members ----------------------------------------------------------------------------------


@transaction.atomic
def membership_set(*, campaign: Campaign, username: str, role: str) -> CampaignMembership:
    """Give a user a role in the campaign (creating or changing their membership)."""
    if role not in CampaignMembership.Role.values:
        raise DomainError(f"Role: choose one of {', '.join(CampaignMembership.Role.values)}.")
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise DomainError(f"There is no user '{username}'.")
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
    *,
    worker: Worker,
    flagged: bool | None = None,
    excluded: bool | None = None,
    reason: str | None = None,
) -> Worker:
    """Flag a worker for review and/or exclude them from rankings.

    Their judgements stay stored; rankings run with ``exclude_flagged`` leave out
    excluded workers. ``reason`` is kept with an exclusion (``Worker.exclusion_reason``)
    and cleared when the worker is included again.
    """
    fields = []
    if flagged is not None and worker.flagged != flagged:
        worker.flagged = flagged
        fields.append("flagged")
    if excluded is not None and worker.excluded != excluded:
        worker.excluded = excluded
        fields.append("excluded")
    wanted = (reason or "").strip() if worker.excluded else ""
    if (excluded is not None or reason is not None) and worker.exclusion_reason != wanted:
        worker.exclusion_reason = wanted
        fields.append("exclusion_reason")
    if fields:
        worker.save(update_fields=fields)
    return worker


def worker_exclude(*, worker: Worker, reason: str) -> Worker:
    """Exclude a worker from rankings, saying why (the reason is required and kept)."""
    if not reason.strip():
        raise DomainError("Say why this worker is excluded (e.g. 'failed 3 of 4 checks').")
    if len(reason) > 500:
        raise DomainError("Keep the reason under 500 characters.")
    return worker_mark(worker=worker, excluded=True, reason=reason)


def worker_include(*, worker: Worker) -> Worker:
    """Undo an exclusion: the worker's judgements count again; the reason is cleared."""
    return worker_mark(worker=worker, excluded=False)


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
    if campaign.status in (Campaign.Status.CLOSED, Campaign.Status.ARCHIVED):
        raise DomainError(
            f"A {campaign.get_status_display().lower()} campaign takes no new outputs."
        )
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
