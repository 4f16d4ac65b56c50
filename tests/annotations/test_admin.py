"""The admin: every model has a changelist that works and whose queries do not grow with rows."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotations.models import (
    Assignment,
    Campaign,
    CampaignMembership,
    Criterion,
    Item,
    Judgement,
    Output,
    System,
    Task,
    Worker,
)
from ranking.models import RankingRun
from tests.annotations.designer_data import judged_campaign

pytestmark = pytest.mark.django_db

MODELS = [
    Campaign,
    CampaignMembership,
    Criterion,
    System,
    Item,
    Output,
    Task,
    Worker,
    Assignment,
    Judgement,
    RankingRun,
]


def _changelist_queries(client, model) -> int:
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_changelist_queries_do_not_grow_with_the_data(client, model):
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin)
    judged_campaign(slug="small", n_items=2, n_workers=2)
    few = _changelist_queries(client, model)
    judged_campaign(slug="large", n_items=6, n_workers=4, owner=admin)
    assert _changelist_queries(client, model) <= few + 1  # +1: filters may list a new choice


def test_campaign_list_counts_each_relation_separately(client):
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin)
    judged_campaign(slug="counted", n_items=3, n_workers=2)
    html = client.get(reverse("admin:annotations_campaign_changelist")).content.decode()
    # 5 systems, 3 items, 3 tasks: not their product.
    assert '<td class="field-n_systems">5</td>' in html
    assert '<td class="field-n_items">3</td>' in html
    assert '<td class="field-n_tasks">3</td>' in html


def test_the_admin_refuses_a_reserved_slug_like_every_other_way_in(client):
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin)
    page = client.post(
        reverse("admin:annotations_campaign_add"),
        {"slug": "new", "name": "Shadow", "status": "draft"},
    )
    assert page.status_code == 200
    assert "reserved" in page.content.decode()
    assert not Campaign.objects.filter(slug="new").exists()
