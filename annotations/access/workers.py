"""The crowd worker's access: worker page decorators, the worker's token, the problem page.

A worker's pages live under ``/w/<slug>/s/<token>/``, the token being the signed worker
id: the pages then work inside MTurk's iframe (where cookies may be blocked) and in any
browser the worker opens them in. The token is the worker's only credential on those
pages; :func:`worker_session_view` reads it (and the campaign) once for the view.

Every worker page may be framed by the crowd platforms in
``settings.WORKER_FRAME_ANCESTORS`` (MTurk shows HITs in an iframe); all other pages of
the site refuse framing. Worker pages speak the worker's language (:func:`interface_for`).
The pages themselves are in ``annotations.views.sessions`` (entry, consent, the session's
page with the task in hand), ``annotations.views.judgements`` (the task page's submit) and
``annotations.views.drafts`` (autosave); the URLs one of them gives to another are here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

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
from annotations.models import Campaign, Worker
from annotations.selectors import sessions as session_selectors

_TOKEN_SALT = "humaneval.worker.session"

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
    campaign = Campaign.objects.filter(slug=slug).first()
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
