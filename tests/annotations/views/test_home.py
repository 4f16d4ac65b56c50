"""The home page (annotations/views/home.py) lists the user's campaigns only."""

from __future__ import annotations

from tests.annotations.designer_data import add_member, judged_campaign


def test_home_lists_only_the_users_campaigns(client, people):
    mine = judged_campaign(owner=people["owner"], slug="mine")
    judged_campaign(owner=people["outsider"], slug="theirs", n_items=1, n_workers=1)
    add_member(mine, people["viewer"], "viewer")
    assert "Sign in" in client.get("/").content.decode()
    client.force_login(people["viewer"])
    html = client.get("/").content.decode()
    assert "/campaigns/mine/" in html and "/campaigns/theirs/" not in html
    # Its sizes, each counted on its own (5 systems, 4 items, 1 criterion), not multiplied.
    assert '<td class="num">5</td><td class="num">4</td><td class="num">1</td>' in html
