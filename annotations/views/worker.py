"""Crowd-worker pages: entry from Prolific, MTurk or a link; consent; tasks; completion.

A worker's pages live under ``/w/<slug>/s/<token>/``, the token being the signed worker
id: the pages then work inside MTurk's iframe (where cookies may be blocked) and in
any browser the worker opens them in. Link workers are recognised by a signed cookie.

A worker row is created only when consent is given: the entry page (a GET, which link
previewers and crawlers also make) shows the consent form carrying the identity read
from the link, signed; the consent POST creates the worker.

Every worker page may be framed by the crowd platforms in
``settings.WORKER_FRAME_ANCESTORS`` (MTurk shows HITs in an iframe); all other pages of
the site refuse framing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from annotations.access import campaigns as access
from annotations.core.languages import INTERFACE_LANGUAGES, interface_language, worker_language
from annotations.forms.worker import SLIDER_START, ConsentForm, ScoresForm
from annotations.models import Assignment, Campaign, CampaignMembership, Criterion, Task, Worker
from annotations.selectors import criteria as criteria_selectors
from annotations.selectors import platforms as platform_selectors
from annotations.selectors import worker as worker_selectors
from annotations.services import assignment as assignment_services
from annotations.services import drafts as draft_services
from annotations.services import judgements as judgement_services
from annotations.services import platforms as platform_services
from annotations.services import sessions as session_services
from annotations.services.judgements import max_magnitude
from annotations.services.languages import LanguageQuotaFull, language_quota_full
from common.errors import DomainError
from common.http import HtmxHttpRequest

_TOKEN_SALT = "humaneval.worker.session"
_LINK_COOKIE_SALT = "humaneval.worker.link"
_SESSION_COOKIE_SALT = "humaneval.worker.returning"
_IDENTITY_SALT = "humaneval.worker.identity"
# How long a consent page may stay open before its signed identity is refused.
_IDENTITY_MAX_AGE = 60 * 60 * 24 * 7


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


def _session_url(campaign: Campaign, worker: Worker) -> str:
    return reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)])


def _problem(
    request: HttpRequest, kind: str, campaign: Campaign | None = None, status: int = 200
) -> HttpResponse:
    return render(
        request,
        "annotations/worker/problem.html",
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
            return _problem(request, "unknown", status=404)
    if campaign.status != Campaign.Status.LIVE:
        kind = {"paused": "paused", "closed": "closed"}.get(campaign.status, "not-open")
        with translation.override(interface_for(request, campaign)):
            return _problem(request, kind, campaign)
    return campaign


View = Callable[..., HttpResponse]


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
                worker_selectors.session_worker(worker_id=worker_id, slug=slug)
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
                    return _problem(request, "bad-link", campaign, status=404)
                return view(request, campaign, worker, token, **kwargs)

        return wrapped

    return decorate


@worker_page
@require_http_methods(["GET"])
@live_campaign_view
def entry(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """``/w/<slug>/``: recognise the worker (Prolific, MTurk or link) and send them on.

    A known worker goes on to their session. Anyone else sees the consent page, which
    carries their identity signed; nothing is written until they agree (``start``).
    """
    arrival = platform_selectors.arrival_from(
        campaign=campaign,
        params=request.GET,
        link_worker_id=request.get_signed_cookie(
            _link_cookie_name(campaign), default="", salt=_LINK_COOKIE_SALT
        )
        or "",
    )
    if arrival == "mturk-preview":
        return _mturk_preview(request, campaign)
    if isinstance(arrival, str):  # "placeholder" or "bad-link"
        return _problem(request, arrival, campaign, status=400)
    try:
        known = platform_services.worker_returning(
            campaign=campaign,
            arrival=arrival,
            session_worker_id=_session_cookie_worker_id(request, campaign),
        )
    except session_services.SessionElsewhere:
        return _problem(request, "session-elsewhere", campaign, status=403)
    if known is not None:
        # This browser may come back by itself from now on (another device that came
        # through the same platform session, say).
        return _remember_session(request, redirect(_session_url(campaign, known)), known)
    # The language the worker judges in: the campaign's (one language), else ?lang=,
    # else the browser's; fixed at consent (``worker_enrol``).
    language = worker_language(
        campaign.languages or ["en"],
        requested=request.GET.get("lang", "")[:40],
        accept_language=request.headers.get("Accept-Language", "")[:500],
    )
    # A full language is said before the worker reads consent and instructions (the
    # consent post checks again, under the campaign row's lock).
    if language_quota_full(campaign=campaign, language=language):
        return _problem(request, "language-full", campaign, status=409)
    criteria = criteria_selectors.criteria_in_order(campaign=campaign)
    criterion_id = criteria_selectors.criterion_for_newcomer(campaign=campaign, criteria=criteria)
    identity = signing.dumps(
        {
            "c": campaign.pk,
            "p": arrival.platform,
            "x": arrival.external_id,
            "m": arrival.metadata,
            "l": language,
            # set-up 2: the one criterion this worker will judge, explained alone below
            "k": criterion_id,
        },
        salt=_IDENTITY_SALT,
    )
    return _consent_page(
        request,
        campaign,
        None,
        "",
        ConsentForm(),
        identity=identity,
        language=language,
        criterion_id=criterion_id,
        criteria=criteria,
    )


def _link_cookie_name(campaign: Campaign) -> str:
    return f"hew_{campaign.pk}"


def _session_cookie_worker_id(request: HttpRequest, campaign: Campaign) -> int | None:
    """The worker whose session this browser started (its signed cookie), if any. No query."""
    value = request.get_signed_cookie(f"hews_{campaign.pk}", default="", salt=_SESSION_COOKIE_SALT)
    return int(value) if value and value.isdigit() else None


def _remember_session(request: HttpRequest, response: HttpResponse, worker: Worker) -> HttpResponse:
    """Let this browser come back to the worker's session from the entry link: the
    signed worker id in a cookie of its own (a platform id alone never opens a session).
    Inside a third-party iframe the browser may drop it; the platform's own session
    (``SESSION_ID``, ``assignmentId``) then proves the worker instead."""
    response.set_signed_cookie(
        f"hews_{worker.campaign_id}",
        str(worker.pk),
        salt=_SESSION_COOKIE_SALT,
        max_age=settings.WORKER_COOKIE_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


def _identity_from(campaign: Campaign, signed: str) -> dict[str, Any] | None:
    """The identity the entry page signed for this campaign, or None if forged or stale."""
    try:
        identity = signing.loads(signed, salt=_IDENTITY_SALT, max_age=_IDENTITY_MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(identity, dict) or identity.get("c") != campaign.pk:
        return None
    return identity


@worker_form_view
@require_http_methods(["GET", "POST"])
@live_campaign_view
def start(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """Consent of a new worker: create the worker from the signed identity, then go on.

    CSRF: see ``worker_form_view``; here the credential is the identity the entry page
    signed (campaign, platform, id), refused if missing, forged or for another campaign.

    A GET (the address bar after a refused consent, reloaded or bookmarked) is sent on
    to the study's entry page (which sends a returning worker on to their session)
    rather than a bare 405.
    """
    if request.method == "GET":
        entry_url = reverse("annotations:worker-entry", args=[campaign.slug])
        query = request.META.get("QUERY_STRING", "")[:2000]
        return redirect(f"{entry_url}?{query}" if query else entry_url)
    signed = request.POST.get("identity", "")
    identity = _identity_from(campaign, signed)
    if identity is None:
        return _problem(request, "bad-link", campaign, status=400)
    # The language chosen on the entry page (signed with the identity) speaks on.
    with translation.override(interface_language(str(identity.get("l") or "en"))):
        return _start(request, campaign, identity, signed)


def _start(
    request: HttpRequest, campaign: Campaign, identity: dict[str, Any], signed: str
) -> HttpResponse:
    form = ConsentForm(request.POST)
    if not form.is_valid():
        return _consent_page(
            request,
            campaign,
            None,
            "",
            form,
            status=400,
            identity=signed,
            language=str(identity.get("l", "")),
            criterion_id=_signed_criterion(identity),
        )
    try:
        worker = platform_services.worker_enrol(
            campaign=campaign,
            platform=identity["p"],
            external_id=identity["x"],
            metadata=identity["m"],
            language=str(identity.get("l", "")),
            criterion_id=_signed_criterion(identity),
            session_worker_id=_session_cookie_worker_id(request, campaign),
        )
    except LanguageQuotaFull:
        return _problem(request, "language-full", campaign, status=409)
    except session_services.SessionElsewhere:
        return _problem(request, "session-elsewhere", campaign, status=403)
    except DomainError:
        return _problem(request, "bad-link", campaign, status=400)
    response = _remember_session(
        request, HttpResponseRedirect(_session_url(campaign, worker), status=303), worker
    )
    if worker.platform == Worker.Platform.LINK:
        # Lets the same browser come back to its session from the plain link. Inside a
        # third-party iframe the browser may drop it; the session URL does not need it.
        response.set_signed_cookie(
            _link_cookie_name(campaign),
            worker.external_id,
            salt=_LINK_COOKIE_SALT,
            max_age=settings.WORKER_COOKIE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure(),
        )
    return response


def _signed_criterion(identity: dict[str, Any]) -> int | None:
    """The criterion the entry page chose for this worker (``k``), if any."""
    value = identity.get("k")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _mturk_preview(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """What an MTurk worker sees before accepting the HIT. Records nothing.

    In the language the worker would judge in (as the entry page chooses it): a task in
    that language, and the campaign's texts as the designer translated them, so that the
    description, instructions and example are not English under German buttons."""
    languages = campaign.languages or ["en"]
    language = worker_language(
        languages,
        requested=request.GET.get("lang", "")[:40],
        accept_language=request.headers.get("Accept-Language", "")[:500],
    )
    task = worker_selectors.preview_task(campaign=campaign, language=language)
    page = worker_selectors.task_page_preview(task=task) if task else None
    shown = campaign
    if language != languages[0]:
        shown = worker_selectors.campaign_in_language(campaign, language)
    return render(
        request, "annotations/worker/mturk_preview.html", {"campaign": shown, "page": page}
    )


def _task_context(
    page: worker_selectors.TaskPage,
    form: ScoresForm,
    progress: worker_selectors.Progress | None,
    **extra: Any,
) -> dict[str, Any]:
    slider = page.criterion.scale == Criterion.Scale.SLIDER
    # Each output's title, written once per output here rather than by a
    # ``blocktranslate`` every time the page names it (the slider's "same score as"
    # lists name every other output).
    titles = {s.slot: gettext("Output %(letter)s") % {"letter": s.letter} for s in page.slots}
    slots = []
    focused = False
    for s in page.slots:
        bound = form[f"score_{s.slot}"]
        tie_errors = form[f"tie_{s.slot}"].errors if slider else []
        # The first field in error gets ``autofocus``, which works without JavaScript
        # (a full page) and with htmx (which focuses [autofocus] in swapped content).
        check_name = f"check_{s.slot}"
        check_errors = form[check_name].errors if check_name in form.fields else []
        focus = ""
        if not focused and (bound.errors or tie_errors or check_errors):
            focus = "score" if bound.errors else "tie" if tie_errors else "check"
            focused = True
        slots.append(
            {
                # Slot numbers as text: the page writes each some ten times, and a
                # number would be localised every time.
                "slot": str(s.slot),
                "letter": s.letter,
                "title": titles[s.slot],
                "score_label": gettext("Score for output %(letter)s") % {"letter": s.letter},
                "text": s.text,
                "value": bound.value() or "",
                "errors": bound.errors,
                "touched": form[f"touched_{s.slot}"].value() if slider else "",
                "tie": form[f"tie_{s.slot}"].value() if slider else "",
                "tie_errors": tie_errors,
                "keep": bool(form[f"keep_{s.slot}"].value()) if slider else False,
                "offer_keep": slider
                and (s.slot in form.untouched or form[f"keep_{s.slot}"].value()),
                "others": [
                    {"slot": str(o.slot), "letter": o.letter, "title": titles[o.slot]}
                    for o in page.slots
                    if o.slot != s.slot
                ],
                "focus": focus,
                **_checks_context(form, s.slot),
            }
        )
    return {
        "page": page,
        "campaign": page.campaign,
        "criterion": page.criterion,
        "form": form,
        "slots": slots,
        "progress": progress,
        "levels": page.criterion.likert_levels,
        "max_digits": len(str(max_magnitude(page.criterion))),
        "slider_start": SLIDER_START,
        **extra,
    }


def _checks_context(form: ScoresForm, slot: int) -> dict[str, Any]:
    """The content checklist of one output (RankME): the boxes offered, ticked, errors."""
    name = f"check_{slot}"
    if name not in form.fields:
        return {"checks": [], "check_errors": []}
    ticked = set(form[name].value() or [])
    return {
        "checks": [
            {"key": key, "label": label, "ticked": key in ticked}
            for key, label in form.fields[name].choices  # type: ignore[attr-defined]
        ],
        "check_errors": form[name].errors,
    }


def _render_task(
    request: HtmxHttpRequest,
    page: worker_selectors.TaskPage,
    form: ScoresForm,
    progress: worker_selectors.Progress | None,
    *,
    action: str,
    status: int = 200,
    **extra: Any,
) -> HttpResponse:
    context = _task_context(page, form, progress, action=action, **extra)
    template = "annotations/worker/task.html"
    if request.htmx:
        template += "#task-form"
    return render(request, template, context, status=status)


@worker_page
@worker_session_view()
def session(
    request: HtmxHttpRequest, campaign: Campaign, worker: Worker, token: str
) -> HttpResponse:
    """The worker's current page: consent, the current task, the stop page or the end."""
    if worker.stopped:
        return _stopped(request, campaign, worker)
    if worker.consented_at is None:
        return _consent_page(request, campaign, worker, token, ConsentForm())
    found = assignment_services.page_next_for(worker=worker, campaign=campaign)
    assignment = found.assignment
    progress = (
        worker_selectors.Progress(done=found.pages_done, total=campaign.tasks_per_worker)
        if found.pages_done is not None
        else worker_selectors.worker_progress(worker=worker, campaign=campaign)
    )
    if assignment is None:
        worker.refresh_from_db(fields=["stopped"])
        if worker.stopped:
            return _stopped(request, campaign, worker)
        if progress.done == 0:
            # Turned away before any task: Prolific and MTurk count this as screened out.
            return _screened_out(request, campaign, worker)
        return _done(request, campaign, worker)
    assignment.task.campaign = campaign
    action = reverse("annotations:worker-submit", args=[campaign.slug, token, assignment.pk])
    extra: dict[str, Any] = {
        "draft_url": _draft_url(campaign, token, assignment),
        "notice": (
            str(ALREADY_SUBMITTED)
            if request.GET.get("already")
            else str(UNKNOWN_TASK)
            if request.GET.get("unknown")
            else str(NEW_CRITERION)
            if request.GET.get("after", str(assignment.criterion_id))
            != str(assignment.criterion_id)
            else ""
        ),
    }
    siblings = worker_selectors.page_assignments(assignment=assignment)
    if len(siblings) > 1:
        # The page autosaves onto its first assignment (the one the form posts to).
        forms = [_page_form(a, None, initial=True, draft=assignment) for a in siblings]
        return _render_together(request, forms, progress, action=action, **extra)
    page = worker_selectors.task_page_for(assignment=assignment, task_outputs=found.task_outputs)
    form = ScoresForm(
        criterion=page.criterion, letters=page.letters, initial=_draft_initial(assignment)
    )
    return _render_task(request, page, form, progress, action=action, **extra)


