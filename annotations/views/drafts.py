"""Autosave of a task page: the answers typed so far, kept on the assignment.

The task page's script (``static/js/autosave.js``) posts the form here as the worker
types; the task page (``annotations.forms.judgements.page_forms``) fills them back in
after a reload. The post carries no CSRF cookie: see
``annotations.access.workers.worker_form_view``.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from annotations.access.workers import worker_form_view, worker_session_view
from annotations.models import Campaign, Worker
from annotations.selectors import sessions as session_selectors
from annotations.services import drafts as draft_services

DRAFT_TOO_LATE = gettext_lazy(
    "This task was already submitted (here or in another tab or window); what you type "
    "here is not recorded."
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
    # A NUL or a lone surrogate in a field never gets here: the request-bounds middleware
    # (common.middleware) refuses it in every web form, multipart ones included.
    answers = {name: request.POST.getlist(name) for name in request.POST}
    if worker.released:  # its id was freed for its owner: it keeps nothing more
        return HttpResponse(str(DRAFT_TOO_LATE), status=409, content_type="text/plain")
    if draft_services.assignment_draft_save(
        worker_id=worker.pk, assignment_id=assignment_id, answers=answers
    ):
        return HttpResponse(status=204)
    if session_selectors.assignment_for_worker(worker=worker, assignment_id=assignment_id) is None:
        return HttpResponse(gettext("Unknown task."), status=404, content_type="text/plain")
    return HttpResponse(str(DRAFT_TOO_LATE), status=409, content_type="text/plain")
