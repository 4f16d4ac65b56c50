"""The experts page and its CSV show the ranking with and without the excluded, and why an alpha is missing."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from annotations.exports.experts import expert_report_csv
from annotations.models import CampaignMembership, Judgement, Worker
from annotations.selectors.experts import expert_report
from tests.annotations.designer_data import users
from tests.annotations.experts_data import experts_campaign

pytestmark = pytest.mark.django_db


def test_the_page_shows_the_ranking_with_and_without_the_excluded(client):
    people = users()
    campaign, _criterion = experts_campaign()
    CampaignMembership.objects.create(
        campaign=campaign, user=people["viewer"], role=CampaignMembership.Role.VIEWER
    )
    client.force_login(people["viewer"])
    url = reverse("annotations:designer-experts", args=[campaign.slug])
    assert "ranking-agreement-with-excluded" not in client.get(url).content.decode()
    Worker.objects.filter(external_id="careful").update(excluded=True)
    page = client.get(url).content.decode()
    assert "the 1 excluded crowd worker left out" in page
    assert 'id="ranking-agreement-with-excluded"' in page
    with_excluded = page.split('id="ranking-agreement-with-excluded"', 1)[1].split("</p>")[0]
    assert "Spearman ρ <strong>1.000</strong>" in with_excluded  # noqa: RUF001


def test_the_page_and_csv_say_why_an_alpha_is_missing(client):
    people = users()
    campaign, criterion = experts_campaign()
    CampaignMembership.objects.create(
        campaign=campaign, user=people["viewer"], role=CampaignMembership.Role.VIEWER
    )
    # The careless worker keeps a single judgement (5 outputs of one item): alpha has a
    # value but no interval over items.
    careless = Judgement.objects.filter(worker__external_id="careless").order_by("pk")
    Judgement.objects.filter(pk__in=list(careless.values_list("pk", flat=True)[1:])).delete()
    report = expert_report(criterion=criterion, resamples=50)
    alpha = next(r.alpha for r in report.workers if r.worker.external_id == "careless")
    assert alpha.defined and not alpha.interval_defined
    client.force_login(people["viewer"])
    page = client.get(reverse("annotations:designer-experts", args=[campaign.slug])).content
    row = page.decode().split("<code>careless</code>", 1)[1].split("</tr>", 1)[0]
    assert "[0.000, 0.000]" not in row and "resampling items cannot vary it" in row
    rows = list(csv.DictReader(io.StringIO(expert_report_csv(report))))
    mine = next(r for r in rows if r["worker"] == "careless")
    assert (mine["ci_low"], mine["ci_high"]) == ("", "")
    assert mine["note"].startswith("no interval: every shared output is from one item")
