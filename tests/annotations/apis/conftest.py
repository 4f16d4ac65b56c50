"""Fixtures shared by the API tests: API clients signed in as a user (the campaign
owner's, or anyone's), a judged campaign and a designer's API client."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.annotations.designer_data import judged_world


@pytest.fixture
def world():
    return judged_world()


@pytest.fixture
def designer_api(world, api_as):
    people, campaign, run = world
    return api_as(people["designer"]), campaign, run


@pytest.fixture
def api_as() -> Callable[[User], APIClient]:
    """``api_as(user)``: an API client signed in as ``user``."""

    def signed_in(user: User) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client

    return signed_in


@pytest.fixture
def owner_api(api_as, people) -> APIClient:
    """An API client signed in as ``people["owner"]``, the owner of the campaigns the
    tests make with ``owner=people["owner"]``."""
    return api_as(people["owner"])
