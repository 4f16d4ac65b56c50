"""The crowd worker's access: worker page decorators, the worker's token, the problem page
and the consent page (:func:`consent_page`, which the designer's preview shows too).

A worker's pages live under ``/w/<slug>/s/<token>/``, the token being the signed worker
id: the pages then work inside MTurk's iframe (where cookies may be blocked) and in any
browser the worker opens them in. The token is the worker's only credential on those
pages; :func:`worker_session_view` reads it (and the campaign) once for the view.

Before a worker exists, the entry page signs who they are (:func:`identity_sign`) into
the consent form, and the consent post reads it back (:func:`identity_read`). Two
signed cookies let a browser come back from the entry link: a plain-link worker's id
(:func:`link_cookie_worker_id`, :func:`remember_link_worker`) and the worker whose
session the browser started (:func:`session_cookie_worker_id`, :func:`remember_session`).

Every worker page may be framed by the crowd platforms in
``settings.WORKER_FRAME_ANCESTORS`` (MTurk shows HITs in an iframe); all other pages of
the site refuse framing. Worker pages speak the worker's language (:func:`interface_for`).
The pages themselves are in ``annotations.views.sessions`` (entry, consent, the session's
page with the task in hand), ``annotations.views.judgements`` (the task page's submit) and
``annotations.views.drafts`` (autosave); the URLs one of them gives to another are here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from django import forms
from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt

from annotations.core.languages import INTERFACE_LANGUAGES, interface_language, worker_language
from annotations.models import Campaign, Criterion, Worker
from annotations.selectors import sessions as session_selectors
from annotations.selectors.criteria import example_for
from common.converters import whole_number

_TOKEN_SALT = "humaneval.worker.session"
_IDENTITY_SALT = "humaneval.worker.identity"
_LINK_COOKIE_SALT = "humaneval.worker.link"
_SESSION_COOKIE_SALT = "humaneval.worker.returning"
# How long a consent page may stay open before its signed identity is refused.
IDENTITY_MAX_AGE = 60 * 60 * 24 * 7

View = Callable[..., HttpResponse]


def framable_by_crowd_platforms(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Let the view's pages be shown in an iframe by ``settings.WORKER_FRAME_ANCESTORS``.

    MTurk shows an ExternalQuestion HIT in an iframe on its own origin. The response
    drops ``X-Frame-Options`` (it cannot name origins) and its CSP ``frame-ancestors``
    names the configured origins instead of ``'none'``. The setting is read per request,
    so a deployment (``HUMANEVAL_FRAME_ANCESTORS``) or a test can change it.
    """

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        response.xframe_options_exempt = True  # type: ignore[attr-defined]
        # What django-csp's ``csp_replace`` decorator sets, built at request time.
        replace = dict(getattr(response, "_csp_replace", None) or {})
        replace["frame-ancestors"] = list(settings.WORKER_FRAME_ANCESTORS) or ["'none'"]
        response._csp_replace = replace  # type: ignore[attr-defined]
        return response

    return wrapped


def worker_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A worker page: framable by crowd platforms, and never cached.

    A worker's page shows the state of their session (consent, the task in hand, the
    end), under a URL that carries their token: no browser or proxy keeps a copy
    (``Cache-Control: no-store``), so the back button asks the server again (and a
    returning worker is sent on to where they are) and no shared cache holds the page.
    """
    framable = framable_by_crowd_platforms(view)

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = framable(request, *args, **kwargs)
        add_never_cache_headers(response)
        return response

    return wrapped


def worker_form_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A worker page that takes POSTs (:func:`worker_page`), exempt from the CSRF cookie check.

    Why no CSRF cookie: inside MTurk's iframe the site is a third party, and browsers that
    block third-party cookies (Safari, Chrome with the setting on) never send Django's CSRF
    cookie, so every worker POST would fail. Nor is it needed: CSRF abuses an ambient
    credential (a cookie the browser adds by itself), and these views use none. The
    worker is identified only by the signed token in the URL (or, before consent, the
    signed identity in the form), which a cross-site attacker cannot forge: a forged or
    missing token is refused before anything is read or written, and a sender who holds
    a valid token could use it directly without any victim's browser.
    """
    return csrf_exempt(worker_page(view))


def worker_token(worker: Worker) -> str:
    """The worker's credential in their pages' URLs: their id, signed."""
    return signing.Signer(salt=_TOKEN_SALT).sign(str(worker.pk))


def _worker_id_from_token(token: str) -> int | None:
    try:
        return int(signing.Signer(salt=_TOKEN_SALT).unsign(token))
    except (signing.BadSignature, ValueError):
        return None


def _worker_from_token(campaign: Campaign, token: str) -> Worker | None:
    worker_id = _worker_id_from_token(token)
    if worker_id is None:
        return None
    return Worker.objects.filter(pk=worker_id, campaign=campaign).first()


