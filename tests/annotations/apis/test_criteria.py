"""The criteria API (annotations/apis/criteria.py) refuses another campaign's output as the standard."""

from __future__ import annotations

import pytest

from tests.annotations.designer_data import judged_campaign

pytestmark = pytest.mark.django_db


def test_an_output_of_another_campaign_is_refused_as_the_standard(people, owner_api):
    mine = judged_campaign(owner=people["owner"], slug="mine", n_items=1, n_workers=1)
    other = judged_campaign(owner=people["outsider"], slug="other", n_items=1, n_workers=1)
    client = owner_api
    foreign = other.items.get().outputs.first()
    assert foreign is not None
    created = client.post(
        f"/api/campaigns/{mine.slug}/criteria/",
        {"preset": "naturalness", "standard_output": foreign.pk},
        format="json",
    )
    assert created.status_code == 400
    assert "Choose the standard among this campaign" in created.text
    assert list(created.json()["fields"]) == ["standard_output"]
    assert not mine.criteria.filter(name="naturalness").exists()


def _level(value, label="a"):
    return {"value": value, "label": label}


JUNK_SETTINGS = [
    ("magnitude", {"max_digits": "abc"}, "max_digits must be a whole number"),
    ("magnitude", {"max_digits": -3}, "max_digits must be a whole number"),
    ("magnitude", {"max_digits": 10**8}, "max_digits must be a whole number"),
    ("magnitude", {"standard": 0.5}, "standard's value must be a whole number"),
    ("magnitude", {"standard": 1e308}, "standard's value must be a whole number"),
    ("magnitude", {"standard": True}, "standard's value must be a whole number"),
    ("magnitude", {"standard": 100, "junk": {"a": 1}}, "not junk"),
    ("likert", {"levels": [_level(1), _level(10**20)]}, "value must be"),
    ("likert", {"levels": [_level(True), _level(2)]}, "whole-number value"),
    ("likert", {"levels": [_level(1), _level(2, {"nested": ["junk"]})]}, "label must be text"),
    ("likert", {"levels": [_level(1), {**_level(2), "x": 1}]}, "not 'x'"),
    ("slider", {"min": "x"}, "take nothing, not min"),
    ("magnitude", [1, 2], "must be a JSON object"),
    ("likert", {"levels": "1-5"}, "levels"),
]


@pytest.mark.parametrize(("scale", "given", "said"), JUNK_SETTINGS)
def test_scale_settings_the_pages_cannot_read_are_refused(people, owner_api, scale, given, said):
    """Junk settings were stored (201), then broke every worker page of the criterion
    (``int('abc')``), overflowed the means and the datasheet, or showed a JSON object as
    a level's label."""
    mine = judged_campaign(owner=people["owner"], slug="mine", n_items=1, n_workers=1)
    created = owner_api.post(
        f"/api/campaigns/{mine.slug}/criteria/",
        {"name": "junk", "scale": scale, "question": "q", "scale_settings": given},
        format="json",
    )
    assert created.status_code == 400, created.content
    assert said in created.json()["detail"]
    # placed beside the setting (the levels have a field of their own on the form)
    assert list(created.json()["fields"]) in (["scale_settings"], ["levels"]), created.json()
    assert not mine.criteria.filter(name="junk").exists()


def test_sane_scale_settings_still_pass(people, owner_api):
    mine = judged_campaign(owner=people["owner"], slug="mine", n_items=1, n_workers=1)
    for name, scale, given in (
        ("mag", "magnitude", {"standard": 50, "max_digits": 4}),
        ("lik", "likert", {"levels": [_level(1, "bad"), {**_level(2, "good"), "descriptor": "d"}]}),
        ("sli", "slider", {}),
    ):
        created = owner_api.post(
            f"/api/campaigns/{mine.slug}/criteria/",
            {"name": name, "scale": scale, "question": "q", "scale_settings": given},
            format="json",
        )
        assert created.status_code == 201, created.content
