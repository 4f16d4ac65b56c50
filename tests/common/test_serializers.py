"""The API's request bodies (``common.serializers``): every name a body carries is a
field of its request, for every API that reads one."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from rest_framework import serializers

from common.serializers import KnownFieldsOnly

ROOT = Path(__file__).resolve().parents[2]
#: DRF's own login serializer (username and password) is not ours to change.
NOT_OURS = {"AuthTokenSerializer"}


def _bodies() -> list[tuple[str, str]]:
    """(API module, serializer class) for every ``X(..., data=request.data ...)``."""
    found = []
    for path in sorted([*ROOT.glob("*/apis/*.py")]):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for name in re.findall(r"(\w+)\((?:[\w.]+, )?data=request\.data", path.read_text()):
            if name not in NOT_OURS:
                found.append((module, name))
    return found


def test_the_scan_finds_the_apis_bodies() -> None:
    names = {name for _, name in _bodies()}
    assert {"CampaignUpdateSerializer", "RankingRunSerializer", "MappingSerializer"} <= names


@pytest.mark.parametrize(("module", "name"), _bodies())
def test_every_request_body_refuses_names_it_does_not_have(module: str, name: str) -> None:
    cls = getattr(importlib.import_module(module), name)
    assert issubclass(cls, KnownFieldsOnly), f"{module}.{name} drops unknown names"


class _Body(KnownFieldsOnly):
    count = serializers.IntegerField()
    made = serializers.CharField(read_only=True)


def test_an_unknown_name_is_refused_under_its_own_name() -> None:
    body = _Body(data={"count": 2, "cuont": 3, "made": "x", "csrfmiddlewaretoken": "t"})
    assert not body.is_valid()
    assert list(body.errors) == ["cuont"]
    assert "it takes count." in str(body.errors["cuont"][0])
    assert _Body(data={"count": 2, "made": "sent back"}).is_valid()