def _consent_page(
    request: HttpRequest,
    campaign: Campaign,
    worker: Worker | None,
    token: str,
    form: ConsentForm,
    *,
    status: int = 200,
    identity: str = "",
    language: str = "",
    criterion_id: int | None = None,
    criteria: list[Criterion] | None = None,
) -> HttpResponse:
    """Consent and instructions: the criteria the worker judges (set-up 2: their one
    criterion, ``criterion_id`` before they exist), each with its scale and worked
    example.

    For a worker not yet created (``worker`` None) the form posts the signed ``identity``
    to ``start``; for an existing worker it posts to their session's consent URL. The
    designer's texts are shown in the worker's language where translated.
    """
    language = language or (worker.language if worker is not None else "")
    criteria = criteria_selectors.criteria_explained(
        campaign=campaign, worker=worker, criterion_id=criterion_id, criteria=criteria
    )
    if language and language != (campaign.languages or ["en"])[0]:
        campaign = worker_selectors.campaign_in_language(campaign, language)
        criteria = [worker_selectors.criterion_in_language(c, language) for c in criteria]
    scales = list(dict.fromkeys(c.scale for c in criteria))
    likert = next((c for c in criteria if c.scale == Criterion.Scale.LIKERT), None)
    return render(
        request,
        "annotations/worker/consent.html",
        {
            "campaign": campaign,
            "worker": worker,
            "form": form,
            "token": token,
            "identity": identity,
            "consent_action": (
                reverse("annotations:worker-consent", args=[campaign.slug, token])
                if worker is not None
                else _start_action(request, campaign)
            ),
            "progress": (
                worker_selectors.worker_progress(worker=worker, campaign=campaign)
                if worker is not None
                else worker_selectors.Progress(done=0, total=campaign.tasks_per_worker)
            ),
            "criteria": criteria,
            "explained": [(c, criteria_selectors.example_for(c)) for c in criteria],
            "scales": scales,
            "likert_example": likert.likert_levels if likert else [],
        },
        status=status,
    )


