"""Model validation for the services: a model's own rules as a ``DomainError`` that names
each field as the pages name it."""

from __future__ import annotations

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models

from common.errors import NON_FIELD, FieldsRefused

# Settings as the settings page names them (for messages outside the form).
SETTING_NAMES: dict[str, str] = {
    "outputs_per_task": "Outputs per task",
    "judgements_per_task": "Judgements per task",
    "tasks_per_worker": "Tasks per worker",
    "assignment_timeout_minutes": "Time allowed for a task",
    "min_seconds_per_task": "Minimum seconds per task",
    "attention_check_rate": "Share of attention checks",
    "repeat_rate": "Share of repeated tasks",
    "quality_threshold": "Lowest attention-check pass rate",
    "accept_prolific": "Platforms",
}


def _full_clean(instance: models.Model) -> None:
    """``full_clean`` but uniqueness: a name taken is the services' own check's to say
    (in its words, with its field), and one taken between that check and the insert (two
    requests at once) is the database's (``common.queries.refused_when_taken``); here it
    would come out as Django's "... with this Campaign and Name already exists."."""
    errors: dict[str, list[ValidationError]] = {}
    try:
        instance.full_clean(exclude=None, validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        errors = exc.update_error_dict(errors)
    for constraint in instance._meta.constraints:
        if isinstance(constraint, models.UniqueConstraint):
            continue
        try:
            constraint.validate(type(instance), instance)
        except ValidationError as exc:
            errors = exc.update_error_dict(errors)
    if errors:
        raise ValidationError(errors)


def model_check(*, instance: models.Model) -> None:
    """Model validation as a refusal per field (``FieldsRefused``: the message names
    each field in words, its label, never the attribute or a constraint name: those are
    caught by the checks before this; the API and forms put each reason by its field)."""
    try:
        _full_clean(instance)
    except ValidationError as exc:
        problems: dict[str, str] = {}
        labels: dict[str, str] = {}
        for field, messages in exc.message_dict.items():
            text = " ".join(str(m) for m in messages)
            if field == "__all__":
                problems[NON_FIELD] = text
                continue
            try:
                model_field = instance._meta.get_field(field)
                label = str(getattr(model_field, "verbose_name", field.replace("_", " ")))
            except FieldDoesNotExist:
                label = field.replace("_", " ")
            labels[field] = SETTING_NAMES.get(field, label[:1].upper() + label[1:])
            problems[field] = text
        raise FieldsRefused(problems, labels=labels) from exc
