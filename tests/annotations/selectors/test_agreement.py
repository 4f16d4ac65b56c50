"""Agreement among workers (annotations/selectors/agreement.py): scores compared as
the scale reads them, per slice, and without excluded workers."""

from __future__ import annotations

import math

import krippendorff
import numpy as np
import pytest

from annotations.models import Criterion, JudgementScore
from annotations.selectors.agreement import criterion_agreement
from tests.annotations.designer_data import judged_campaign

pytestmark = pytest.mark.django_db


def _score_matrix(criterion, transform):
    """Workers x (task, output) units, as the krippendorff package wants them."""
    rows = JudgementScore.objects.filter(
        judgement__criterion=criterion, role="regular"
    ).values_list("judgement__worker_id", "judgement__task_id", "output_id", "score")
    workers = sorted({r[0] for r in rows})
    units = sorted({(r[1], r[2]) for r in rows})
    matrix = np.full((len(workers), len(units)), np.nan)
    for worker, task, output, score in rows:
        matrix[workers.index(worker), units.index((task, output))] = transform(score)
    return matrix


def test_magnitude_scores_agree_as_logarithms_so_one_huge_number_does_not_swamp_alpha():
    campaign = judged_campaign(n_items=4, n_workers=3)
    criterion = campaign.criteria.get(name="quality")
    # One worker types scores a thousand times larger in one judgement: the same ratios.
    judgement = criterion.judgements.order_by("id").first()
    assert judgement is not None
    for score in judgement.scores.all():
        score.score *= 1000
        score.save(update_fields=["score"])
    ours = criterion_agreement(criterion=criterion)
    expected = krippendorff.alpha(
        reliability_data=_score_matrix(criterion, lambda s: math.log(max(s, 1.0))),
        level_of_measurement="interval",
    )
    raw = krippendorff.alpha(
        reliability_data=_score_matrix(criterion, float), level_of_measurement="interval"
    )
    assert ours.score_alpha is not None
    assert ours.score_alpha == pytest.approx(expected, abs=1e-9)
    assert raw < ours.score_alpha


def test_slider_scores_are_compared_as_they_are():
    campaign = judged_campaign(n_items=3, n_workers=3)
    criterion = campaign.criteria.get(name="quality")
    Criterion.objects.filter(pk=criterion.pk).update(scale=Criterion.Scale.SLIDER)
    criterion.refresh_from_db()
    expected = krippendorff.alpha(
        reliability_data=_score_matrix(criterion, float), level_of_measurement="interval"
    )
    assert criterion_agreement(criterion=criterion).score_alpha == pytest.approx(expected, abs=1e-9)


def test_agreement_by_slice_is_the_agreement_of_the_slices_judgements(client):
    from annotations.models import CampaignMembership, Item
    from annotations.selectors.agreement import agreement_by_slice
    from annotations.selectors.monitor import campaign_judgements
    from tests.annotations.designer_data import users

    campaign = judged_campaign(n_items=4, n_workers=3)
    Item.objects.filter(campaign=campaign, position__lt=2).update(attributes={"set": "a"})
    Item.objects.filter(campaign=campaign, position__gte=2).update(attributes={"set": "b"})
    judgements = campaign_judgements(campaign=campaign)
    slices = agreement_by_slice(campaign=campaign, judgements=judgements)
    assert [(s.attribute, s.value) for s in slices] == [("set", "a"), ("set", "b")]
    criterion = campaign.criteria.get(name="quality")
    a_items = set(Item.objects.filter(attributes__set="a").values_list("id", flat=True))
    alone = criterion_agreement(
        criterion=criterion,
        judgements={k: j for k, j in judgements.items() if j["item"] in a_items},
    )
    assert slices[0].agreement[0] == alone
    assert alone.judgements == 6  # two items judged by three workers
    # Shown on the monitor beside the whole campaign's.
    viewer = users()["viewer"]
    CampaignMembership.objects.create(campaign=campaign, user=viewer, role="viewer")
    client.force_login(viewer)
    page = client.get(f"/campaigns/{campaign.slug}/monitor/").content.decode()
    assert "By slice of the items" in page and "<code>set=b</code>" in page
    # No attributes: no slices.
    Item.objects.filter(campaign=campaign).update(attributes={})
    assert agreement_by_slice(campaign=campaign) == []


# -- agreement rests on the judgements the ranking uses ----------------------------------


def test_agreement_leaves_excluded_workers_out_as_the_ranking_does(client):
    """Review: the monitor and datasheet 4.3.11 counted an excluded (random) worker
    while 4.3.9 said the ranking left them out. Agreement now leaves them out too and
    says how many judgements that is, on the monitor, in the API and the datasheet."""
    from django.contrib.auth.models import User
    from rest_framework.test import APIClient

    from annotations.models import Worker
    from reports.selectors.datasheet import datasheet_for

    campaign = judged_campaign(n_items=3, n_workers=3)
    criterion = campaign.criteria.get(name="quality")
    everyone = criterion_agreement(criterion=criterion)
    assert (everyone.excluded_judgements, everyone.excluded_workers) == (0, 0)
    owner = User.objects.create_user("agreement-owner")
    campaign.owner = owner
    campaign.save(update_fields=["owner"])
    client.force_login(owner)
    page = client.get(f"/campaigns/{campaign.slug}/monitor/").content.decode()
    assert "left out of agreement" in page and "excluded worker left out" not in page
    sheet = {e.key: e for e in datasheet_for(campaign=campaign).entries}
    assert "excluded workers left out" not in sheet["4.3.11@quality"].platform_answer

    odd = campaign.workers.order_by("external_id").first()
    assert odd is not None
    Worker.objects.filter(pk=odd.pk).update(excluded=True)
    theirs = criterion.judgements.filter(worker=odd).count()
    without = criterion_agreement(criterion=criterion)
    assert (without.excluded_judgements, without.excluded_workers) == (theirs, 1)
    assert without.judgements == everyone.judgements - theirs
    assert without.workers == everyone.workers - 1
    # Oracle: alpha over the other workers' scores alone.
    rows = JudgementScore.objects.filter(judgement__criterion=criterion, role="regular").exclude(
        judgement__worker=odd
    )
    workers = sorted({w for w in rows.values_list("judgement__worker_id", flat=True)})
    units = sorted(set(rows.values_list("judgement__task_id", "output_id")))
    matrix = np.full((len(workers), len(units)), np.nan)
    for worker, task, output, score in rows.values_list(
        "judgement__worker_id", "judgement__task_id", "output_id", "score"
    ):
        matrix[workers.index(worker), units.index((task, output))] = math.log(max(score, 1.0))
    expected = krippendorff.alpha(reliability_data=matrix, level_of_measurement="interval")
    assert without.score_alpha == pytest.approx(expected, abs=1e-9)

    page = client.get(f"/campaigns/{campaign.slug}/monitor/").content.decode()
    assert f"quality: {theirs} judgement{'s' if theirs != 1 else ''} by 1 excluded worker " in page
    api = APIClient()
    api.force_authenticate(owner)
    progress = api.get(f"/api/campaigns/{campaign.slug}/progress/").json()
    (entry,) = [a for a in progress["agreement"] if a["criterion"] == "quality"]
    assert (entry["excluded_judgements"], entry["excluded_workers"]) == (theirs, 1)
    assert entry["judgements"] == without.judgements
    answer = {e.key: e for e in datasheet_for(campaign=campaign).entries}
    text = answer["4.3.11@quality"].platform_answer
    assert text.startswith(f"Yes, on {without.judgements} judgements by {without.workers} ")
    assert f"the {theirs} judgements of 1 excluded workers left out" in text