def _start_action(request: HttpRequest, campaign: Campaign) -> str:
    """Where a new worker's consent posts: ``start``, with the entry's query string (the
    platform's parameters), so that the address left in the bar after a refused consent
    leads back to the same entry when reloaded (``start`` sends a GET on to the entry)."""
    url = reverse("annotations:worker-start", args=[campaign.slug])
    query = request.META.get("QUERY_STRING", "")[:2000]
    return f"{url}?{query}" if query else url


@worker_form_view
@require_http_methods(["GET", "POST"])
@worker_session_view()
def consent(request: HttpRequest, campaign: Campaign, worker: Worker, token: str) -> HttpResponse:
    """Consent of an existing worker (CSRF: see ``worker_form_view``; the URL's token).

    A GET (the address left after a refused consent, reloaded) goes on to the session."""
    if request.method == "GET":
        return redirect(_session_url(campaign, worker))
    form = ConsentForm(request.POST)
    if not form.is_valid():
        return _consent_page(request, campaign, worker, token, form, status=400)
    session_services.worker_consent(worker=worker)
    return redirect(_session_url(campaign, worker))


def _draft_url(campaign: Campaign, token: str, assignment: Assignment) -> str:
    """Where the page autosaves its answers (``autosave.js``): the task page, and the same
    page shown again with errors, so that corrections typed then survive a reload too."""
    return reverse("annotations:worker-draft", args=[campaign.slug, token, assignment.pk])


