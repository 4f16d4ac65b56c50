"""What the ratings import page says of a release: the aggregate worker, one to ten
outputs a row, a constant system."""

from __future__ import annotations

import pytest

from tests.annotations.importing.conftest import write_csv
from tests.annotations.importing.releases import HANNA_LIKE, ROWS

pytestmark = pytest.mark.django_db


def test_the_import_page_says_when_judgements_were_given_the_aggregate_worker(tmp_path):
    from django.contrib.auth.models import User
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    from annotations.services.campaigns import campaign_create

    owner = User.objects.create(username="owner")
    campaign_create(slug="agg", name="Aggregated", owner=owner)
    client = Client()
    client.force_login(owner)
    data = {
        "format": "csv",
        "item": "item",
        "slots": "1",
        "first": "1",
        "system": "system",
        "output": "output",
        "criteria": "fluency: score",
        "action": "import",
        "file": SimpleUploadedFile("a.csv", write_csv(tmp_path / "a.csv", ROWS).read_bytes()),
    }
    response = client.post("/campaigns/agg/ratings/import/", data, follow=True)
    assert response.status_code == 200
    assert "no worker column" in response.content.decode()


def test_the_import_page_says_one_to_ten_outputs_per_row():
    from django.contrib.auth.models import User
    from django.test import Client

    from annotations.services.campaigns import campaign_create

    owner = User.objects.create(username="owner")
    campaign_create(slug="k", name="k", owner=owner)
    client = Client()
    client.force_login(owner)
    html = client.get("/campaigns/k/ratings/import/").content.decode()
    assert "k outputs (1 to 10) per row" in html and "2 to 10" not in html
    assert "1-10" in html  # the Slots field says the same


def test_the_import_page_takes_a_constant_system(tmp_path):
    from django.contrib.auth.models import User
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    from annotations.services.campaigns import campaign_create

    owner = User.objects.create(username="owner")
    campaign = campaign_create(slug="hanna", name="HANNA", owner=owner)
    client = Client()
    client.force_login(owner)
    data = {
        "format": "csv",
        "worker": "worker",
        "item": "story_id",
        "output": "story",
        "slots": "1",
        "first": "1",
        "system": "",
        "system_value": "explainer",
        "criteria": "relevance: relevance",
        "action": "import",
        "file": SimpleUploadedFile("h.csv", write_csv(tmp_path / "h.csv", HANNA_LIKE).read_bytes()),
    }
    response = client.post("/campaigns/hanna/ratings/import/", data)
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert set(campaign.systems.values_list("label", flat=True)) == {"explainer"}
