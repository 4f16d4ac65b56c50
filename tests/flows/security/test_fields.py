"""The hostile fixture keeps up with the product: every text or JSON field of every model
is either filled with hostile values by ``tests.flows.security.hostile`` or listed there as not
supplied by anyone (with why). A new field fails here until it is one or the other."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import models

from tests.flows.security.hostile import HOSTILE_FIELDS, NOT_SUPPLIED, hostile_world

MARKERS = ("<script>", "<img ", "<meta ", "javascript:", "\\input{")


def _text_fields() -> dict[str, models.Field]:
    found = {}
    for app in ("annotations", "ranking", "reports", "auth"):
        for model in apps.get_app_config(app).get_models():
            for field in model._meta.concrete_fields:
                text = isinstance(field, models.CharField | models.TextField | models.JSONField)
                if text and not field.choices:
                    found[f"{app}.{model.__name__}.{field.name}"] = field
    return found


def test_every_text_field_is_hostile_in_the_fixture_or_said_not_supplied():
    fields = set(_text_fields())
    unknown = fields - HOSTILE_FIELDS - set(NOT_SUPPLIED)
    assert not unknown, (
        "Give these fields hostile values in tests/flows/security/hostile.py and add them to "
        f"HOSTILE_FIELDS (or, if nobody supplies them, to NOT_SUPPLIED with why): {sorted(unknown)}"
    )
    stale = (HOSTILE_FIELDS | set(NOT_SUPPLIED)) - fields
    assert not stale, f"No such fields any more: {sorted(stale)}"


@pytest.mark.django_db
def test_the_fixture_fills_every_hostile_field():
    hostile_world()
    fields = _text_fields()
    empty = []
    for key in sorted(HOSTILE_FIELDS):
        field = fields[key]
        values = field.model._default_manager.values_list(field.name, flat=True)
        if not any(marker in str(value) for value in values for marker in MARKERS):
            empty.append(key)
    assert not empty, f"The fixture holds no hostile value in: {empty}"
