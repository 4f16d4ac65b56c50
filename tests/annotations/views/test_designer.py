"""Designer pages: set-up, upload errors, criteria, design, plan, life cycle, monitoring."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from annotations.models import Campaign, CampaignMembership, Criterion, Output, Task, Worker
from tests.annotations.designer_data import add_member, judged_campaign, users

HX = {"HTTP_HX_REQUEST": "true"}

GOOD_CSV = (
    "item_id,input,system,output\n"
    "mr1,name[Aromi],sysA,Aromi is a pub.\n"
    "mr1,name[Aromi],sysB,There is a pub called Aromi.\n"
    "mr2,name[Cotto],sysA,Cotto is a coffee shop.\n"
    "mr2,name[Cotto],sysB,Cotto sells coffee.\n"
)


@pytest.fixture
def people(db):
    return users()


@pytest.fixture
def owner_client(client, people):
    client.force_login(people["owner"])
    return client


def _campaign(client, slug="pilot"):
    response = client.post(
        reverse("annotations:designer-new"), {"name": "Pilot", "slug": slug, "description": ""}
    )
    assert response.status_code == 302
    return Campaign.objects.get(slug=slug)


def test_create_campaign_makes_the_user_owner(owner_client, people):
    campaign = _campaign(owner_client)
    assert campaign.owner == people["owner"]
    assert campaign.memberships.get().role == CampaignMembership.Role.OWNER
    page = owner_client.get(reverse("annotations:designer-campaign", args=[campaign.slug]))
    assert "Pilot" in page.content.decode()


def test_reserved_and_duplicate_slugs_are_refused(owner_client):
    _campaign(owner_client)
    for slug in ("pilot", "new"):
        response = owner_client.post(
            reverse("annotations:designer-new"), {"name": "X", "slug": slug}
        )
        assert response.status_code == 200
        assert "errorlist" in response.content.decode()
    assert Campaign.objects.count() == 1


def test_upload_csv_imports_outputs(owner_client):
    campaign = _campaign(owner_client)
    upload = SimpleUploadedFile("outputs.csv", GOOD_CSV.encode(), content_type="text/csv")
    response = owner_client.post(
        reverse("annotations:designer-upload", args=[campaign.slug]), {"files": [upload]}
    )
    assert response.status_code == 302
    assert Output.objects.filter(item__campaign=campaign).count() == 4
    assert sorted(campaign.systems.values_list("label", flat=True)) == ["sysA", "sysB"]


def test_upload_error_names_file_line_field_and_writes_nothing(owner_client):
    campaign = _campaign(owner_client)
    good = SimpleUploadedFile("a-good.csv", GOOD_CSV.encode())
    bad = SimpleUploadedFile(
        "b-bad.csv",
        b"item_id,input,system,output\nmr9,name[X],sysC,Fine.\nmr9,name[X],,No system\n",
    )
    response = owner_client.post(
        reverse("annotations:designer-upload", args=[campaign.slug]), {"files": [good, bad]}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "b-bad.csv" in html
    assert '<td class="num">3</td>' in html
    assert "<code>system</code>" in html
    assert "Nothing was imported" in html
    # The good file was not kept either.
    assert not Output.objects.filter(item__campaign=campaign).exists()
    assert not campaign.systems.exists()


def test_criteria_from_preset_and_custom_likert(owner_client):
    campaign = _campaign(owner_client)
    url = reverse("annotations:designer-criteria", args=[campaign.slug])
    assert owner_client.post(url, {"preset": "naturalness"}).status_code == 302
    response = owner_client.post(
        url,
        {
            "name": "clarity",
            "question": "How clear is it?",
            "scale": "likert",
            "show_input": "on",
            "levels": "1 | bad | Unclear\n2 | ok | Clear enough\n3 | good | Crystal clear",
        },
    )
    assert response.status_code == 302
    natural = campaign.criteria.get(name="naturalness")
    assert natural.show_input is False and natural.scale == Criterion.Scale.MAGNITUDE
    clarity = campaign.criteria.get(name="clarity")
    assert [lv["value"] for lv in clarity.likert_levels] == [1, 2, 3]
    assert clarity.likert_levels[2]["descriptor"] == "Crystal clear"
    # Missing fields without a preset are a form error, not a crash.
    response = owner_client.post(url, {"name": "x"})
    assert response.status_code == 200
    assert campaign.criteria.count() == 2


def test_edit_criterion_changes_standard(owner_client):
    campaign = _campaign(owner_client)
    owner_client.post(
        reverse("annotations:designer-criteria", args=[campaign.slug]), {"preset": "quality"}
    )
    criterion = campaign.criteria.get()
    url = reverse("annotations:designer-criterion", args=[campaign.slug, criterion.pk])
    page = owner_client.get(url)
    assert E2E_WORD in page.content.decode()
    response = owner_client.post(
        url,
        {"name": "quality", "question": "Better?", "scale": "magnitude", "standard": 50},
    )
    assert response.status_code == 302
    criterion.refresh_from_db()
    assert criterion.question == "Better?" and criterion.standard == 50


E2E_WORD = "grammatical correctness"


def test_design_settings_save_and_lock_after_tasks(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    url = reverse("annotations:designer-settings", args=[campaign.slug])
    page = owner_client.get(url)
    form = page.context["form"]
    # Tasks exist: the design fields are read-only text, not inputs that would be ignored.
    html = page.content.decode()
    assert 'name="judgements_per_task"' not in html and 'name="outputs_per_task"' not in html
    assert 'name="instructions"' in html and "(fixed)" in html
    data = {
        k: v
        for k, v in form.initial.items()
        if v is not None and v is not False and not form.fields[k].disabled
    }
    data.update({"instructions": "Read carefully.", "judgements_per_task": 5})
    response = owner_client.post(url, data)
    # A fixed setting posted anyway is refused out loud, not dropped.
    assert response.status_code == 200
    assert "can no longer change: judgements per task" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.judgements_per_task == 3 and campaign.instructions == ""
    del data["judgements_per_task"]
    assert owner_client.post(url, data).status_code == 302
    campaign.refresh_from_db()
    assert campaign.instructions == "Read carefully."


def test_plan_page_and_partial(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    url = reverse("annotations:designer-plan", args=[campaign.slug])
    page = owner_client.get(url, {"pay_per_hour": "12", "seconds_per_task": "60"})
    plan = page.context["plan"]
    # 4 built tasks x 3 judgements = 12 judgements of 60 s at 12 an hour.
    assert plan.built and plan.tasks == 4 and plan.judgements == 12
    assert plan.cost == pytest.approx(12 * 60 / 3600 * 12)
    html = page.content.decode()
    assert 'hx-get="' + url in html and 'action="' + url in html
    partial = owner_client.get(url, {"pay_per_hour": "10"}, **HX).content.decode()
    assert partial.lstrip().startswith('<div id="plan-result">')
    assert "<html" not in partial


def test_lifecycle_launch_pause_close(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    campaign.criteria.update(standard_text="The standard.")  # magnitude needs a standard
    slug = campaign.slug
    owner_client.post(reverse("annotations:designer-launch", args=[slug]))
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.LIVE
    owner_client.post(reverse("annotations:designer-pause", args=[slug]))
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.PAUSED
    owner_client.post(reverse("annotations:designer-close", args=[slug]))
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.CLOSED
    response = owner_client.post(reverse("annotations:designer-launch", args=[slug]), follow=True)
    assert "cannot be launched" in response.content.decode()


def test_launch_without_tasks_is_refused(owner_client):
    campaign = _campaign(owner_client)
    response = owner_client.post(
        reverse("annotations:designer-launch", args=[campaign.slug]), follow=True
    )
    assert "Add at least one criterion" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.DRAFT


def test_launch_without_consent_text_is_refused_and_the_plan_says_so(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    campaign.criteria.update(standard_text="The standard.")  # magnitude needs a standard
    Campaign.objects.filter(pk=campaign.pk).update(consent_text="   ")
    plan = reverse("annotations:designer-plan", args=[campaign.slug])
    html = owner_client.get(plan).content.decode()
    assert 'id="consent-missing"' in html and "The consent text is empty" in html
    assert reverse("annotations:designer-settings", args=[campaign.slug]) in html
    response = owner_client.post(
        reverse("annotations:designer-launch", args=[campaign.slug]), follow=True
    )
    assert "Write the consent text (Settings) before launching" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.DRAFT
    Campaign.objects.filter(pk=campaign.pk).update(consent_text="You may stop at any time.")
    assert 'id="consent-missing"' not in owner_client.get(plan).content.decode()
    owner_client.post(reverse("annotations:designer-launch", args=[campaign.slug]))
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.LIVE


def test_overview_shows_platform_links_and_preview(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    html = owner_client.get(
        reverse("annotations:designer-campaign", args=[campaign.slug])
    ).content.decode()
    assert (
        f"/w/{campaign.slug}/?PROLIFIC_PID={{{{%PROLIFIC_PID%}}}}&amp;STUDY_ID={{{{%STUDY_ID%}}}}"
        "&amp;SESSION_ID={{%SESSION_ID%}}" in html
    )
    assert "ExternalQuestion" in html
    assert f'href="/w/{campaign.slug}/preview/"' in html


def test_monitor_page_and_live_partial(owner_client, people, django_assert_max_num_queries):
    campaign = judged_campaign(owner=people["owner"])
    url = reverse("annotations:designer-monitor", args=[campaign.slug])
    page = owner_client.get(url)
    html = page.content.decode()
    assert 'hx-trigger="every 5s"' in html
    progress = page.context["progress"][0]
    assert (progress.planned, progress.collected) == (12, 12)
    matrix = page.context["matrix"]
    alpha = matrix.labels.index("alpha")
    beta = matrix.labels.index("beta")
    # Every task shows alpha and beta in different slots: 4 tasks x 3 workers.
    assert matrix.counts[alpha][beta] == 12
    # gamma and delta share a slot on item 0 (identical outputs): not compared there.
    g, d = matrix.labels.index("gamma"), matrix.labels.index("delta")
    assert matrix.counts[g][d] == 9
    rows = {r.worker.external_id: r for r in page.context["workers"]}
    assert rows["PID0000"].tasks_done == 4
    assert 0 <= rows["PID0000"].agreement <= 1
    with django_assert_max_num_queries(25):
        partial = owner_client.get(url, **HX)
    text = partial.content.decode()
    assert text.lstrip().startswith('<div id="live"') and "<html" not in text


def test_flag_and_exclude_worker_with_and_without_htmx(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    worker = campaign.workers.first()
    assert worker is not None
    url = reverse("annotations:designer-worker-mark", args=[campaign.slug, worker.pk])
    response = owner_client.post(url, {"action": "flag"})
    assert response.status_code == 302
    # Excluding needs a reason: without one the row says so and nothing changes.
    response = owner_client.post(url, {"action": "exclude", "reason": " "}, **HX)
    assert response.status_code == 200 and "Say why" in response.content.decode()
    worker.refresh_from_db()
    assert not worker.excluded
    response = owner_client.post(url, {"action": "exclude", "reason": "Rushed: 3 s"}, **HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith(f'<tr id="worker-{worker.pk}"') and "excluded" in html
    assert "Rushed: 3 s" in html and "Include again" in html
    worker.refresh_from_db()
    assert worker.flagged and worker.excluded and worker.exclusion_reason == "Rushed: 3 s"
    # Their judgements stay stored.
    assert worker.judgements.count() == 4
    assert owner_client.post(url, {"action": "nonsense"}).status_code == 400
    owner_client.post(url, {"action": "include"})
    worker.refresh_from_db()
    assert not worker.excluded and worker.exclusion_reason == ""


def test_members_owner_adds_and_removes(owner_client, people):
    campaign = _campaign(owner_client)
    url = reverse("annotations:designer-members", args=[campaign.slug])
    owner_client.post(url, {"username": "viewer", "role": "designer"})
    membership = campaign.memberships.get(user=people["viewer"])
    assert membership.role == "designer"
    response = owner_client.post(url, {"username": "nobody", "role": "viewer"})
    assert "there is no user" in response.content.decode().lower()
    owner_client.post(
        reverse("annotations:designer-member-remove", args=[campaign.slug, membership.pk])
    )
    assert not campaign.memberships.filter(user=people["viewer"]).exists()


def test_export_streams_csv(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    response = owner_client.get(
        reverse("annotations:designer-export", args=[campaign.slug]),
        {"criterion": "quality", "format": "csv"},
    )
    assert response.streaming
    assert response["Content-Disposition"].endswith('.csv"')
    body = b"".join(response.streaming_content).decode()
    assert body.startswith("_unit_id,_id,_worker_id,_started_at,_created_at")
    bad = owner_client.get(
        reverse("annotations:designer-export", args=[campaign.slug]),
        {"criterion": "quality", "format": "xml"},
    )
    assert bad.status_code == 400


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


def test_workers_never_see_designer_pages(client, people):
    """A crowd worker has no account: the pages send them to sign in."""
    campaign = judged_campaign(owner=people["owner"])
    assert Worker.objects.filter(campaign=campaign).exists()
    response = client.get(reverse("annotations:designer-monitor", args=[campaign.slug]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_build_view_calls_task_design(owner_client, people, monkeypatch):
    campaign = _campaign(owner_client)
    response = owner_client.post(
        reverse("annotations:designer-build", args=[campaign.slug]), follow=True
    )
    assert "Add at least one criterion" in response.content.decode()
    assert not Task.objects.filter(campaign=campaign).exists()


def test_whole_forms_write_labels_as_the_site_does_and_suggest_the_slug(owner_client):
    """Forms a template renders whole (``as_div``) have labels without Django's colon,
    like every hand-written form of the site; the slug follows the name (the script
    reads ``data-slug-from``; tests/browser/test_designer_forms.py types it)."""
    campaign = _campaign(owner_client)
    pages = {
        "new": reverse("annotations:designer-new"),
        "clone": reverse("annotations:designer-clone", args=[campaign.slug]),
        "campaign": reverse("annotations:designer-campaign", args=[campaign.slug]),
    }
    for name, url in pages.items():
        html = owner_client.get(url).content.decode()
        assert "</label>" in html, name
        assert ":</label>" not in html, name
        if name != "campaign":
            assert 'data-slug-from="id_name"' in html, name


def test_monitor_of_a_closed_campaign_gives_no_finish_estimate(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    Campaign.objects.filter(pk=campaign.pk).update(
        status=Campaign.Status.CLOSED, judgements_per_task=6
    )
    html = owner_client.get(
        reverse("annotations:designer-monitor", args=[campaign.slug])
    ).content.decode()
    assert "12 not collected · no finish estimate: the campaign is closed" in html
    assert "estimated finish" not in html and "to go" not in html