@dataclass(frozen=True)
class Identity:
    """Who a worker not yet created is, as the entry page read it from the link.

    ``language`` is the one they will judge in (empty if none was chosen);
    ``criterion_id`` the one criterion a set-up 2 worker will judge (None otherwise).
    """

    platform: str
    external_id: str
    metadata: dict[str, Any] = field(default_factory=dict)
    language: str = ""
    criterion_id: int | None = None


def identity_sign(
    *,
    campaign: Campaign,
    platform: str,
    external_id: str,
    metadata: dict[str, Any],
    language: str,
    criterion_id: int | None,
) -> str:
    """The identity the consent form carries until the worker agrees: signed, for this
    campaign only, readable by :func:`identity_read` for :data:`IDENTITY_MAX_AGE` seconds."""
    return signing.dumps(
        {
            "c": campaign.pk,
            "p": platform,
            "x": external_id,
            "m": metadata,
            "l": language,
            # set-up 2: the one criterion this worker will judge, explained alone
            "k": criterion_id,
        },
        salt=_IDENTITY_SALT,
    )


def identity_read(*, campaign: Campaign, signed: str) -> Identity | None:
    """The identity :func:`identity_sign` signed for this campaign, or None if it is
    missing, forged, older than :data:`IDENTITY_MAX_AGE` or another campaign's."""
    try:
        found = signing.loads(signed, salt=_IDENTITY_SALT, max_age=IDENTITY_MAX_AGE)
    except signing.BadSignature:  # SignatureExpired is one
        return None
    if not isinstance(found, dict) or found.get("c") != campaign.pk:
        return None
    if not all(key in found for key in ("p", "x", "m")):
        return None
    criterion_id = found.get("k")
    return Identity(
        platform=found["p"],
        external_id=found["x"],
        metadata=found["m"],
        language=str(found.get("l") or ""),
        criterion_id=(
            criterion_id
            if isinstance(criterion_id, int) and not isinstance(criterion_id, bool)
            else None
        ),
    )


def _link_cookie_name(campaign_id: int) -> str:
    return f"hew_{campaign_id}"


def _session_cookie_name(campaign_id: int) -> str:
    return f"hews_{campaign_id}"


def _set_worker_cookie(
    request: HttpRequest, response: HttpResponse, name: str, value: str, salt: str
) -> None:
    response.set_signed_cookie(
        name,
        value,
        salt=salt,
        max_age=settings.WORKER_COOKIE_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )


def link_cookie_worker_id(request: HttpRequest, campaign: Campaign) -> str:
    """The id of the plain-link worker this browser was (their signed cookie), or ""."""
    return (
        request.get_signed_cookie(
            _link_cookie_name(campaign.pk), default="", salt=_LINK_COOKIE_SALT
        )
        or ""
    )


def remember_link_worker(
    request: HttpRequest, response: HttpResponse, worker: Worker
) -> HttpResponse:
    """Let this browser come back to a plain-link worker's session from the plain link:
    their id, signed, in a cookie. Inside a third-party iframe the browser may drop it;
    the session URL does not need it."""
    _set_worker_cookie(
        request,
        response,
        _link_cookie_name(worker.campaign_id),
        worker.external_id,
        _LINK_COOKIE_SALT,
    )
    return response


def session_cookie_worker_id(request: HttpRequest, campaign: Campaign) -> int | None:
    """The worker whose session this browser started (its signed cookie), if any. No query."""
    value = request.get_signed_cookie(
        _session_cookie_name(campaign.pk), default="", salt=_SESSION_COOKIE_SALT
    )
    return whole_number(value)


def remember_session(request: HttpRequest, response: HttpResponse, worker: Worker) -> HttpResponse:
    """Let this browser come back to the worker's session from the entry link: the
    signed worker id in a cookie of its own (a platform id alone never opens a session).
    Inside a third-party iframe the browser may drop it; the platform's own session
    (``SESSION_ID``, ``assignmentId``) then proves the worker instead."""
    _set_worker_cookie(
        request,
        response,
        _session_cookie_name(worker.campaign_id),
        str(worker.pk),
        _SESSION_COOKIE_SALT,
    )
    return response


def worker_session_url(campaign: Campaign, worker: Worker) -> str:
    """The worker's session page (``annotations.views.sessions.session``)."""
    return reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)])


def worker_submit_url(campaign: Campaign, token: str, assignment_id: int) -> str:
    """Where the page of an assignment posts its answers (``annotations.views.judgements``)."""
    return reverse("annotations:worker-submit", args=[campaign.slug, token, assignment_id])


def worker_draft_url(campaign: Campaign, token: str, assignment_id: int) -> str:
    """Where the page of an assignment autosaves its answers (``autosave.js``,
    ``annotations.views.drafts``): the task page, and the same page shown again with
    errors, so that corrections typed then survive a reload too."""
    return reverse("annotations:worker-draft", args=[campaign.slug, token, assignment_id])


