"""Worker identity (``annotations.views.sessions``): link cookies cannot be forged, a
returning worker resumes, MTurk stop page.

Also: no worker row before consent (crawlers, link previewers), unexpanded platform
placeholders refused, and a platform id alone opens no one's session. How worker pages
authenticate by their signed token (no CSRF cookie, never cached) is in
tests/annotations/access/test_workers.py.
"""

from __future__ import annotations

import html
import re

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from annotations.access.workers import worker_token
from annotations.models import Assignment, Campaign, CampaignMembership, Judgement, Worker
from benchmarks.load.pages import ACTION, SCORE
from benchmarks.load.pages import answers as page_answers
from tests.annotations.designer_data import add_member, users
from tests.annotations.views.worker_pages import signed_identity
from tests.factories import WorkerFactory

pytestmark = pytest.mark.django_db


def _cookie_name(campaign: Campaign) -> str:
    return f"hew_{campaign.pk}"


def _start_url(campaign: Campaign) -> str:
    return reverse("annotations:worker-start", args=[campaign.slug])


def _enter(client: Client, campaign: Campaign, query: str = "") -> str:
    """Open the entry link, agree if asked, and return the worker's session URL."""
    response = client.get(f"/w/{campaign.slug}/{query}")
    if response.status_code == 200:
        response = client.post(
            _start_url(campaign), {"agree": "on", "identity": signed_identity(response.content)}
        )
    assert response.status_code in (302, 303)
    return response["Location"]


def test_link_worker_keeps_identity_with_the_cookie_it_was_given(campaign):
    alice = Client()
    first = _enter(alice, campaign)
    assert _enter(alice, campaign) == first
    assert Worker.objects.filter(platform="link").count() == 1


@pytest.mark.parametrize(
    "forge",
    [
        pytest.param(lambda signed, raw, name: raw, id="unsigned-id"),
        pytest.param(
            lambda signed, raw, name: signed[:-1] + ("A" if signed[-1] != "A" else "B"),
            id="tampered-signature",
        ),
        pytest.param(lambda signed, raw, name: signed.replace(raw, raw[::-1]), id="swapped-id"),
        pytest.param(
            lambda signed, raw, name: signing.get_cookie_signer(salt=name + "other").sign(raw),
            id="other-salt",
        ),
        pytest.param(
            lambda signed, raw, name: signing.Signer(salt="humaneval.worker.session").sign(raw),
            id="session-token-signer",
        ),
    ],
)
def test_forged_link_cookie_gives_a_new_anonymous_identity(campaign, forge):
    alice = Client()
    alice_url = _enter(alice, campaign)
    alice_worker = Worker.objects.get(platform="link")
    name = _cookie_name(campaign)
    signed = alice.cookies[name].value

    mallory = Client()
    forged = forge(signed, alice_worker.external_id, name)
    assert forged != signed
    mallory.cookies[name] = forged
    consent_page = mallory.get(f"/w/{campaign.slug}/")
    assert consent_page.status_code == 200  # not recognised: a new person, asked to consent
    assert Worker.objects.filter(platform="link").count() == 1
    response = mallory.post(
        _start_url(campaign), {"agree": "on", "identity": signed_identity(consent_page.content)}
    )

    assert response.status_code == 303
    assert response["Location"] != alice_url
    assert Worker.objects.filter(platform="link").count() == 2
    mallory_worker = Worker.objects.exclude(pk=alice_worker.pk).get()
    assert mallory_worker.external_id != alice_worker.external_id
    # The forged cookie was replaced by a valid one: the new identity sticks.
    assert response.cookies[name].value not in (forged, signed)
    assert _enter(mallory, campaign) == response["Location"]
    assert Worker.objects.filter(platform="link").count() == 2