def _to_session(request: HtmxHttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url, status=303)


@worker_form_view
@require_http_methods(["GET", "POST"])
@worker_session_view(live_only=False)
def submit(
    request: HtmxHttpRequest, campaign: Campaign, worker: Worker, token: str, assignment_id: int
) -> HttpResponse:
    """Validate the scores (inline errors keep what was entered) and record them once.

    One transaction: the worker and the assignment are locked first (as
    ``judgement_submit`` needs), so the assignment is read once; a refused answer
    writes nothing. A GET (the address bar after a page shown again with errors
    without JavaScript, reloaded) is sent on to the session, which shows the task in
    hand with its autosaved answers, rather than a bare 405."""
    session_url = _session_url(campaign, worker)
    if request.method == "GET":
        return redirect(session_url)
    with transaction.atomic():
        assignment = judgement_services.assignment_to_submit(
            worker=worker, assignment_id=assignment_id
        )
        if assignment is None:
            # Not a task of this worker (an address edited by hand, a stale bookmark of
            # someone else's): nothing recorded, and the worker is told that, not that
            # the task was already submitted.
            return _to_session(request, f"{session_url}?unknown=1")
        if assignment.state == Assignment.State.SUBMITTED:
            # Already recorded (a second tab, a double click, a retry): whatever was
            # posted this time, the worker moves on to their current page and is told why.
            return _to_session(request, f"{session_url}?already=1")
        draft_url = _draft_url(campaign, token, assignment)
        siblings = worker_selectors.page_assignments(assignment=assignment)
        if len(siblings) > 1:
            return _submit_together(request, campaign, siblings, session_url, draft_url)
        refused = _record_scores(request, campaign, worker, assignment, session_url, draft_url)
        if refused is not None:
            transaction.set_rollback(True)
            return refused
    # The criterion just judged goes with the worker to the next page, which announces a
    # change of criterion (set-up 2: naturalness tasks, then quality) without a query.
    return _to_session(request, f"{session_url}?after={assignment.criterion_id}")


