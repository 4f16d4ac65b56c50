"""Ids in paths and query strings (common/converters.py, common.forms.whole_number): a
number past what a database integer holds, or a digit ``int`` cannot read ("²"), is an
unknown address or value, never a 500 (an outside review got OverflowError on SQLite,
DataError on PostgreSQL and ValueError from such ids)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from common.converters import whole_number
from tests.annotations.designer_data import judged_campaign

pytestmark = pytest.mark.django_db

HUGE = "9" * 20


@pytest.mark.parametrize(
    "path",
    [
        f"/w/demo/s/some-token/task/{HUGE}/",
        f"/w/demo/s/some-token/task/{HUGE}/draft/",
        f"/rankings/{HUGE}/",
    ],
)
def test_an_id_too_long_for_the_database_is_a_404(client, path) -> None:
    assert client.get(path).status_code == 404
    assert client.post(path).status_code == 404


def test_an_id_of_18_digits_is_still_a_path() -> None:
    """The longest id a path takes (it fits a 64-bit integer)."""
    url = reverse("annotations:worker-submit", args=["demo", "t", 10**17])
    assert url.endswith(f"/task/{10**17}/")


@pytest.fixture
def owner_client(client, django_user_model):
    owner = django_user_model.objects.create_user("owner", password="pw-long-enough-1")
    client.force_login(owner)
    client.owner = owner
    return client


@pytest.mark.parametrize("odd", ["²", "١٢", HUGE, "-1", "1.5", " 7"])
def test_query_strings_with_odd_numbers_are_read_as_none(owner_client, odd) -> None:
    campaign = judged_campaign(owner=owner_client.owner)
    preview = reverse("annotations:worker-preview", args=[campaign.slug])
    assert owner_client.get(preview, {"task": odd}).status_code == 200
    criteria = reverse("annotations:designer-criteria", args=[campaign.slug])
    assert owner_client.get(criteria, {"standard_output": odd}).status_code == 200


def test_whole_number_takes_ascii_digits_that_fit_a_database_integer() -> None:
    assert whole_number("42") == 42 and whole_number("0") == 0
    assert whole_number("9" * 18) == int("9" * 18)
    for odd in ("", None, "²", "١٢", "9" * 19, "-1", "+1", "1.5", " 7", "7 "):
        assert whole_number(odd) is None, odd