def test_prolific_worker_in_another_browser_resumes_the_same_assignment(campaign):
    entry = f"/w/{campaign.slug}/?PROLIFIC_PID=pid-7&STUDY_ID=s&SESSION_ID=x"
    first_browser, second_browser = Client(), Client()
    session = _enter(first_browser, campaign, entry.removeprefix(f"/w/{campaign.slug}/"))
    page_one = first_browser.get(session)
    assignment = Assignment.objects.get()
    assert b"Task 1 of 2" in page_one.content

    # Another browser, no cookies: the same identity from Prolific's parameters.
    assert second_browser.get(entry)["Location"] == session
    page_two = second_browser.get(session)
    assert b"Task 1 of 2" in page_two.content
    action = reverse(
        "annotations:worker-submit", args=[campaign.slug, session.split("/")[4], assignment.pk]
    )
    assert f'action="{action}"'.encode() in page_two.content
    assert Assignment.objects.count() == 1
    assert Worker.objects.count() == 1


def test_stopped_mturk_worker_can_submit_the_hit_with_the_failed_check_code(campaign):
    worker = WorkerFactory(
        campaign=campaign,
        platform="mturk",
        consented_at=timezone.now(),
        stopped=True,
        metadata={"assignment_id": "A7", "turk_submit_to": "https://workersandbox.mturk.com"},
    )
    html = (
        Client()
        .get(reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)]))
        .content.decode()
    )
    assert 'action="https://workersandbox.mturk.com/mturk/externalSubmit"' in html
    assert 'name="assignmentId" value="A7"' in html
    assert f'name="completionCode" value="{campaign.failed_check_code}"' in html
    assert campaign.completion_code not in html


def test_mturk_submit_url_never_points_outside_mturk(campaign):
    worker = WorkerFactory(
        campaign=campaign,
        platform="mturk",
        consented_at=timezone.now(),
        stopped=True,
        metadata={"assignment_id": "A7", "turk_submit_to": "https://evil.example.com"},
    )
    html = (
        Client()
        .get(reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)]))
        .content.decode()
    )
    assert 'action="https://www.mturk.com/mturk/externalSubmit"' in html
    assert "evil.example.com" not in html


@pytest.mark.parametrize(
    "query",
    [
        "PROLIFIC_PID=p1&STUDY_ID=s",
        "workerId=W1&assignmentId=A1&hitId=H1",
        "assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H1",
    ],
)
def test_platform_links_into_a_link_only_campaign_record_nothing(campaign, query):
    Campaign.objects.filter(pk=campaign.pk).update(accept_prolific=False, accept_mturk=False)
    response = Client().get(f"/w/{campaign.slug}/?{query}")
    assert response.status_code == 400
    assert b"This link does not work" in response.content
    assert Worker.objects.count() == 0


@pytest.mark.parametrize(
    "query",
    ["PROLIFIC_PID=&STUDY_ID=s&SESSION_ID=x", "workerId=&assignmentId=A1&hitId=H1"],
    ids=["prolific", "mturk"],
)
def test_an_empty_platform_id_is_refused_not_taken_for_a_plain_link(campaign, query):
    """The campaign takes every platform; a Prolific or MTurk link whose id came empty
    says the link does not work instead of enrolling an anonymous plain-link worker."""
    Campaign.objects.filter(pk=campaign.pk).update(accept_mturk=True, accept_link=True)
    client = Client()
    response = client.get(f"/w/{campaign.slug}/?{query}")
    assert response.status_code == 400
    assert b"This link does not work" in response.content
    assert b'name="identity"' not in response.content
    assert Worker.objects.count() == 0


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?PROLIFIC_PID=5f1e2d3c4b5a69788796a5b4&STUDY_ID=s&SESSION_ID=x",
        "?workerId=A1B2C3&assignmentId=A1&hitId=H1&turkSubmitTo=https://www.mturk.com",
    ],
    ids=["link", "prolific", "mturk"],
)
def test_plain_gets_of_an_entry_link_create_no_worker(campaign, query):
    """A link previewer or crawler fetches the link (twice); nothing is recorded."""
    for _ in range(2):
        response = Client().get(f"/w/{campaign.slug}/{query}")
        assert response.status_code == 200
        assert b'name="agree"' in response.content
        assert "hew_" not in "".join(response.cookies)  # no link identity handed out either
    assert Worker.objects.count() == 0 and Assignment.objects.count() == 0


