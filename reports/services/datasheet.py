"""Saving the designer's answers to the evaluation datasheet (``Datasheet.answers``)."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction

from annotations.models import Campaign
from common.errors import DomainError
from reports.models import Datasheet
from reports.selectors.datasheet import datasheet_keys

MAX_ANSWER = 5000


@transaction.atomic
def datasheet_answers_update(
    *,
    campaign: Campaign,
    answers: Mapping[str, object],
    user: AbstractBaseUser | AnonymousUser | None = None,
) -> Datasheet:
    """Store answers keyed by HEDS question key (``3.2.5``, ``4.1.1@quality``); an empty
    answer removes the key. Every key and value is checked before anything is written:
    an unknown key, a non-text value or one over 5000 characters raises ``DomainError``
    naming the field. Locks the datasheet row."""
    known = datasheet_keys(campaign=campaign)
    cleaned: dict[str, str] = {}
    for key, value in answers.items():
        if key not in known:
            raise DomainError(f"Field '{key}': no such datasheet question in this campaign.")
        if not isinstance(value, str):
            raise DomainError(f"Field '{key}': the answer must be text.")
        if len(value) > MAX_ANSWER:
            raise DomainError(f"Field '{key}': at most {MAX_ANSWER} characters.")
        cleaned[key] = value.strip()
    Datasheet.objects.get_or_create(campaign=campaign)
    sheet = Datasheet.objects.select_for_update().get(campaign=campaign)
    stored = dict(sheet.answers or {})
    for key, value in cleaned.items():
        if value:
            stored[key] = value
        else:
            stored.pop(key, None)
    sheet.answers = stored
    sheet.updated_by = user if user is not None and user.is_authenticated else None  # type: ignore[assignment]
    sheet.save(update_fields=["answers", "updated_by", "updated_at"])
    return sheet
