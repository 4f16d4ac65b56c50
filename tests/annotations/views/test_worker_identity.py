"""Worker identity: link cookies cannot be forged, a returning worker resumes, MTurk stop page.

Also: no worker row before consent (crawlers, link previewers), unexpanded platform
placeholders refused, and worker forms that post without any cookie (MTurk's iframe in a
browser that blocks third-party cookies) while a forged or missing token is refused.
"""

from __future__ import annotations

import re

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from annotations.access.workers import worker_token
from annotations.models import Assignment, Campaign, Judgement, Worker
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory, task_with_outputs

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign() -> Campaign:
    c = CampaignFactory(status=Campaign.Status.LIVE, tasks_per_worker=2)
    crit = CriterionFactory(campaign=c)
    for _ in range(3):
        task_with_outputs(campaign=c, criterion=crit)
    return c


def _cookie_name(campaign: Campaign) -> str:
    return f"hew_{campaign.pk}"


def _identity(html: bytes) -> str:
    found = re.search(rb'name="identity" value="([^"]+)"', html)
    assert found, "the consent page carries no signed identity"
    return found.group(1).decode()


def _start_url(campaign: Campaign) -> str:
    return reverse("annotations:worker-start", args=[campaign.slug])


def _enter(client: Client, campaign: Campaign, query: str = "") -> str:
    """Open the entry link, agree if asked, and return the worker's session URL."""
    response = client.get(f"/w/{campaign.slug}/{query}")
    if response.status_code == 200:
        response = client.post(
            _start_url(campaign), {"agree": "on", "identity": _identity(response.content)}
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
        _start_url(campaign), {"agree": "on", "identity": _identity(consent_page.content)}
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


def test_forged_session_token_is_refused(campaign):
    worker = WorkerFactory(campaign=campaign, consented_at=timezone.now())
    token = worker_token(worker)
    other_pk = str(worker.pk + 1)
    forged = other_pk + token[len(str(worker.pk)) :]
    response = Client().get(reverse("annotations:worker-session", args=[campaign.slug, forged]))
    assert response.status_code == 404
    assert b"This link does not work" in response.content
    assert Assignment.objects.count() == 0


def test_token_of_another_campaign_is_refused(campaign):
    other = CampaignFactory(status=Campaign.Status.LIVE)
    worker = WorkerFactory(campaign=other, consented_at=timezone.now())
    url = reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)])
    assert Client().get(url).status_code == 404


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


# --- No worker before consent -------------------------------------------------------


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
    identity = _identity(page.content)
    refused = client.post(_start_url(campaign), {"identity": identity})
    assert refused.status_code == 400 and b"tick the box" in refused.content
    assert _identity(refused.content) == identity  # the form keeps the identity
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
    good = _identity(Client().get(f"/w/{campaign.slug}/?PROLIFIC_PID=p1").content)
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


# --- Worker forms without cookies (third-party iframe), CSRF by signed token --------


def _valid(a: Assignment) -> dict[str, str]:
    return {f"score_{s}": str(100 + 10 * i) for i, s in enumerate(a.display_order)}


def test_whole_mturk_flow_posts_without_any_cookie_and_submits_to_turk_submit_to(campaign):
    """Each request from a fresh client (no cookie ever sent back) with CSRF checks on.

    That is what a browser blocking third-party cookies does inside MTurk's iframe.
    """

    def cookieless() -> Client:
        return Client(enforce_csrf_checks=True)

    query = (
        "?workerId=AWORKER1&assignmentId=ASSIGN1&hitId=HIT1"
        "&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com"
    )
    page = cookieless().get(f"/w/{campaign.slug}/{query}")
    assert page.status_code == 200 and Worker.objects.count() == 0
    started = cookieless().post(
        _start_url(campaign), {"agree": "on", "identity": _identity(page.content)}
    )
    assert started.status_code == 303
    session = started["Location"]
    worker = Worker.objects.get()
    assert worker.metadata["assignment_id"] == "ASSIGN1"
    for _ in range(campaign.tasks_per_worker):
        html = cookieless().get(session).content.decode()
        found = re.search(r'id="task-form"[^>]*action="([^"]+)"', html)
        assert found, html[:500]
        action = found.group(1)
        a = Assignment.objects.get(worker=worker, state="active")
        posted = cookieless().post(action, _valid(a))
        assert posted.status_code == 303, posted.content[:300]
    assert Judgement.objects.filter(worker=worker).count() == campaign.tasks_per_worker
    done = cookieless().get(session).content.decode()
    assert 'action="https://workersandbox.mturk.com/mturk/externalSubmit"' in done
    assert 'name="assignmentId" value="ASSIGN1"' in done
    assert f'name="completionCode" value="{campaign.completion_code}"' in done