def test_consent_creates_the_worker_once_and_a_refusal_creates_none(campaign):
    client = Client()
    page = client.get(f"/w/{campaign.slug}/?PROLIFIC_PID=pid-1&STUDY_ID=s&SESSION_ID=x")
    identity = signed_identity(page.content)
    refused = client.post(_start_url(campaign), {"identity": identity})
    assert refused.status_code == 400 and b"tick the box" in refused.content
    assert signed_identity(refused.content) == identity  # the form keeps the identity
    assert Worker.objects.count() == 0
    first = client.post(_start_url(campaign), {"identity": identity, "agree": "on"})
    second = client.post(_start_url(campaign), {"identity": identity, "agree": "on"})
    worker = Worker.objects.get()
    assert first["Location"] == second["Location"]
    assert (worker.platform, worker.external_id) == ("prolific", "pid-1")
    assert worker.consented_at is not None


@pytest.mark.parametrize(
    "identity",
    [
        pytest.param(lambda good, campaign: "", id="missing"),
        pytest.param(lambda good, campaign: good[:-2] + "xx", id="tampered"),
        pytest.param(
            lambda good, campaign: signing.dumps(
                {"c": campaign.pk, "p": "prolific", "x": "chosen-by-me", "m": {}},
                salt="another.salt",
            ),
            id="other-salt",
        ),
        pytest.param(
            lambda good, campaign: signing.dumps(
                {"c": campaign.pk + 1000, "p": "prolific", "x": "p", "m": {}},
                salt="humaneval.worker.identity",
            ),
            id="other-campaign",
        ),
    ],
)
def test_start_refuses_a_missing_or_forged_identity(campaign, identity):
    good = signed_identity(Client().get(f"/w/{campaign.slug}/?PROLIFIC_PID=p1").content)
    response = Client(enforce_csrf_checks=True).post(
        _start_url(campaign), {"agree": "on", "identity": identity(good, campaign)}
    )
    assert response.status_code == 400
    assert b"This link does not work" in response.content
    assert Worker.objects.count() == 0


@pytest.mark.parametrize(
    "query",
    [
        "PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}",
        "PROLIFIC_PID=%PROLIFIC_PID%",
        "PROLIFIC_PID=5f1e2d3c4b5a69788796a5b4&STUDY_ID={{%STUDY_ID%}}",
        "workerId=${workerId}&assignmentId=${assignmentId}&hitId=H1",
        "workerId={{workerId}}&assignmentId=A1",
    ],
)
def test_unexpanded_placeholders_are_refused_with_a_clear_page(campaign, query):
    from urllib.parse import quote

    url = f"/w/{campaign.slug}/?" + "&".join(
        f"{k}={quote(v, safe='')}" for k, v in (pair.split("=", 1) for pair in query.split("&"))
    )
    response = Client().get(url)
    assert response.status_code == 400
    html = response.content.decode()
    assert "This study link was not filled in" in html
    assert "{{%PROLIFIC_PID%}}" in html  # shows what a placeholder looks like
    assert 'name="agree"' not in html
    assert Worker.objects.count() == 0


@pytest.mark.parametrize(
    "query",
    [
        "assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H1&turkSubmitTo=https://www.mturk.com",
        "assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H1&workerId=AW9",
    ],
    ids=["plain-preview", "preview-with-worker-id"],
)
def test_mturk_preview_records_nothing_and_offers_no_form_to_post(campaign, query):
    Campaign.objects.filter(pk=campaign.pk).update(accept_mturk=True)
    client = Client()
    for _ in range(2):
        response = client.get(f"/w/{campaign.slug}/?{query}")
        assert response.status_code == 200
        html = response.content.decode()
        assert "Accept the HIT to start" in html
        assert 'name="identity"' not in html and 'name="agree"' not in html
        assert "X-Frame-Options" not in response  # shown in MTurk's frame
    assert Worker.objects.count() == 0 and Assignment.objects.count() == 0
    assert Judgement.objects.count() == 0


# --- A platform id alone opens no one's session ----------------------------------------


VICTIM_PROLIFIC = "?PROLIFIC_PID=5f1e2d3c4b5a69788796a5b4&STUDY_ID=st-1&SESSION_ID=sess-victim"


VICTIM_MTURK = (
    "?workerId=AVICTIM1&assignmentId=ASG-VICTIM&hitId=HIT1"
    "&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com"
)


