"""The demo campaign and the admin account."""

from __future__ import annotations

import stat
from collections import Counter, defaultdict

import numpy as np
import pytest
from django.contrib.auth import get_user_model

from annotations.core.scoring import ranks_from_scores
from annotations.models import (
    Assignment,
    Campaign,
    CampaignMembership,
    Judgement,
    JudgementScore,
    Output,
    Task,
    Worker,
)
from annotations.services.demo import (
    DEMO_NAME,
    DEMO_SLUG,
    admin_ensure,
    demo_campaign_adopt,
    demo_campaign_seed,
)
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def test_demo_campaign_is_live_with_data_tasks_and_simulated_judgements():
    seeded = demo_campaign_seed()
    campaign = seeded.campaign
    assert seeded.created
    assert (campaign.slug, campaign.name, campaign.status) == (DEMO_SLUG, DEMO_NAME, "live")
    assert "100" in campaign.instructions and "IP address" in campaign.consent_text
    assert list(campaign.criteria.values_list("name", "scale")) == [
        ("quality", "magnitude"),
        ("naturalness", "magnitude"),
    ]
    assert dict(campaign.systems.values_list("label", "name"))["polished"] == "Polished"
    assert (seeded.systems, seeded.items, seeded.outputs) == (6, 40, 240)
    # 6 systems in tasks of 5: 2 tasks per item and criterion, except on the item of the
    # RankME standard, whose output is not rated (5 systems left: 1 task per criterion).
    assert seeded.tasks == Task.objects.filter(campaign=campaign, kind="regular").count() == 158
    assert Output.objects.filter(item__campaign=campaign, canonical__isnull=False).exists()
    assert seeded.judgements == Judgement.objects.filter(task__campaign=campaign).count() == 192

    workers = Worker.objects.filter(campaign=campaign)
    assert workers.count() == 12
    assert all(w.platform == "imported" and w.metadata == {"simulated": True} for w in workers)
    assert set(Assignment.objects.filter(task__campaign=campaign).values_list("kind", "state")) == {
        ("imported", "submitted")
    }
    # Regular tasks stay open for real workers.
    assert not Assignment.objects.filter(task__kind="regular", task__campaign=campaign).exists()
    per_worker_item = Counter(
        Judgement.objects.filter(task__campaign=campaign).values_list(
            "worker_id", "criterion_id", "task__item_id"
        )
    )
    assert max(per_worker_item.values()) == 1
    per_task = Counter(
        Judgement.objects.filter(task__campaign=campaign).values_list("task_id", flat=True)
    )
    assert max(per_task.values()) <= 2


def test_simulated_ranks_follow_scores_and_better_systems_rank_higher():
    campaign = demo_campaign_seed().campaign
    by_judgement = defaultdict(list)
    for j, slot, score, rank, label in JudgementScore.objects.filter(
        judgement__task__campaign=campaign, judgement__criterion__name="quality"
    ).values_list("judgement_id", "slot", "score", "rank", "output__system__label"):
        by_judgement[j].append((slot, score, rank, label))
    ranks = defaultdict(list)
    for rows in by_judgement.values():
        rows.sort()
        assert [r[2] for r in rows] == ranks_from_scores([r[1] for r in rows])
        for _, score, rank, label in rows:
            assert score >= 1
            ranks[label].append(rank)
    mean = {label: np.mean(r) for label, r in ranks.items()}
    assert mean["polished"] < mean["clumsy"]
    assert min(mean, key=mean.__getitem__) == "polished"


def test_seeding_again_changes_nothing():
    first = demo_campaign_seed()
    counts = (Task.objects.count(), Judgement.objects.count(), Output.objects.count())
    again = demo_campaign_seed()
    assert not again.created
    assert again.campaign.pk == first.campaign.pk
    assert (Task.objects.count(), Judgement.objects.count(), Output.objects.count()) == counts
    assert (again.tasks, again.judgements) == (first.tasks, first.judgements)


def test_an_existing_demo_campaign_is_left_as_it_is():
    CampaignFactory(slug=DEMO_SLUG, name="Mine")
    seeded = demo_campaign_seed()
    assert not seeded.created and seeded.campaign.name == "Mine"
    assert (seeded.items, seeded.tasks) == (0, 0)


def test_admin_is_created_once_with_a_generated_password_kept_in_a_file(tmp_path):
    path = tmp_path / ".admin-password"
    account = admin_ensure(password_file=path)
    user = get_user_model().objects.get(username="admin")
    assert account.created and account.source == "file"
    assert user.is_superuser and user.is_staff and user.check_password(account.password)
    assert path.read_text().strip() == account.password
    assert stat.S_IMODE(path.stat().st_mode) == 0o600

    again = admin_ensure(password_file=path)
    assert not again.created and again.password == account.password
    assert get_user_model().objects.filter(username="admin").count() == 1

    user.set_password("changed-by-hand")
    user.save()
    assert admin_ensure(password_file=path).password is None


def test_admin_password_from_the_environment_wins(tmp_path):
    path = tmp_path / ".admin-password"
    account = admin_ensure(password_file=path, env_password="s3cret-one")
    assert account.password == "s3cret-one" and account.source == "environment"
    assert not path.exists()
    admin_ensure(password_file=path, env_password="s3cret-two")
    assert get_user_model().objects.get(username="admin").check_password("s3cret-two")


def test_admin_adopts_the_demo_campaign_only_when_it_has_no_owner(tmp_path):
    admin_ensure(password_file=tmp_path / "p")
    admin = get_user_model().objects.get(username="admin")
    assert demo_campaign_adopt(user=admin) is None  # no demo campaign yet
    demo_campaign_seed()
    adopted = demo_campaign_adopt(user=admin)
    assert adopted is not None and adopted.owner_id == admin.pk
    assert CampaignMembership.objects.get(campaign=adopted, user=admin).role == "owner"
    other = get_user_model().objects.create_user(username="other")
    assert demo_campaign_adopt(user=other) is None
    assert Campaign.objects.get(slug=DEMO_SLUG).owner_id == admin.pk
