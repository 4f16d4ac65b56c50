"""Fixtures shared by the API tests: a judged campaign and a designer's API client."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.annotations.designer_data import judged_world


@pytest.fixture
def world():
    return judged_world()


@pytest.fixture
def designer_api(world):
    people, campaign, run = world
    client = APIClient()
    client.force_authenticate(people["designer"])
    return client, campaign, run