def _assert_turned_away(response, victim: Worker) -> None:
    """The stranger's page: says the id has a session elsewhere; no token, no redirect,
    no cookie that would open it."""
    assert response.status_code == 403
    html = response.content.decode()
    assert "This participant id has already started this study" in html
    assert "same Prolific or MTurk session" in html
    assert worker_token(victim) not in html and "/s/" not in html
    assert "Location" not in response
    assert not any(name.startswith("hews_") for name in response.cookies)
    assert 'name="identity"' not in html


@pytest.mark.parametrize(
    ("victim_query", "stranger_query", "secret_key", "secret_value"),
    [
        pytest.param(
            VICTIM_PROLIFIC,
            "?PROLIFIC_PID=5f1e2d3c4b5a69788796a5b4",
            "session_id",
            "sess-victim",
            id="prolific-id-only",
        ),
        pytest.param(
            VICTIM_PROLIFIC,
            "?PROLIFIC_PID=5f1e2d3c4b5a69788796a5b4&STUDY_ID=st-1&SESSION_ID=guessed",
            "session_id",
            "sess-victim",
            id="prolific-other-session",
        ),
        pytest.param(
            VICTIM_MTURK,
            "?workerId=AVICTIM1&assignmentId=ASG-STRANGER&hitId=HIT1"
            "&turkSubmitTo=https%3A%2F%2Fwww.mturk.com",
            "assignment_id",
            "ASG-VICTIM",
            id="mturk-other-assignment",
        ),
    ],
)
def test_a_stranger_with_a_workers_platform_id_gets_no_session_and_changes_nothing(
    campaign, victim_query, stranger_query, secret_key, secret_value
):
    Campaign.objects.filter(pk=campaign.pk).update(accept_mturk=True)
    victim_browser = Client()
    victim_session = _enter(victim_browser, campaign, victim_query)
    victim = Worker.objects.get()
    victim_browser.get(victim_session)  # a task in hand
    stored = dict(victim.metadata)
    assert stored[secret_key] == secret_value

    response = Client().get(f"/w/{campaign.slug}/{stranger_query}")

    _assert_turned_away(response, victim)
    victim.refresh_from_db()
    assert victim.metadata == stored  # assignmentId, turkSubmitTo: untouched
    assert Worker.objects.count() == 1 and Assignment.objects.count() == 1
    # The worker themselves still continues from their browser.
    assert _enter(victim_browser, campaign, victim_query) == victim_session


def test_a_consent_page_a_stranger_opened_first_does_not_open_the_workers_session(campaign):
    """The stranger opens the consent page with the worker's id before the worker
    consents (its signed identity is valid for days); once the worker has a session,
    posting it is turned away: the worker is created once, for the worker."""
    stranger = Client()
    early = stranger.get(f"/w/{campaign.slug}/?PROLIFIC_PID=pid-v&STUDY_ID=st&SESSION_ID=guess")
    assert early.status_code == 200
    victim_session = _enter(Client(), campaign, "?PROLIFIC_PID=pid-v&STUDY_ID=st&SESSION_ID=real")
    victim = Worker.objects.get()

    response = stranger.post(
        _start_url(campaign), {"agree": "on", "identity": signed_identity(early.content)}
    )

    _assert_turned_away(response, victim)
    assert victim_session.endswith(f"/s/{worker_token(victim)}/")
    victim.refresh_from_db()
    assert victim.metadata["session_id"] == "real"
    assert Worker.objects.count() == 1


def test_a_double_click_on_consent_still_gives_one_session(campaign):
    """The same consent page posted twice (no cookie yet sent back: two fresh clients)
    carries the same platform session: the same worker, no refusal."""
    page = Client().get(f"/w/{campaign.slug}/?PROLIFIC_PID=pid-dbl&STUDY_ID=s&SESSION_ID=x")
    identity = signed_identity(page.content)
    first = Client().post(_start_url(campaign), {"agree": "on", "identity": identity})
    second = Client().post(_start_url(campaign), {"agree": "on", "identity": identity})
    assert first.status_code == second.status_code == 303
    assert first["Location"] == second["Location"]
    assert Worker.objects.count() == 1


