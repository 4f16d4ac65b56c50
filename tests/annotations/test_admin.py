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
from tests.source_text import modules_containing

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


def _change_page_post(client, campaign: Campaign, **changes) -> dict:
    """The campaign's change page as the browser would post it back, with ``changes``."""
    url = reverse("admin:annotations_campaign_change", args=[campaign.pk])
    page = client.get(url)
    assert page.status_code == 200

    def fill(data: dict, form, names) -> None:
        for name in names:
            value = form[name].value()
            if isinstance(value, bool):
                if value:
                    data[form.add_prefix(name)] = "on"
            else:
                data[form.add_prefix(name)] = "" if value is None else value

    data: dict = {}
    form = page.context["adminform"].form
    fill(data, form, form.fields)
    for inline in page.context["inline_admin_formsets"]:
        formset = inline.formset
        management = formset.management_form
        fill(data, management, management.fields)
        for row in formset.forms:
            fill(data, row, row.fields)
    data.update(changes)
    return {"path": url, "data": data}


def test_the_admin_cannot_change_a_campaigns_status(client):
    """The status moves through the life-cycle services only (their checks and locks)."""
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin)
    campaign = judged_campaign(slug="guarded")
    assert campaign.status == Campaign.Status.DRAFT
    post = _change_page_post(client, campaign, status=Campaign.Status.LIVE, name="Renamed")
    response = client.post(post["path"], post["data"])
    assert response.status_code == 302, response.content.decode()[:2000]
    campaign.refresh_from_db()
    assert campaign.name == "Renamed"  # the page still saves what it may
    assert campaign.status == Campaign.Status.DRAFT
    page = client.get(post["path"]).content.decode()
    assert 'name="status"' not in page


def test_the_admin_shows_read_only_what_the_services_fix(client):
    """Tasks are built: the design fields (campaign_fixed_fields) and the slug stay put."""
    from annotations.selectors.campaigns import campaign_fixed_fields

    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin)
    campaign = judged_campaign(slug="built")
    fixed = campaign_fixed_fields(campaign=campaign)
    assert "outputs_per_task" in fixed
    post = _change_page_post(client, campaign, outputs_per_task=2, slug="moved")
    response = client.post(post["path"], post["data"])
    assert response.status_code == 302, response.content.decode()[:2000]
    campaign.refresh_from_db()
    assert (campaign.outputs_per_task, campaign.slug) == (5, "built")
    page = client.get(post["path"]).content.decode()
    for field in (*fixed, "slug"):
        assert f'name="{field}"' not in page, field


def test_the_reserved_slug_rule_is_worded_in_one_place():
    """The admin asks services.campaigns.campaign_slug_check; no copy of the rule."""
    wording = "is reserved; choose another"
    writers = modules_containing(wording)
    assert writers == ["annotations/services/campaigns.py"]


def test_the_admin_cannot_exclude_a_worker_without_a_reason(client):
    """Excluding goes through worker_mark (a reason is required): not from the admin."""
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin)
    campaign = judged_campaign(slug="judged", n_items=2, n_workers=2)
    worker = Worker.objects.filter(campaign=campaign).earliest("pk")
    page = client.get(reverse("admin:annotations_worker_change", args=[worker.pk]))
    assert 'name="excluded"' not in page.content.decode()
    listing = client.get(reverse("admin:annotations_worker_changelist")).content.decode()
    assert 'name="form-0-excluded"' not in listing and 'name="form-0-flagged"' in listing


def test_the_admin_cannot_change_a_criterion_that_has_tasks(client):
    """As the criteria service refuses (criterion_update): read-only there and inline."""
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin)
    campaign = judged_campaign(slug="judged", n_items=2, n_workers=2)
    criterion = campaign.criteria.earliest("pk")
    assert criterion.tasks.exists()
    page = client.get(reverse("admin:annotations_criterion_change", args=[criterion.pk]))
    assert 'name="question"' not in page.content.decode()
    inline = client.get(reverse("admin:annotations_campaign_change", args=[campaign.pk]))
    assert 'name="criteria-0-question"' not in inline.content.decode()
