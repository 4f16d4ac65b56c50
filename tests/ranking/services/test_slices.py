"""Rankings on a slice of the items and per slice (languages among them)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from annotations.models import CampaignMembership, Item, Task
from ranking.exports import runs as exports
from ranking.models import RankingRun
from ranking.selectors import runs as selectors
from ranking.services import compute
from ranking.services import runs as services
from tests.ranking.planted import planted_campaign

pytestmark = pytest.mark.django_db


def _sliced(n: int = 80):
    """Planted strengths; items alternate challenge_set a / b; tasks of b are German."""
    campaign, criterion = planted_campaign(strengths=[40.0, 20.0, 0.0], n_judgements=n, k=3)
    for number, item in enumerate(Item.objects.filter(campaign=campaign).order_by("pk")):
        item.attributes = {"challenge_set": "ab"[number % 2]}
        item.save(update_fields=["attributes"])
        if number % 2:
            Task.objects.filter(item=item).update(language="de")
    campaign.languages = ["en", "de"]
    campaign.save(update_fields=["languages"])
    return campaign, criterion


def test_a_run_on_a_slice_ranks_its_judgements_only_and_reproduces() -> None:
    campaign, criterion = _sliced()
    full = services.ranking_run_create(campaign=campaign, criterion=criterion, queue=False)
    part = services.ranking_run_create(
        campaign=campaign, criterion=criterion, queue=False, where={"challenge_set": "a"}
    )
    again = services.ranking_run_create(
        campaign=campaign, criterion=criterion, queue=False, where={"challenge_set": "a"}
    )
    for run in (full, part, again):
        compute.ranking_run_compute(run=run, fan_out=False)
        run.refresh_from_db()
        assert run.status == RankingRun.Status.DONE, run.error
    assert (full.n_judgements, part.n_judgements) == (80, 40)
    assert part.where == {"challenge_set": "a"} and part.inputs["where"] == {"challenge_set": "a"}
    assert selectors.ranking_run_rows(run=part) == selectors.ranking_run_rows(run=again)
    assert selectors.ranking_run_rows(run=part) != selectors.ranking_run_rows(run=full)
    assert part.fingerprint == again.fingerprint != full.fingerprint
    text = exports.run_export(run=part, fmt="provenance")
    assert "slice (items ranked),challenge_set=a" in text
    assert "slice challenge_set=a" in exports.run_title(part)


def test_a_language_is_a_slice_too() -> None:
    campaign, criterion = _sliced()
    run = services.ranking_run_create(
        campaign=campaign, criterion=criterion, queue=False, where={"language": "DE"}
    )
    assert run.where == {"language": "de"}
    compute.ranking_run_compute(run=run, fan_out=False)
    run.refresh_from_db()
    assert run.n_judgements == 40


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ({"challenge_set": "zzz"}, "no judgements"),
        ({"Bad Name": "a"}, "not an attribute name"),
        ({"language": "xx"}, "language"),
    ],
)
def test_an_impossible_slice_is_refused_and_nothing_is_written(where, message) -> None:
    campaign, criterion = _sliced(10)
    with pytest.raises(services.DomainError, match=message):
        services.ranking_run_create(campaign=campaign, criterion=criterion, where=where)
    assert not RankingRun.objects.exists()


def test_the_command_ranks_a_slice_a_language_and_every_value_side_by_side() -> None:
    campaign, criterion = _sliced()
    out = StringIO()
    call_command(
        "rank",
        campaign.slug,
        "--criterion",
        criterion.name,
        "--where",
        "challenge_set=b",
        "--runs",
        "20",
        stdout=out,
    )
    assert "slice challenge_set=b" in out.getvalue()
    out = StringIO()
    call_command(
        "rank",
        campaign.slug,
        "--criterion",
        criterion.name,
        "--by",
        "challenge_set",
        "--runs",
        "20",
        stdout=out,
    )
    text = out.getvalue()
    assert "Side by side" in text
    side = text.split("Side by side")[1]
    assert "all items" in side and "challenge_set=a" in side and "challenge_set=b" in side
    assert {tuple(sorted(r.where.items())) for r in RankingRun.objects.all()} >= {
        (),
        (("challenge_set", "a"),),
        (("challenge_set", "b"),),
    }
    out = StringIO()
    call_command(
        "rank",
        campaign.slug,
        "--criterion",
        criterion.name,
        "--language",
        "de",
        "--runs",
        "20",
        stdout=out,
    )
    assert "slice language=de" in out.getvalue()
    before = RankingRun.objects.count()
    for args, message in (
        (["--by", "colour"], "no item"),
        (["--where", "challenge_set"], "attribute=value"),
        (["--where", "challenge_set=zzz"], "no judgements"),
        (["--by", "challenge_set", "--where", "challenge_set=a"], "two different"),
    ):
        with pytest.raises(CommandError, match=f"(?i){message}"):
            call_command("rank", campaign.slug, "--criterion", criterion.name, *args)
    assert RankingRun.objects.count() == before


def test_the_api_takes_a_slice_and_names_the_field_when_wrong(client, django_user_model) -> None:
    campaign, criterion = _sliced(20)
    user = django_user_model.objects.create_user("designer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="designer")
    client.force_login(user)
    url = f"/api/campaigns/{campaign.slug}/rankings/"
    made = client.post(
        url,
        {"criterion": criterion.name, "runs": 5, "where": {"challenge_set": "a"}},
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    assert made.json()["where"] == {"challenge_set": "a"}
    bad = client.post(
        url,
        {"criterion": criterion.name, "runs": 5, "where": {"challenge_set": "zzz"}},
        content_type="application/json",
    )
    assert bad.status_code == 400 and "where" in bad.content.decode()


def test_the_slices_page_shows_runs_side_by_side_and_starts_the_missing(
    client, django_user_model, django_capture_on_commit_callbacks
) -> None:
    campaign, criterion = _sliced()
    user = django_user_model.objects.create_user("designer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="designer")
    client.force_login(user)
    url = f"/rankings/campaign/{campaign.slug}/slices/"
    page = client.get(url, {"criterion": criterion.name, "by": "challenge_set"})
    assert page.status_code == 200 and b"Rank the missing slices" in page.content
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"criterion": criterion.name, "by": "challenge_set"})
    assert response.status_code == 302
    assert RankingRun.objects.count() == 3  # all items, a and b (eager Celery computes them)
    page = client.get(url, {"criterion": criterion.name, "by": "challenge_set"})
    body = page.content.decode()
    assert "challenge_set=a" in body and "challenge_set=b" in body and "all items" in body
    assert "Rank the missing slices" not in body
    assert client.get(url, {"by": "colour"}).status_code == 400
    language = client.get(url, {"criterion": criterion.name, "by": "language"})
    assert language.status_code == 200 and b"Rank the missing slices" in language.content


def test_the_api_shows_slices_side_by_side(client, django_user_model) -> None:
    campaign, criterion = _sliced(40)
    user = django_user_model.objects.create_user("viewer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="viewer")
    client.force_login(user)
    for where in ({}, {"challenge_set": "b"}):
        run = services.ranking_run_create(
            campaign=campaign, criterion=criterion, queue=False, where=where, runs=20
        )
        compute.ranking_run_compute(run=run, fan_out=False)
    url = f"/api/campaigns/{campaign.slug}/rankings/slices/"
    body = client.get(url, {"criterion": criterion.name, "by": "challenge_set"}).json()
    assert [s["slice"] for s in body["slices"]] == ["all items", "challenge_set=b"]
    assert body["not_ranked"] == ["a"]
    assert len(body["systems"]) == 3 and all(len(s["by_slice"]) == 2 for s in body["systems"])
    assert body["systems"][0]["system"] == "s0"
    bad = client.get(url, {"criterion": criterion.name, "by": "colour"})
    assert bad.status_code == 400 and "by" in bad.json().get("errors", bad.json()).__str__()


def test_the_cap_on_running_runs_says_what_was_started_and_what_waits(
    client, django_user_model, settings
) -> None:
    settings.RANKING_MAX_ACTIVE_RUNS_PER_USER = 2
    campaign, criterion = _sliced()
    user = django_user_model.objects.create_user("designer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="designer")
    client.force_login(user)
    url = f"/rankings/campaign/{campaign.slug}/slices/"
    # The runs stay queued (their dispatch waits for a commit that a test never makes).
    response = client.post(url, {"criterion": criterion.name, "by": "challenge_set"}, follow=True)
    body = response.content.decode()
    assert RankingRun.objects.count() == 2
    assert "2 ranking run(s) started" in body
    assert "1 slice(s) not started yet" in body and "Press the button again" in body


def test_the_runs_list_names_each_runs_slice(client, django_user_model) -> None:
    campaign, criterion = _sliced(20)
    user = django_user_model.objects.create_user("viewer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="viewer")
    for where in ({}, {"language": "de"}):
        services.ranking_run_create(
            campaign=campaign, criterion=criterion, queue=False, where=where
        )
    client.force_login(user)
    body = client.get(f"/rankings/campaign/{campaign.slug}/").content.decode()
    assert "<td>language=de</td>" in body and "<td>all items</td>" in body