def _record_scores(
    request: HtmxHttpRequest,
    campaign: Campaign,
    worker: Worker,
    assignment: Assignment,
    session_url: str,
    draft_url: str,
) -> HttpResponse | None:
    """``submit`` of one task, its assignment locked: None when the judgement is
    recorded, else the page that says why not."""
    page = worker_selectors.task_page_for(assignment=assignment)
    form = ScoresForm(request.POST, criterion=page.criterion, letters=page.letters)
    bad = 200 if request.htmx else 400

    def again(**extra: Any) -> HttpResponse:
        # The page again with what was entered; progress is read only then.
        progress = worker_selectors.worker_progress(worker=worker, campaign=campaign)
        return _render_task(
            request,
            page,
            form,
            progress,
            action=request.path,
            status=bad,
            draft_url=draft_url,
            **extra,
        )

    if not form.is_valid():
        return again()
    try:
        judgement_services.judgement_submit(
            assignment=assignment,
            scores=form.cleaned_scores,
            acknowledge_too_fast=form.cleaned_data.get("acknowledge_too_fast", False),
            checks=form.cleaned_checks,
            metadata={"js": bool(form.cleaned_data.get("js"))},
            task_outputs=page.task_outputs or None,
            task=assignment.task,
            already_locked=True,
        )
    except judgement_services.TooFast as error:
        return again(too_fast=error)
    except judgement_services.InvalidScores as error:
        for slot, message in error.errors.items():
            if f"score_{slot}" in form.fields:
                form.add_error(f"score_{slot}", message)
        return again()
    except judgement_services.AssignmentExpired as error:
        return render(
            request,
            "annotations/worker/problem.html",
            {
                "kind": "expired",
                "campaign": campaign,
                "message": str(error),
                "next_url": session_url,
            },
            status=409 if not request.htmx else 200,
        )
    except DomainError as error:
        return render(
            request,
            "annotations/worker/problem.html",
            {
                "kind": "refused",
                "campaign": campaign,
                "message": str(error),
                "next_url": session_url,
            },
            status=409 if not request.htmx else 200,
        )
    return None