@pytest.mark.parametrize(
    "query",
    [
        pytest.param("?PROLIFIC_PID=pid-back&STUDY_ID=st", id="prolific-without-session-id"),
        pytest.param("?PROLIFIC_PID=pid-back&STUDY_ID=st&SESSION_ID=new", id="prolific-new"),
    ],
)
def test_the_same_browser_comes_back_by_its_cookie_and_changes_nothing_stored(campaign, query):
    browser = Client()
    session = _enter(browser, campaign, "?PROLIFIC_PID=pid-back&STUDY_ID=st&SESSION_ID=first")
    worker = Worker.objects.get()
    response = browser.get(f"/w/{campaign.slug}/{query}")
    assert response.status_code == 302 and response["Location"] == session
    worker.refresh_from_db()
    # A cookie proves the browser, not the link: a cross-site page could send any link.
    assert worker.metadata["session_id"] == "first"


def test_the_same_platform_session_on_another_device_continues_and_is_remembered(campaign):
    Campaign.objects.filter(pk=campaign.pk).update(accept_mturk=True)
    session = _enter(Client(), campaign, VICTIM_MTURK)
    phone = Client()
    response = phone.get(f"/w/{campaign.slug}/{VICTIM_MTURK}")
    assert response.status_code == 302 and response["Location"] == session
    # The phone now holds its own proof: it comes back even without MTurk's parameters.
    assert phone.get(f"/w/{campaign.slug}/?workerId=AVICTIM1&assignmentId=other").status_code == 302
    assert Worker.objects.get().metadata["assignment_id"] == "ASG-VICTIM"


@pytest.mark.parametrize(
    "forge",
    [
        pytest.param(lambda v, s: str(v.pk), id="unsigned"),
        pytest.param(
            lambda v, s: signing.get_cookie_signer(salt=f"hews_{v.campaign_id}x").sign(str(v.pk)),
            id="other-salt",
        ),
        pytest.param(lambda v, s: s.replace(str(s.split(":")[0]), str(v.pk), 1), id="swapped"),
        pytest.param(lambda v, s: worker_token(v), id="session-token"),
    ],
)
def test_a_forged_or_foreign_session_cookie_opens_nothing(campaign, forge):
    """The stranger's own (valid) cookie names their own worker; rewritten to name the
    victim it no longer verifies."""
    _enter(Client(), campaign, "?PROLIFIC_PID=victim&STUDY_ID=s&SESSION_ID=v")
    victim = Worker.objects.get()
    stranger = Client()
    _enter(stranger, campaign, "?PROLIFIC_PID=stranger&STUDY_ID=s&SESSION_ID=m")
    name = f"hews_{campaign.pk}"
    own = stranger.cookies[name].value
    # Their own valid cookie does not open another's session either.
    _assert_turned_away(stranger.get(f"/w/{campaign.slug}/?PROLIFIC_PID=victim"), victim)
    stranger.cookies[name] = forge(victim, own)
    _assert_turned_away(stranger.get(f"/w/{campaign.slug}/?PROLIFIC_PID=victim"), victim)