def problem_page(
    request: HttpRequest, kind: str, campaign: Campaign | None = None, status: int = 200
) -> HttpResponse:
    """The page that tells a worker why they cannot go on (``kind``: an unknown study, a
    paused one, a bad link...), in the language already active."""
    return render(
        request,
        "annotations/shared/problem.html",
        {
            "kind": kind,
            "campaign": campaign,
            # What an unfilled link shows instead of the id (not translated).
            "placeholder_prolific": "{{%PROLIFIC_PID%}}",
            "placeholder_mturk": "${workerId}",
        },
        status=status,
    )


def consent_page(
    request: HttpRequest,
    campaign: Campaign,
    criteria: Sequence[Criterion],
    *,
    form: forms.Form,
    progress: session_selectors.Progress | None,
    status: int = 200,
    **extra: Any,
) -> HttpResponse:
    """The consent and instructions page, as a worker's session shows it and as the
    designer's preview shows it: the campaign, each of ``criteria`` with its scale and
    worked example, the consent ``form``, the ``progress`` bar (None: none). ``extra`` is
    what only one of them shows: where a worker's consent posts (``consent_action``, with
    the signed ``identity`` of a worker not yet created), the preview's notes
    (``preview``, ``one_each``)."""
    return render(
        request,
        "annotations/shared/consent.html",
        {
            "campaign": campaign,
            "form": form,
            "progress": progress,
            "explained": [(c, example_for(c)) for c in criteria],
            **extra,
        },
        status=status,
    )


def interface_for(
    request: HttpRequest, campaign: Campaign | None = None, worker: Worker | None = None
) -> str:
    """The language of the worker's interface: the worker's (fixed at consent), else the
    one they would get (the campaign's, the link's ``?lang=``, the browser's), as one of
    the translated interfaces (else English)."""
    if worker is not None and worker.language:
        return interface_language(worker.language)
    available = (campaign.languages if campaign else None) or list(INTERFACE_LANGUAGES)
    return interface_language(
        worker_language(
            available,
            requested=request.GET.get("lang", "")[:40],
            accept_language=request.headers.get("Accept-Language", "")[:500],
        )
    )


def _open_campaign(request: HttpRequest, slug: str) -> Campaign | HttpResponse:
    """The campaign, if it is live; otherwise the page that says why not (in the
    worker's language)."""
    campaign = session_selectors.campaign_by_slug(slug=slug)
    if campaign is None:
        with translation.override(interface_for(request)):
            return problem_page(request, "unknown", status=404)
    if campaign.status != Campaign.Status.LIVE:
        kind = {"paused": "paused", "closed": "closed"}.get(campaign.status, "not-open")
        with translation.override(interface_for(request, campaign)):
            return problem_page(request, kind, campaign)
    return campaign


def live_campaign_view(view: View) -> View:
    """A page of a live campaign before the worker has a session (entry, consent of a new
    worker): the view gets the campaign instead of its slug."""

    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
        campaign = _open_campaign(request, slug)
        if isinstance(campaign, HttpResponse):
            return campaign
        with translation.override(interface_for(request, campaign)):
            return view(request, campaign, **kwargs)

    return wrapped


def worker_session_view(*, live_only: bool = True, plain: bool = False) -> Callable[[View], View]:
    """A page of a worker's session (``/w/<slug>/s/<token>/...``): the view gets the
    campaign and the token's worker instead of the slug, and keeps the token.

    ``live_only``: the campaign must be live, else the page says why not (submit and
    draft skip this check: an answer to a task already handed out is not turned away here).
    An unknown campaign or a forged token is a 404, a page or (``plain``) a short text.
    """

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, slug: str, token: str, **kwargs: Any) -> HttpResponse:
            # The usual case in one statement: a valid token of a worker of this campaign,
            # read with the campaign. Anything else takes the slower path that says why.
            worker_id = _worker_id_from_token(token)
            known = (
                session_selectors.session_worker(worker_id=worker_id, slug=slug)
                if worker_id is not None
                else None
            )
            if known is not None and (
                not live_only or known.campaign.status == Campaign.Status.LIVE
            ):
                with translation.override(interface_for(request, known.campaign, known)):
                    return view(request, known.campaign, known, token, **kwargs)
            if live_only:
                found = _open_campaign(request, slug)
                if isinstance(found, HttpResponse):
                    return found
                campaign: Campaign | None = found
            else:
                campaign = Campaign.objects.filter(slug=slug).first()
            worker = _worker_from_token(campaign, token) if campaign else None
            with translation.override(interface_for(request, campaign, worker)):
                if campaign is None or worker is None:
                    if plain:
                        return HttpResponse(
                            gettext("Unknown link."), status=404, content_type="text/plain"
                        )
                    return problem_page(request, "bad-link", campaign, status=404)
                return view(request, campaign, worker, token, **kwargs)

        return wrapped

    return decorate