# Set-up 1 pages, drafts and second tabs ---------------------------------------------------

ALREADY_SUBMITTED = gettext_lazy(
    "This task was already submitted (here or in another tab or window), so this answer "
    "was not recorded again. Here is your next task."
)

NEW_CRITERION = gettext_lazy(
    "New question from this task on: the question below is not the one you have been "
    "answering. Read it, and how to score it, before you start."
)

UNKNOWN_TASK = gettext_lazy(
    "That address is not one of your tasks (it may have been changed), so nothing was "
    "recorded from it. Here is your current task."
)

DRAFT_TOO_LATE = gettext_lazy(
    "This task was already submitted (here or in another tab or window); what you type "
    "here is not recorded."
)


def _draft_initial(assignment: Assignment, prefix: str = "") -> dict[str, Any]:
    """The answers autosaved on the page (``Assignment.draft``) as a form's initial values."""
    lead = f"{prefix}-" if prefix else ""
    return {
        name[len(lead) :]: value
        for name, value in (assignment.draft or {}).items()
        if name.startswith(lead) and (prefix or "-" not in name)
    }


def _page_form(
    assignment: Assignment, data: Any, *, initial: bool = False, draft: Assignment | None = None
) -> tuple[Assignment, worker_selectors.TaskPage, ScoresForm]:
    """One criterion's part of a set-up 1 page: its fields are named ``c<criterion id>-``."""
    page = worker_selectors.task_page_for(assignment=assignment)
    prefix = f"c{assignment.criterion_id}"
    form = ScoresForm(
        data,
        criterion=page.criterion,
        letters=page.letters,
        prefix=prefix,
        initial=_draft_initial(draft or assignment, prefix) if initial else None,
    )
    return assignment, page, form


def _together_context(
    forms: Sequence[tuple[Assignment | None, worker_selectors.TaskPage, ScoresForm]],
) -> dict[str, Any]:
    """The page of set-up 1: each output once, with one answer per criterion."""
    lead = forms[0][1]
    criteria = [
        {
            "criterion": page.criterion,
            "prefix": form.prefix,
            "levels": page.criterion.likert_levels,
            "max_digits": len(str(max_magnitude(page.criterion))),
        }
        for _, page, form in forms
    ]
    outputs = []
    errors = []
    focused = False
    for s in lead.slots:
        answers = []
        for (_, page, form), c in zip(forms, criteria, strict=True):
            slider = page.criterion.scale == Criterion.Scale.SLIDER
            bound = form[f"score_{s.slot}"]
            focus = bool(bound.errors) and not focused
            focused = focused or focus
            # Several criteria per output: each message names its criterion.
            named = [f"{page.criterion.name.capitalize()}, {e}" for e in bound.errors]
            errors += [(f"{form.prefix}-score-{s.slot}", e) for e in named]
            checks = _checks_context(form, s.slot)
            if checks["check_errors"]:
                first_check = f"{form.prefix}-check-{s.slot}-{checks['checks'][0]['key']}"
                errors += [(first_check, e) for e in checks["check_errors"]]
            answers.append(
                {
                    **c,
                    "id": f"{form.prefix}-score-{s.slot}",
                    "name": f"{form.prefix}-score_{s.slot}",
                    "value": bound.value() or "",
                    "errors": named,
                    "focus": focus,
                    "touched": form[f"touched_{s.slot}"].value() if slider else "",
                    "keep": bool(form[f"keep_{s.slot}"].value()) if slider else False,
                    "offer_keep": slider
                    and (s.slot in form.untouched or bool(form[f"keep_{s.slot}"].value())),
                    **checks,
                }
            )
        outputs.append({"slot": s.slot, "letter": s.letter, "text": s.text, "answers": answers})
    return {
        "page": lead,
        "campaign": lead.campaign,
        "criterion": lead.criterion,
        "together_criteria": criteria,
        "together_standards": _together_standards([page.criterion for _, page, _ in forms]),
        "together_outputs": outputs,
        "together_errors": errors,
        "slider_start": SLIDER_START,
    }


