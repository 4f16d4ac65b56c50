"""The settings page (annotations/views/settings.py): saved, then fixed once tasks are built."""

from __future__ import annotations

from django.urls import reverse

from tests.annotations.designer_data import judged_campaign


def test_design_settings_save_and_lock_after_tasks(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    url = reverse("annotations:designer-settings", args=[campaign.slug])
    page = owner_client.get(url)
    form = page.context["form"]
    # Tasks exist: the design fields are read-only text, not inputs that would be ignored.
    html = page.content.decode()
    assert 'name="judgements_per_task"' not in html and 'name="outputs_per_task"' not in html
    assert 'name="instructions"' in html and "(fixed)" in html
    data = {
        k: v
        for k, v in form.initial.items()
        if v is not None and v is not False and not form.fields[k].disabled
    }
    data.update({"instructions": "Read carefully.", "judgements_per_task": 5})
    response = owner_client.post(url, data)
    # A fixed setting posted anyway is refused out loud, not dropped.
    assert response.status_code == 200
    assert "can no longer change: judgements per task" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.judgements_per_task == 3 and campaign.instructions == ""
    del data["judgements_per_task"]
    assert owner_client.post(url, data).status_code == 302
    campaign.refresh_from_db()
    assert campaign.instructions == "Read carefully."