def test_the_session_elsewhere_page_speaks_the_workers_language(campaign):
    Campaign.objects.filter(pk=campaign.pk).update(languages=["de"])
    _enter(Client(), campaign, VICTIM_PROLIFIC)
    response = Client().get(
        f"/w/{campaign.slug}/?PROLIFIC_PID=5f1e2d3c4b5a69788796a5b4&lang=de",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 403
    assert (
        "Mit dieser Teilnehmer-ID wurde diese Studie bereits begonnen" in response.content.decode()
    )


def test_an_id_a_stranger_took_first_is_freed_on_the_monitor_for_its_owner(campaign):
    """The stranger starts the study with the owner's Prolific id first; the owner is
    turned away and writes to the researchers; the organizer frees the id on the
    monitor; the owner's next arrival consents and gets a task of their own, and the
    stranger's session gets no more tasks."""
    stranger = Client()
    stranger_session = _enter(stranger, campaign, "?PROLIFIC_PID=pid-own&STUDY_ID=st&SESSION_ID=g")
    assert stranger.get(stranger_session).status_code == 200  # a task in hand
    taken = Worker.objects.get()
    owner_query = "?PROLIFIC_PID=pid-own&STUDY_ID=st&SESSION_ID=real"
    _assert_turned_away(Client().get(f"/w/{campaign.slug}/{owner_query}"), taken)

    organizer = Client()
    people = users()
    add_member(campaign, people["owner"], CampaignMembership.Role.OWNER)
    organizer.force_login(people["owner"])
    mark = reverse("annotations:designer-worker-mark", args=[campaign.slug, taken.pk])
    monitor = organizer.get(reverse("annotations:designer-monitor", args=[campaign.slug]))
    assert 'value="release"' in monitor.content.decode()
    row = organizer.post(
        mark, {"action": "release", "reason": "Owner wrote: not me"}, HTTP_HX_REQUEST="true"
    )
    assert row.status_code == 200
    assert (
        "id freed" in row.content.decode()
        and f"pid-own~released-{taken.pk}" in row.content.decode()
    )

    owner_session = _enter(Client(), campaign, owner_query)
    mine = Worker.objects.get(external_id="pid-own")
    assert mine.pk != taken.pk and owner_session.endswith(f"/s/{worker_token(mine)}/")
    assert mine.metadata["session_id"] == "real"
    taken.refresh_from_db()
    assert taken.excluded and taken.stopped
    assert not Assignment.objects.filter(worker=taken, state="active").exists()
    after = stranger.get(stranger_session).content.decode()
    assert re.findall(r"<h1[^>]*>(.*?)</h1>", after, re.S) == ["Thank you for your time"]


def test_an_id_kept_for_its_owner_cannot_be_taken_again_and_its_taker_submits_nothing(campaign):
    """The second outside review: a freed id went to whoever arrived next, the taker
    again; the taker could still submit the task they held; a decoy id named like the
    renamed one made the release a 500. Now the organizer gives the owner's Prolific
    submission id: the taker's next try is turned away, the owner consents and works,
    the taker's late submit records nothing, and the decoy changes nothing."""
    taker = Client()
    taker_session = _enter(taker, campaign, "?PROLIFIC_PID=pid-k&STUDY_ID=st&SESSION_ID=fake")
    held = taker.get(taker_session).content.decode()
    taken = Worker.objects.get()
    action = ACTION.search(held)
    assert action is not None
    submit_url = html.unescape(action.group(1))
    answers = page_answers(held, sorted({int(n) for n in SCORE.findall(held)}))
    # A decoy: the taker enters again as the id the release would rename theirs to.
    _enter(Client(), campaign, f"?PROLIFIC_PID=pid-k~released-{taken.pk}&STUDY_ID=st&SESSION_ID=d")

    organizer = Client()
    people = users()
    add_member(campaign, people["owner"], CampaignMembership.Role.OWNER)
    organizer.force_login(people["owner"])
    mark = reverse("annotations:designer-worker-mark", args=[campaign.slug, taken.pk])
    row = organizer.post(
        mark,
        {"action": "release", "reason": "Owner wrote", "owner_session": "sess-owner"},
        HTTP_HX_REQUEST="true",
    )
    assert row.status_code == 200 and "id freed" in row.content.decode()
    taken.refresh_from_db()
    assert taken.external_id == f"pid-k~released-{taken.pk}-2"

    again = Client().get(f"/w/{campaign.slug}/?PROLIFIC_PID=pid-k&STUDY_ID=st&SESSION_ID=fake2")
    assert again.status_code == 403
    draft = taker.post(submit_url + "draft/", answers)
    assert draft.status_code == 409
    late = taker.post(submit_url, answers)
    assert late.status_code in (302, 303)
    assert not Judgement.objects.filter(worker=taken).exists()
    assert Assignment.objects.get(worker=taken).draft in ({}, None)

    owner_session = _enter(
        Client(), campaign, "?PROLIFIC_PID=pid-k&STUDY_ID=st&SESSION_ID=sess-owner"
    )
    mine = Worker.objects.get(external_id="pid-k")
    assert mine.consented_at is not None and mine.language
    assert owner_session.endswith(f"/s/{worker_token(mine)}/")