def _together_standards(criteria: Sequence[Criterion]) -> list[dict[str, Any]]:
    """The standards of a set-up 1 page, each shown once (RankME: one standard with its
    value per criterion): the magnitude criteria that have a standard, grouped by its
    input and text, each group with the criteria and values it stands for."""
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for criterion in criteria:
        if criterion.scale != Criterion.Scale.MAGNITUDE or not criterion.standard_text:
            continue
        shown_input = criterion.standard_input if criterion.show_input else ""
        group = groups.setdefault(
            (shown_input, criterion.standard_text),
            {"input": shown_input, "text": criterion.standard_text, "values": []},
        )
        group["values"].append({"criterion": criterion, "standard": criterion.standard})
    return list(groups.values())


def _render_together(
    request: HtmxHttpRequest,
    forms: Sequence[tuple[Assignment | None, worker_selectors.TaskPage, ScoresForm]],
    progress: worker_selectors.Progress | None,
    *,
    action: str,
    status: int = 200,
    **extra: Any,
) -> HttpResponse:
    context = {**_together_context(forms), "progress": progress, "action": action, **extra}
    template = "annotations/worker/task_together.html"
    if request.htmx:
        template += "#together-form"
    return render(request, template, context, status=status)


def _submit_together(
    request: HtmxHttpRequest,
    campaign: Campaign,
    siblings: list[Assignment],
    session_url: str,
    draft_url: str,
) -> HttpResponse:
    """Set-up 1: every criterion's answers of the page, recorded together or not at all."""
    forms = [_page_form(a, request.POST) for a in siblings]
    progress = worker_selectors.worker_progress(worker=siblings[0].worker, campaign=campaign)
    bad = 200 if request.htmx else 400
    if not all([form.is_valid() for _, _, form in forms]):  # every form, for every error
        return _render_together(
            request, forms, progress, action=request.path, draft_url=draft_url, status=bad
        )
    try:
        judgement_services.judgements_submit_page(
            assignments=siblings,
            scores={a.criterion_id: form.cleaned_scores for a, _, form in forms},
            checks={a.criterion_id: form.cleaned_checks for a, _, form in forms},
            acknowledge_too_fast=request.POST.get("acknowledge_too_fast") == "1",
            metadata={"js": bool(request.POST.get("js")), "setup": "together"},
        )
    except judgement_services.TooFast as error:
        return _render_together(
            request,
            forms,
            progress,
            action=request.path,
            draft_url=draft_url,
            status=bad,
            too_fast=error,
        )
    except judgement_services.InvalidPageScores as error:
        for _, page, form in forms:
            for slot, message in error.errors.get(page.criterion.pk, {}).items():
                if f"score_{slot}" in form.fields:
                    form.add_error(f"score_{slot}", message)
        return _render_together(
            request, forms, progress, action=request.path, draft_url=draft_url, status=bad
        )
    except DomainError as error:
        expired = isinstance(error, judgement_services.AssignmentExpired)
        return render(
            request,
            "annotations/worker/problem.html",
            {
                "kind": "expired" if expired else "refused",
                "campaign": campaign,
                "message": str(error),
                "next_url": session_url,
            },
            status=409 if not request.htmx else 200,
        )
    return _to_session(request, session_url)


def _preview_together(
    request: HtmxHttpRequest, campaign: Campaign, group: list[Task]
) -> HttpResponse:
    """A designer's preview of a set-up 1 page: the group's tasks as one page, unrecorded."""
    data = request.POST if request.method == "POST" else None
    forms: list[tuple[Assignment | None, worker_selectors.TaskPage, ScoresForm]] = []
    for task in group:
        page = worker_selectors.task_page_preview(task=task)
        prefix = f"c{page.criterion.pk}"
        form = ScoresForm(data, criterion=page.criterion, letters=page.letters, prefix=prefix)
        forms.append((None, page, form))
    checked = data is not None and all([form.is_valid() for _, _, form in forms])
    return _render_together(
        request,
        forms,
        worker_selectors.Progress(done=0, total=campaign.tasks_per_worker),
        action=request.get_full_path(),
        status=200 if data is None or checked or request.htmx else 400,
        preview=True,
        preview_ok=checked,
    )


