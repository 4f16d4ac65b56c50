"""The monitor's claims about the data: every sentence the monitor can show about the
data appears where the data support it and nowhere else (a fixture for each case)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.models import Assignment, WorkerCheck
from annotations.selectors import agreement as agreement_selectors
from annotations.services.quality import worker_quality_update
from tests.annotations.designer_data import judged_campaign, users
from tests.factories import CampaignFactory, CriterionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(db):
    return users()


def _monitor(client, people, campaign) -> str:
    client.force_login(people["owner"])
    return client.get(
        reverse("annotations:designer-monitor", args=[campaign.slug])
    ).content.decode()


def _agreement(
    score: float | None, preference: float | None
) -> agreement_selectors.CriterionAgreement:
    return agreement_selectors.CriterionAgreement(
        criterion=None,  # type: ignore[arg-type]
        judgements=10,
        workers=3,
        preference_alpha=preference,
        score_alpha=score,
    )


def test_no_claim_about_scores_and_preferences_that_the_data_can_refute(client, people):
    campaign = judged_campaign(owner=people["owner"])
    html = _monitor(client, people, campaign)
    assert "stays lower than on preferences" not in html
    (agreement,) = agreement_selectors.campaign_agreement(campaign=campaign)
    assert agreement.score_alpha is not None and agreement.preference_alpha is not None
    scores, prefs = round(agreement.score_alpha, 3), round(agreement.preference_alpha, 3)
    relation = "lower than" if scores < prefs else "higher than" if scores > prefs else "equal to"
    assert (
        f"quality: α on scores ({scores:.3f}) is {relation} α on preferences ({prefs:.3f})."  # noqa: RUF001
        in html
    )


def test_the_comparison_says_what_these_numbers_say():
    assert "is higher than α on preferences" in _agreement(0.6, 0.4).scores_versus_preferences  # noqa: RUF001
    assert "is lower than α on preferences" in _agreement(0.2, 0.4).scores_versus_preferences  # noqa: RUF001
    assert "is equal to" in _agreement(0.4, 0.4).scores_versus_preferences
    assert _agreement(None, 0.4).scores_versus_preferences == ""
    assert _agreement(0.4, None).scores_versus_preferences == ""


def test_no_comparison_without_judgements(client, people):
    campaign = CampaignFactory(owner=people["owner"])
    CriterionFactory(campaign=campaign, name="quality")
    html = _monitor(client, people, campaign)
    assert "data-alpha-comparison" not in html
    assert "stays lower" not in html


def test_the_quality_reason_shows_for_a_worker_below_the_threshold_only(client, people):
    campaign = judged_campaign(owner=people["owner"])
    below, fine = (
        campaign.workers.get(external_id="PID0000"),
        campaign.workers.get(external_id="PID0001"),
    )
    for worker, passed in ((below, False), (fine, True)):
        assignment = Assignment.objects.filter(worker=worker).first()
        assert assignment is not None
        WorkerCheck.objects.create(
            worker=worker, assignment=assignment, kind="attention", passed=passed
        )
        worker_quality_update(worker=worker)
    html = _monitor(client, people, campaign)
    row = {
        w.pk: html.split(f'id="worker-{w.pk}"', 1)[1].split("</tr>", 1)[0] for w in (below, fine)
    }
    assert (
        "data-below-threshold" in row[below.pk]
        and "Passed 0 of 1 attention check" in (row[below.pk])
    )
    assert "data-below-threshold" not in row[fine.pk]


def test_an_undefined_alpha_is_a_dash_not_a_number(client, people):
    # One worker: no two judgements share a task, so no alpha is defined.
    campaign = judged_campaign(owner=people["owner"], n_workers=1)
    (agreement,) = agreement_selectors.campaign_agreement(campaign=campaign)
    assert agreement.preference_alpha is None and agreement.score_alpha is None
    html = _monitor(client, people, campaign)
    table = html.split('id="h-agree"', 1)[1].split("</table>", 1)[0]
    row = table.split("<tbody>", 1)[1]
    assert row.count("—") >= 2 and "0.000" not in row
    assert "data-alpha-comparison" not in html
