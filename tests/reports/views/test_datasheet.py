"""The datasheet page (reports/views/datasheet.py): a form that saves without
JavaScript; viewers read."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from reports.models import Datasheet

pytestmark = pytest.mark.django_db


def test_page_shows_form_and_saves_without_js(client, campaign):
    client.force_login(campaign.owner)
    url = f"/campaigns/{campaign.slug}/datasheet/"
    page = client.get(url)
    assert page.status_code == 200
    assert b'name="a:5.1"' in page.content and b"How good is it?" in page.content
    # Platform-answered: a person may replace the answer (the field is behind a disclosure).
    html = page.content.decode()
    assert "Replace the platform's answer" in html.split('name="a:4.3.7@quality"')[0][-400:]
    # An open question says once that a person answers it (the box's label said it again).
    open_entry = html.split('name="a:5.1"')[0].rsplit("<dt", 1)[1]
    assert open_entry.count("To be answered by a person") == 1
    resp = client.post(url, {"a:5.1": "Approved."})
    assert resp.status_code == 302
    assert Datasheet.objects.get(campaign=campaign).answers == {"5.1": "Approved."}
    bad = client.post(url, {"a:9.9": "x"})
    assert bad.status_code == 400 and b"9.9" in bad.content
    dl = client.get(url + "latex/")
    assert dl.status_code == 200 and b"\\section*" in dl.content
    assert client.get(url + "pdf/").status_code == 404


def test_viewer_reads_but_cannot_save(client, campaign):
    from annotations.models import CampaignMembership

    viewer = User.objects.create_user("viewer", password="pw")
    CampaignMembership.objects.create(campaign=campaign, user=viewer, role="viewer")
    client.force_login(viewer)
    url = f"/campaigns/{campaign.slug}/datasheet/"
    assert client.get(url).status_code == 200
    assert client.post(url, {"a:5.1": "x"}).status_code == 403
    stranger = User.objects.create_user("stranger", password="pw")
    client.force_login(stranger)
    assert client.get(url).status_code == 404