@worker_form_view
@require_POST
@worker_session_view(live_only=False, plain=True)
def draft(
    request: HttpRequest, campaign: Campaign, worker: Worker, token: str, assignment_id: int
) -> HttpResponse:
    """Autosave: keep the answers typed so far (the page's script posts the form here).

    204 when kept; 409 with a message when the task was submitted meanwhile (another
    tab), so the page can say so. Authenticated like the submit: the URL's signed token.
    """
    assignment = worker_selectors.assignment_for_worker(worker=worker, assignment_id=assignment_id)
    if assignment is None:
        return HttpResponse(gettext("Unknown task."), status=404, content_type="text/plain")
    # A NUL or a lone surrogate in a field never gets here: the request-bounds middleware
    # (common.middleware) refuses it in every web form, multipart ones included.
    answers = {name: request.POST.getlist(name) for name in request.POST}
    if not draft_services.assignment_draft_save(assignment=assignment, answers=answers):
        return HttpResponse(str(DRAFT_TOO_LATE), status=409, content_type="text/plain")
    return HttpResponse(status=204)


def _done(request: HttpRequest, campaign: Campaign, worker: Worker) -> HttpResponse:
    return _final_page(request, campaign, worker, "done.html", campaign.completion_code)


def _stopped(request: HttpRequest, campaign: Campaign, worker: Worker) -> HttpResponse:
    return _final_page(request, campaign, worker, "stopped.html", campaign.failed_check_code)


def _screened_out(request: HttpRequest, campaign: Campaign, worker: Worker) -> HttpResponse:
    return _final_page(request, campaign, worker, "screened_out.html", campaign.screened_out_code)


def _final_page(
    request: HttpRequest, campaign: Campaign, worker: Worker, template: str, code: str
) -> HttpResponse:
    """The completion or stop page with its code and the way back to the worker's platform."""
    prolific_url = None
    if worker.platform == Worker.Platform.PROLIFIC:
        # A page with a button back to Prolific (its completion URL with the code) rather
        # than an HTTP 302 or a timed redirect: the worker first sees that the work is
        # saved and the code itself, so if Prolific's page does not load (a blocked
        # redirect, a privacy extension) they can still enter the code there by hand; and
        # no page moves on by itself before it is read (WCAG 2.2.1, axe "meta-refresh").
        # tests/browser/test_worker_session.py follows the button to app.prolific.com.
        prolific_url = platform_selectors.prolific_completion_url(code)
    return render(
        request,
        f"annotations/worker/{template}",
        {
            "campaign": campaign,
            "worker": worker,
            "code": code,
            "progress": worker_selectors.worker_progress(worker=worker, campaign=campaign),
            "mturk_submit_url": platform_selectors.mturk_submit_url(
                worker.metadata.get("turk_submit_to", "")
            ),
            "mturk_assignment_id": worker.metadata.get("assignment_id", ""),
            "prolific_url": prolific_url,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def preview(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The real task page for a task of the campaign, for designers. Records nothing."""
    try:
        campaign = access.campaign_for(request.user, slug, CampaignMembership.Role.VIEWER)
    except (Http404, PermissionDenied):
        return _problem(request, "unknown", status=404)
    raw_id = request.GET.get("task", "")
    task = worker_selectors.preview_task(
        campaign=campaign,
        task_id=int(raw_id) if raw_id.isdigit() else None,
        criterion_name=request.GET.get("criterion") or None,
    )
    group = worker_selectors.group_tasks(task=task) if task is not None else []
    if len(group) > 1:
        return _preview_together(request, campaign, group)
    if task is None:
        # Before tasks are built: a sample task made from the uploaded outputs.
        from annotations.selectors.campaigns import sample_task_page

        sample = sample_task_page(
            campaign=campaign, criterion_name=request.GET.get("criterion") or None
        )
        if sample is None:
            return _problem(request, "no-tasks", campaign)
        page = sample
    else:
        page = worker_selectors.task_page_preview(task=task)
    data = request.POST if request.method == "POST" else None
    form = ScoresForm(data, criterion=page.criterion, letters=page.letters)
    checked = data is not None and form.is_valid()
    status = 200 if data is None or checked or request.htmx else 400
    progress = worker_selectors.Progress(done=0, total=campaign.tasks_per_worker)
    return _render_task(
        request,
        page,
        form,
        progress,
        action=request.get_full_path(),
        status=status,
        preview=True,
        preview_ok=checked,
        preview_criteria=list(campaign.criteria.order_by("position", "name")),
    )
