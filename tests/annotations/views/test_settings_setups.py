"""The set-up in the design form (``annotations.views.settings``): chosen there, fixed once
tasks are built."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.services.tasks import tasks_build
from tests.annotations.setups_data import signed_in_owner

pytestmark = pytest.mark.django_db


def test_designer_chooses_the_set_up_in_the_design_form_and_it_is_fixed_once_built(client):
    client, campaign = signed_in_owner(client)
    url = reverse("annotations:designer-settings", args=[campaign.slug])
    form = client.get(url).context["form"]
    assert "setup" in form.fields
    data = {
        name: value
        for name, value in form.initial.items()
        if name in form.fields and value is not None and value is not False
    }
    data.update(setup="together", outputs_per_task=3)
    response = client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    campaign.refresh_from_db()
    assert campaign.setup == "together"
    tasks_build(campaign=campaign, seed=0)
    page = client.get(url)
    assert page.context["form"].fields["setup"].disabled  # shown, not editable
    data["setup"] = "separate"
    client.post(url, data)
    campaign.refresh_from_db()
    assert campaign.setup == "together"


def test_the_settings_page_says_workers_see_the_name_and_description(client):
    """The walk-through: an internal name was shown to workers as the page title."""
    client, campaign = signed_in_owner(client)
    html = client.get(reverse("annotations:designer-settings", args=[campaign.slug])).text
    assert "Workers see the name and the description" in html