def test_worker_pages_set_no_csrf_cookie(campaign):
    """Worker pages authenticate by the signed token, so they never ask for Django's CSRF
    token: asking would set the ``csrftoken`` cookie, a needless third-party cookie inside
    MTurk's iframe. Error pages under /w/ do not either."""
    Campaign.objects.filter(pk=campaign.pk).update(accept_mturk=True)
    responses = []

    def fresh() -> Client:
        return Client(enforce_csrf_checks=True)

    page = fresh().get(f"/w/{campaign.slug}/?workerId=AW1&assignmentId=A1&hitId=H1")
    responses.append(page)
    started = fresh().post(
        _start_url(campaign), {"agree": "on", "identity": _identity(page.content)}
    )
    responses.append(started)
    session = started["Location"]
    for _ in range(campaign.tasks_per_worker):
        task = fresh().get(session)
        responses.append(task)
        assert b"csrfmiddlewaretoken" not in task.content and b"X-CSRFToken" not in task.content
        action = re.search(r'id="task-form"[^>]*action="([^"]+)"', task.content.decode())
        assert action
        worker = Worker.objects.get()
        responses.append(
            fresh().post(
                action.group(1), _valid(Assignment.objects.get(worker=worker, state="active"))
            )
        )
    responses.append(fresh().get(session))  # the end page
    responses.append(fresh().get(f"/w/{campaign.slug}/?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE"))
    responses.append(fresh().get("/w/no-such-study/"))
    responses.append(fresh().get(f"/w/{campaign.slug}/s/mistyped/extra/"))
    assert [r.status_code for r in responses] == [200, 303, 200, 303, 200, 303, 200, 200, 404, 404]
    assert all("csrftoken" not in r.cookies for r in responses)
    assert Judgement.objects.count() == campaign.tasks_per_worker


def test_designer_pages_and_preview_still_carry_the_csrf_token(campaign):
    from django.contrib.auth import get_user_model

    owner = get_user_model().objects.create_user("owner", password="pw-123456")
    Campaign.objects.filter(pk=campaign.pk).update(owner=owner)
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    preview = client.get(reverse("annotations:worker-preview", args=[campaign.slug]))
    assert b"csrfmiddlewaretoken" in preview.content and b"X-CSRFToken" in preview.content
    assert "csrftoken" in preview.cookies
    token = preview.cookies["csrftoken"].value
    checked = client.post(
        reverse("annotations:worker-preview", args=[campaign.slug]),
        {"score_0": "100", "csrfmiddlewaretoken": token},
    )
    assert checked.status_code in (200, 400)  # the form's verdict, not a CSRF refusal
    home = client.get("/")
    assert b"X-CSRFToken" in home.content


def test_consent_of_an_existing_worker_posts_without_cookie(campaign):
    worker = WorkerFactory(campaign=campaign)
    url = reverse("annotations:worker-consent", args=[campaign.slug, worker_token(worker)])
    response = Client(enforce_csrf_checks=True).post(url, {"agree": "on"})
    assert response.status_code == 302
    worker.refresh_from_db()
    assert worker.consented_at is not None


