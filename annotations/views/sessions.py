"""A crowd worker's session: entry from Prolific, MTurk or a link; consent; the session's
page; the completion and stop pages.

A worker's pages live under ``/w/<slug>/s/<token>/``, the token being the signed worker
id (``annotations.access.workers``): the pages then work inside MTurk's iframe (where
cookies may be blocked) and in any browser the worker opens them in. Link workers are
recognised by a signed cookie; that cookie, the one a returning browser holds and the
signed identity the consent form carries are read and written there too.

A worker row is created only when consent is given: the entry page (a GET, which link
previewers and crawlers also make) shows the consent form carrying the identity read
from the link, signed; the consent POST creates the worker. The session's page shows
consent, the task in hand (its page as ``annotations.forms.judgements`` renders it; its
submit is ``annotations.views.judgements``) or the end.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from annotations.access.workers import (
    Identity,
    consent_page,
    identity_read,
    identity_sign,
    link_cookie_worker_id,
    live_campaign_view,
    problem_page,
    remember_link_worker,
    remember_session,
    session_cookie_worker_id,
    worker_draft_url,
    worker_form_view,
    worker_page,
    worker_session_url,
    worker_session_view,
    worker_submit_url,
)
from annotations.core.languages import interface_language, worker_language
from annotations.forms.judgements import page_forms, task_page
from annotations.forms.sessions import ConsentForm
from annotations.models import Assignment, Campaign, Criterion, TaskOutput, Worker
from annotations.selectors import criteria as criteria_selectors
from annotations.selectors import judgements as judgement_selectors
from annotations.selectors import platforms as platform_selectors
from annotations.selectors import sessions as session_selectors
from annotations.services import assignment as assignment_services
from annotations.services import sessions as session_services
from annotations.services.languages import LanguageQuotaFull, language_quota_full
from common.auth import client_ip_address
from common.errors import DomainError
from common.http import HtmxHttpRequest
from common.throttle import throttle_hit

# The notices of the task page, asked for by the query the submit sends the worker on with.
ALREADY_SUBMITTED = gettext_lazy(
    "This task was already submitted (here or in another tab or window), so this answer "
    "was not recorded again. Here is your next task."
)

NEW_CRITERION = gettext_lazy(
    "New question from this task on: the question below is not the one you have been "
    "answering. Read it, and how to score it, before you start."
)

# ... and of the last page, when the submit that sent the worker there recorded nothing.
ALREADY_SUBMITTED_LAST = gettext_lazy(
    "This task was already submitted (here or in another tab or window), so this answer "
    "was not recorded again. The answers submitted before it are saved."
)
UNKNOWN_TASK_LAST = gettext_lazy(
    "That address is not one of your tasks (it may have been changed), so nothing was "
    "recorded from it."
)

UNKNOWN_TASK = gettext_lazy(
    "That address is not one of your tasks (it may have been changed), so nothing was "
    "recorded from it. Here is your current task."
)


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
        link_worker_id=link_cookie_worker_id(request, campaign),
    )
    if arrival == "mturk-preview":
        return _mturk_preview(request, campaign)
    if isinstance(arrival, str):  # "placeholder" or "bad-link"
        return problem_page(request, arrival, campaign, status=400)
    try:
        known = session_services.worker_returning(
            campaign=campaign,
            arrival=arrival,
            session_worker_id=session_cookie_worker_id(request, campaign),
        )
    except session_services.SessionElsewhere:
        return problem_page(request, "session-elsewhere", campaign, status=403)
    if known is not None:
        # This browser may come back by itself from now on (another device that came
        # through the same platform session, say).
        return remember_session(request, redirect(worker_session_url(campaign, known)), known)
    return _newcomer(request, campaign, arrival)


def _newcomer(
    request: HttpRequest, campaign: Campaign, arrival: platform_selectors.Arrival
) -> HttpResponse:
    """The consent page of a worker not yet known, carrying their identity signed; or the
    page that says their language is full."""
    # The language the worker judges in: the campaign's (one language), else ?lang=,
    # else the browser's; fixed at consent (``worker_enrol``).
    language = worker_language(
        campaign.languages_or_default,
        requested=request.GET.get("lang", "")[:40],
        accept_language=request.headers.get("Accept-Language", "")[:500],
    )
    # A full language is said before the worker reads consent and instructions (the
    # consent post checks again, under the campaign row's lock).
    if language_quota_full(campaign=campaign, language=language):
        return problem_page(request, "language-full", campaign, status=409)
    criteria = criteria_selectors.criteria_in_order(campaign=campaign)
    criterion_id = criteria_selectors.criterion_for_newcomer(campaign=campaign, criteria=criteria)
    identity = identity_sign(
        campaign=campaign,
        platform=arrival.platform,
        external_id=arrival.external_id,
        metadata=arrival.metadata,
        language=language,
        criterion_id=criterion_id,
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
    identity = identity_read(campaign=campaign, signed=signed)
    if identity is None:
        return problem_page(request, "bad-link", campaign, status=400)
    # The language chosen on the entry page (signed with the identity) speaks on.
    with translation.override(interface_language(identity.language or "en")):
        return _start(request, campaign, identity, signed)


def _link_worker_of_this_browser(
    request: HttpRequest, campaign: Campaign, identity: Identity
) -> Worker | None:
    """The plain-link worker this browser already is (its signed cookie), when a consent
    of a new plain-link identity arrives from it: a consent page opened in two tabs
    signs two fresh ids, and the second tab's consent made a second worker, to whom the
    link then led (the first one's work out of reach)."""
    if identity.platform != Worker.Platform.LINK:
        return None
    earlier = link_cookie_worker_id(request, campaign)
    if not earlier or earlier == identity.external_id:
        return None
    worker = platform_selectors.worker_with_identity(
        campaign=campaign, platform=Worker.Platform.LINK, external_id=earlier
    )
    if worker is None or worker.consented_at is None:
        return None
    return worker  # a stopped one too: its session says so (a new id would get round it)


def _new_worker(campaign: Campaign, identity: Identity) -> bool:
    """Whether a consent of ``identity`` would create a worker (asked only beyond the
    sign-up limit: a second tab's or a returning worker's consent is never refused)."""
    known = platform_selectors.worker_with_identity(
        campaign=campaign, platform=identity.platform, external_id=identity.external_id
    )
    return known is None


def _signups_over(request: HttpRequest) -> bool:
    """Count a consent from this client address; True beyond WORKER_SIGNUPS_PER_CLIENT in
    the window (each new worker holds a task place: one connection signing up made-up
    participants held every place, and the real ones were turned away). Only a consent
    that would create a worker is then refused (:func:`_new_worker`)."""
    limit = settings.WORKER_SIGNUPS_PER_CLIENT
    if limit <= 0:
        return False
    return throttle_hit(
        scope="worker-signup",
        key=client_ip_address(request) or "unknown",
        limit=limit,
        window=settings.WORKER_SIGNUPS_WINDOW,
    )


def _start(
    request: HttpRequest, campaign: Campaign, identity: Identity, signed: str
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
            language=identity.language,
            criterion_id=identity.criterion_id,
        )
    earlier = _link_worker_of_this_browser(request, campaign, identity)
    if earlier is not None:
        # A second tab's consent page signed another fresh link id: this browser goes on
        # as the worker it already is, not as a second, empty one.
        return remember_session(
            request,
            HttpResponseRedirect(worker_session_url(campaign, earlier), status=303),
            earlier,
        )
    if _signups_over(request) and _new_worker(campaign, identity):
        response = problem_page(request, "busy", campaign, status=429)
        response["Retry-After"] = str(settings.WORKER_SIGNUPS_WINDOW)
        return response
    try:
        worker = session_services.worker_enrol(
            campaign=campaign,
            platform=identity.platform,
            external_id=identity.external_id,
            metadata=identity.metadata,
            language=identity.language,
            criterion_id=identity.criterion_id,
            session_worker_id=session_cookie_worker_id(request, campaign),
        )
    except LanguageQuotaFull:
        return problem_page(request, "language-full", campaign, status=409)
    except session_services.SessionElsewhere:
        return problem_page(request, "session-elsewhere", campaign, status=403)
    except DomainError:
        return problem_page(request, "bad-link", campaign, status=400)
    response = remember_session(
        request, HttpResponseRedirect(worker_session_url(campaign, worker), status=303), worker
    )
    if worker.platform == Worker.Platform.LINK:
        remember_link_worker(request, response, worker)
    return response


def _mturk_preview(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """What an MTurk worker sees before accepting the HIT. Records nothing.

    In the language the worker would judge in (as the entry page chooses it): a task in
    that language, and the campaign's texts as the designer translated them, so that the
    description, instructions and example are not English under German buttons."""
    languages = campaign.languages_or_default
    language = worker_language(
        languages,
        requested=request.GET.get("lang", "")[:40],
        accept_language=request.headers.get("Accept-Language", "")[:500],
    )
    task = judgement_selectors.preview_task(campaign=campaign, language=language)
    page = judgement_selectors.task_page_preview(task=task) if task else None
    shown = campaign
    if language != languages[0]:
        shown = session_selectors.campaign_in_language(campaign, language)
    return render(
        request, "annotations/sessions/mturk_preview.html", {"campaign": shown, "page": page}
    )


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
        session_selectors.Progress(done=found.pages_done, total=campaign.tasks_per_worker)
        if found.pages_done is not None
        else session_selectors.worker_progress(worker=worker, campaign=campaign)
    )
    if assignment is None:
        worker.refresh_from_db(fields=["stopped"])
        if worker.stopped:
            return _stopped(request, campaign, worker)
        if progress.done == 0:
            # Turned away before any task: Prolific and MTurk count this as screened out.
            return _screened_out(request, campaign, worker)
        return _done(request, campaign, worker)
    return _task_in_hand(request, campaign, token, assignment, found.task_outputs, progress)


def _task_in_hand(
    request: HtmxHttpRequest,
    campaign: Campaign,
    token: str,
    assignment: Assignment,
    task_outputs: list[TaskOutput] | None,
    progress: session_selectors.Progress,
) -> HttpResponse:
    """The page of the assignment handed out (``page_next_for``: one task, or every
    criterion of a set-up 1 page), its autosaved answers filled in, with the notice the
    session's query asks for (a task already submitted, an unknown task, a new
    criterion)."""
    assignment.task.campaign = campaign
    notice = (
        str(ALREADY_SUBMITTED)
        if request.GET.get("already")
        else str(UNKNOWN_TASK)
        if request.GET.get("unknown")
        else str(NEW_CRITERION)
        if request.GET.get("after", str(assignment.criterion_id)) != str(assignment.criterion_id)
        else ""
    )
    parts = judgement_selectors.page_parts(assignment=assignment, task_outputs=task_outputs)
    template, context = task_page(
        request,
        page_forms(parts, None, draft=assignment),
        progress,
        action=worker_submit_url(campaign, token, assignment.pk),
        draft_url=worker_draft_url(campaign, token, assignment.pk),
        notice=notice,
    )
    return render(request, template, context)


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
    if language and language != campaign.default_language:
        campaign = session_selectors.campaign_in_language(campaign, language)
        criteria = [session_selectors.criterion_in_language(c, language) for c in criteria]
    return consent_page(
        request,
        campaign,
        criteria,
        form=form,
        progress=(
            session_selectors.worker_progress(worker=worker, campaign=campaign)
            if worker is not None
            else session_selectors.Progress(done=0, total=campaign.tasks_per_worker)
        ),
        status=status,
        identity=identity,
        consent_action=(
            reverse("annotations:worker-consent", args=[campaign.slug, token])
            if worker is not None
            else _start_action(request, campaign)
        ),
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
        return redirect(worker_session_url(campaign, worker))
    form = ConsentForm(request.POST)
    if not form.is_valid():
        return _consent_page(request, campaign, worker, token, form, status=400)
    session_services.worker_consent(worker=worker)
    return redirect(worker_session_url(campaign, worker))


def _done(request: HttpRequest, campaign: Campaign, worker: Worker) -> HttpResponse:
    return _final_page(request, campaign, worker, "done.html", campaign.completion_code)


def _final_notice(request: HttpRequest) -> str:
    """What the last page says first when the submit that led to it recorded nothing (a
    second tab's answer to a task already submitted, an address changed): its "Your
    answers are saved" is about the answers submitted before."""
    if request.GET.get("already"):
        return str(ALREADY_SUBMITTED_LAST)
    if request.GET.get("unknown"):
        return str(UNKNOWN_TASK_LAST)
    return ""


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
        # tests/flows/browser/test_worker_session.py follows the button to app.prolific.com.
        prolific_url = platform_selectors.prolific_completion_url(code)
    return render(
        request,
        f"annotations/sessions/{template}",
        {
            "campaign": campaign,
            "worker": worker,
            "code": code,
            "progress": session_selectors.worker_progress(worker=worker, campaign=campaign),
            "mturk_submit_url": platform_selectors.mturk_submit_url(
                worker.metadata.get("turk_submit_to", "")
            ),
            "mturk_assignment_id": worker.metadata.get("assignment_id", ""),
            "prolific_url": prolific_url,
            "notice": _final_notice(request),
        },
    )
