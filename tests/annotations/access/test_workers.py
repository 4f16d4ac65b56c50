"""The worker's access (``annotations.access.workers``): the signed token in the URL is the
only credential of a worker page.

Worker forms post without any cookie (MTurk's iframe in a browser that blocks third-party
cookies), so worker pages never set Django's CSRF cookie, while a forged, tampered or
foreign token is refused and the designer's preview (a cookie login) keeps the CSRF
check; worker pages are never cached. The signed identity a consent form carries and the
worker cookies that bring a browser back (``identity_sign``/``identity_read``, the link and
session cookies) are tested directly at the end.
"""

from __future__ import annotations

import re
import time

import pytest
from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from annotations.access.workers import (
    IDENTITY_MAX_AGE,
    Identity,
    identity_read,
    identity_sign,
    link_cookie_worker_id,
    remember_link_worker,
    remember_session,
    session_cookie_worker_id,
    worker_token,
)
from annotations.models import Assignment, Campaign, Judgement, Worker
from tests.factories import (
    CampaignFactory,
    WorkerFactory,
    live_campaign_with_tasks,
)
from tests.source_text import modules_containing

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign() -> Campaign:
    return live_campaign_with_tasks()


def _identity(html: bytes) -> str:
    found = re.search(rb'name="identity" value="([^"]+)"', html)
    assert found, "the consent page carries no signed identity"
    return found.group(1).decode()


def _start_url(campaign: Campaign) -> str:
    return reverse("annotations:worker-start", args=[campaign.slug])


def _valid(a: Assignment) -> dict[str, str]:
    return {f"score_{s}": str(100 + 10 * i) for i, s in enumerate(a.display_order)}


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


# --- Worker forms without cookies (third-party iframe), CSRF by signed token --------


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


def _signed(campaign: Campaign, **changes: object) -> str:
    fields: dict = {
        "platform": "prolific",
        "external_id": "p-1",
        "metadata": {"study_id": "s"},
        "language": "de",
        "criterion_id": 7,
    }
    return identity_sign(campaign=campaign, **{**fields, **changes})


def _signed_at(monkeypatch, campaign: Campaign, age: int) -> str:
    """An identity signed ``age`` seconds ago (the signer's timestamp set back)."""
    with monkeypatch.context() as patched:
        patched.setattr(
            signing.TimestampSigner,
            "timestamp",
            lambda self: signing.b62_encode(int(time.time()) - age),
        )
        return _signed(campaign)


def test_a_signed_identity_reads_back_as_signed(campaign):
    assert identity_read(campaign=campaign, signed=_signed(campaign)) == Identity(
        platform="prolific",
        external_id="p-1",
        metadata={"study_id": "s"},
        language="de",
        criterion_id=7,
    )
    assert identity_read(
        campaign=campaign, signed=_signed(campaign, language="", criterion_id=None)
    ) == Identity(platform="prolific", external_id="p-1", metadata={"study_id": "s"})


def test_an_identity_tampered_with_or_of_another_campaign_is_refused(campaign):
    good = _signed(campaign)
    other = CampaignFactory()
    assert identity_read(campaign=campaign, signed=good[:-2] + "xx") is None
    assert identity_read(campaign=campaign, signed="") is None
    assert identity_read(campaign=other, signed=good) is None
    assert identity_read(campaign=other, signed=_signed(other)) is not None
    # Signed with another salt (a worker cookie's, say): not an identity.
    assert identity_read(campaign=campaign, signed=signing.dumps({"c": campaign.pk})) is None
    # Signed right but without the platform's id: refused, not a KeyError later.
    lacking = signing.dumps({"c": campaign.pk, "p": "link"}, salt="humaneval.worker.identity")
    assert identity_read(campaign=campaign, signed=lacking) is None


def test_an_identity_older_than_its_max_age_is_refused(monkeypatch, campaign):
    fresh = _signed_at(monkeypatch, campaign, IDENTITY_MAX_AGE - 60)
    stale = _signed_at(monkeypatch, campaign, IDENTITY_MAX_AGE + 60)
    assert identity_read(campaign=campaign, signed=fresh) is not None
    assert identity_read(campaign=campaign, signed=stale) is None


def test_an_identity_reads_a_criterion_only_as_an_integer(campaign):
    """A ``True`` is an ``int`` to Python; it names no criterion."""
    assert identity_read(campaign=campaign, signed=_signed(campaign, criterion_id=True)) == (
        Identity(platform="prolific", external_id="p-1", metadata={"study_id": "s"}, language="de")
    )


def _request_with(response: HttpResponse) -> HttpRequest:
    """A request from a browser that holds the cookies ``response`` set."""
    request = RequestFactory().get("/")
    request.COOKIES = {name: morsel.value for name, morsel in response.cookies.items()}
    return request


def test_the_worker_cookies_read_back_what_they_remember(campaign):
    worker = WorkerFactory(campaign=campaign, platform=Worker.Platform.LINK, external_id="l-42")
    response = HttpResponse()
    assert remember_session(RequestFactory().get("/"), response, worker) is response
    assert remember_link_worker(RequestFactory().get("/"), response, worker) is response
    request = _request_with(response)
    assert session_cookie_worker_id(request, campaign) == worker.pk
    assert link_cookie_worker_id(request, campaign) == "l-42"
    for morsel in response.cookies.values():
        assert morsel["httponly"] and morsel["samesite"] == "Lax"
        assert morsel["max-age"] == settings.WORKER_COOKIE_MAX_AGE
        assert not morsel["secure"]  # set from request.is_secure()
    # Another campaign's pages do not read them.
    other = CampaignFactory()
    assert session_cookie_worker_id(request, other) is None
    assert link_cookie_worker_id(request, other) == ""
    # Nor does a browser without them.
    assert session_cookie_worker_id(RequestFactory().get("/"), campaign) is None
    assert link_cookie_worker_id(RequestFactory().get("/"), campaign) == ""


def test_worker_cookies_swapped_or_forged_are_not_read(campaign):
    worker = WorkerFactory(campaign=campaign, platform=Worker.Platform.LINK, external_id="l-42")
    response = HttpResponse()
    remember_session(RequestFactory().get("/"), response, worker)
    remember_link_worker(RequestFactory().get("/"), response, worker)
    request = _request_with(response)
    session_name, link_name = f"hews_{campaign.pk}", f"hew_{campaign.pk}"
    # Each cookie's value under the other's name (a salt of its own each).
    request.COOKIES = {
        session_name: response.cookies[link_name].value,
        link_name: response.cookies[session_name].value,
    }
    assert session_cookie_worker_id(request, campaign) is None
    assert link_cookie_worker_id(request, campaign) == ""
    request.COOKIES = {session_name: str(worker.pk), link_name: "l-42"}  # unsigned
    assert session_cookie_worker_id(request, campaign) is None
    assert link_cookie_worker_id(request, campaign) == ""


def test_the_consent_page_is_rendered_in_one_place():
    """The worker's consent page and the designer's preview of it share
    ``consent_page``: no page module builds the page's context on its own."""
    renderers = modules_containing("annotations/shared/consent.html")
    assert renderers == ["annotations/access/workers.py"]
