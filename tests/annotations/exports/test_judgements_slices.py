"""Exports of a slice, from the command, the page and the API."""

from __future__ import annotations

import json

import pytest

from annotations.models import Item

pytestmark = pytest.mark.django_db


def test_exports_of_a_slice_from_the_command_the_page_and_the_api(client, capsys) -> None:
    from django.core.management import CommandError, call_command
    from rest_framework.test import APIClient

    from annotations.models import CampaignMembership
    from tests.annotations.designer_data import users
    from tests.annotations.experts_data import experts_campaign

    campaign, _criterion = experts_campaign()
    Item.objects.filter(campaign=campaign, external_id__in=["i0", "i1"]).update(
        attributes={"challenge_set": "scramble"}
    )
    call_command(
        "export_judgements",
        campaign.slug,
        "-c",
        "quality",
        "-f",
        "jsonl",
        "--where",
        "challenge_set=scramble",
    )
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 8 and {json.loads(x)["item_id"] for x in lines} == {"i0", "i1"}
    with pytest.raises(CommandError, match="write attribute=value"):
        call_command("export_judgements", campaign.slug, "-c", "quality", "--where", "nope")

    viewer = users()["viewer"]
    CampaignMembership.objects.create(campaign=campaign, user=viewer, role="viewer")
    client.force_login(viewer)
    url = f"/campaigns/{campaign.slug}/export/?criterion=quality&format=jsonl"
    page = b"".join(client.get(url + "&where=challenge_set=scramble").streaming_content)
    assert len(page.splitlines()) == 8
    assert client.get(url + "&where=Bad=1").status_code == 400

    api = APIClient()
    api.force_authenticate(viewer)
    base = f"/api/campaigns/{campaign.slug}/export/"
    response = api.get(
        base, {"criterion": "quality", "fmt": "jsonl", "where": "challenge_set=scramble"}
    )
    assert len(response.getvalue().splitlines()) == 8
    bad = api.get(base, {"criterion": "quality", "where": "challenge_set"})
    assert bad.status_code == 400 and "where" in str(bad.json())
