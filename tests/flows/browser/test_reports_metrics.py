"""The metric-human correlation page in real Chromium at phone (390 px) and desktop
(1100 px) width: the table and the inline SVG scatter plot render, nothing overflows the
window but the table's own scroller, and no CSP violation is reported.
Screenshots: artifacts/screenshots/reports-metrics-{390,1100}.png."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from reports.services.metrics import metric_scores_import
from tests.flows.browser.conftest import save_screenshot, settled_width
from tests.ranking.planted import planted_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [390, 1100])
def test_metrics_page_at_phone_and_desktop_width(new_page, live_server, width):
    owner = User.objects.create_user(f"mt-{width}", password="pw-mt")
    campaign, _ = planted_campaign(strengths=[90, 40, 0, -40, -90], n_judgements=30, seed=2, k=4)
    campaign.owner = owner
    campaign.save(update_fields=["owner"])
    lines = ["system,metric,score"] + [
        f"s{i},bleu_like,{0.5 - 0.07 * i + 0.03 * (i % 2)}" for i in range(5)
    ]
    metric_scores_import(campaign=campaign, data=("\n".join(lines) + "\n").encode(), file="m.csv")
    page = new_page(width=width)
    page.set_default_timeout(60_000)
    violations: list[str] = []
    page.on(
        "console",
        lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(owner.username)
    page.get_by_label("Password").fill("pw-mt")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state("load")
    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/metrics/")
    assert page.get_by_role("heading", name="Metric-human correlation").is_visible()
    assert page.locator("#metric-correlations tbody tr").count() == 1
    svg = page.locator("svg.scatter")
    assert svg.count() == 1 and svg.locator("circle").count() == 5
    box = svg.bounding_box()
    assert box is not None and box["width"] > 150 and box["width"] <= width
    assert settled_width(page, width) <= width
    assert page.get_by_label("Metric scores (CSV or JSONL)").is_visible()
    save_screenshot(page, f"reports-metrics-{width}")
    assert violations == []