@pytest.mark.parametrize(
    "token",
    [
        pytest.param(lambda w: str(w.pk), id="unsigned"),
        pytest.param(lambda w: worker_token(w)[:-1] + "x", id="tampered"),
        pytest.param(lambda w: signing.Signer(salt="x").sign(str(w.pk)), id="other-salt"),
    ],
)
def test_cookieless_posts_with_a_forged_token_are_refused(campaign, token):
    worker = WorkerFactory(campaign=campaign, consented_at=timezone.now())
    session = reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)])
    Client().get(session)
    a = Assignment.objects.get(worker=worker)
    client = Client(enforce_csrf_checks=True)
    forged = token(worker)
    submit = reverse("annotations:worker-submit", args=[campaign.slug, forged, a.pk])
    assert client.post(submit, _valid(a)).status_code == 404
    fresh = WorkerFactory(campaign=campaign)
    consent = reverse("annotations:worker-consent", args=[campaign.slug, token(fresh)])
    assert client.post(consent, {"agree": "on"}).status_code == 404
    assert Judgement.objects.count() == 0
    fresh.refresh_from_db()
    assert fresh.consented_at is None


def test_designer_preview_still_needs_the_csrf_cookie(campaign):
    """Pages with a cookie-based login keep Django's CSRF check."""
    from django.contrib.auth import get_user_model

    owner = get_user_model().objects.create_user("owner", password="pw-123456")
    Campaign.objects.filter(pk=campaign.pk).update(owner=owner)
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    url = reverse("annotations:worker-preview", args=[campaign.slug])
    assert client.get(url).status_code == 200
    assert client.post(url, {"score_0": "100"}).status_code == 403


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


def test_worker_pages_are_never_cached(campaign):
    """Every worker page shows the session's state under a URL with the worker's token:
    ``Cache-Control: no-store`` keeps it out of browser and proxy caches, so the back
    button asks the server again."""
    client = Client()
    responses = [client.get(f"/w/{campaign.slug}/?PROLIFIC_PID=p-cache&STUDY_ID=s&SESSION_ID=x")]
    responses.append(
        client.post(
            _start_url(campaign), {"agree": "on", "identity": _identity(responses[0].content)}
        )
    )
    session = responses[-1]["Location"]
    responses.append(client.get(session))  # the task page
    assignment = Assignment.objects.get(worker__external_id="p-cache", state="active")
    token = session.rstrip("/").rsplit("/", 1)[-1]
    responses.append(
        client.post(
            reverse("annotations:worker-draft", args=[campaign.slug, token, assignment.pk]),
            {"score_0": "120"},
        )
    )
    action = re.search(r'id="task-form"[^>]*action="([^"]+)"', responses[2].content.decode())
    assert action
    responses.append(client.post(action.group(1), {"score_0": "oops"}))  # re-shown, 400
    responses.append(client.post(action.group(1), _valid(assignment)))
    responses.append(
        client.post(
            reverse("annotations:worker-consent", args=[campaign.slug, token]), {"agree": "on"}
        )
    )
    responses.append(client.get(f"/w/{campaign.slug}/?PROLIFIC_PID=p-cache&STUDY_ID=s"))
    assert [r.status_code for r in responses] == [200, 303, 200, 204, 400, 303, 302, 302]
    for response in responses:
        assert "no-store" in response["Cache-Control"], response.request["PATH_INFO"]


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
        _start_url(campaign), {"agree": "on", "identity": _identity(early.content)}
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
    identity = _identity(page.content)
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


def test_a_workers_token_does_not_reach_another_workers_assignment(campaign):
    """Assignment ids are sequential numbers: with their own valid token, a worker who
    posts to another worker's assignment id records nothing there and autosaves nothing."""
    alice, bob = (WorkerFactory(campaign=campaign, consented_at=timezone.now()) for _ in "ab")
    for w in (alice, bob):
        Client().get(reverse("annotations:worker-session", args=[campaign.slug, worker_token(w)]))
    bobs = Assignment.objects.get(worker=bob)
    mine = worker_token(alice)
    submit = reverse("annotations:worker-submit", args=[campaign.slug, mine, bobs.pk])
    response = Client().post(submit, _valid(bobs))
    assert response.status_code == 303 and "/s/" + mine in response["Location"]
    draft = reverse("annotations:worker-draft", args=[campaign.slug, mine, bobs.pk])
    assert Client().post(draft, {"score_0": "5"}).status_code == 404
    bobs.refresh_from_db()
    assert bobs.state == "active" and not bobs.draft
    assert Judgement.objects.count() == 0
