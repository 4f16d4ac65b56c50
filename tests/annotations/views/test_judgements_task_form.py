"""The task page's form through its submit (``annotations.views.judgements``): sliders
without JavaScript, errors tied to their fields, resubmits."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from annotations.access.workers import worker_token
from annotations.forms.judgements import SLIDER_START
from annotations.models import Assignment, Campaign, Judgement, Worker
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory, task_with_outputs

pytestmark = pytest.mark.django_db


def _worker(scale: str = "magnitude", **campaign_fields) -> Worker:
    campaign = CampaignFactory(status=Campaign.Status.LIVE, tasks_per_worker=2, **campaign_fields)
    settings = {
        "magnitude": {"standard": 100, "max_digits": 4},
        "slider": {},
        "likert": {
            "levels": [{"value": v, "label": str(v), "descriptor": f"d{v}"} for v in (1, 2, 3)]
        },
    }[scale]
    criterion = CriterionFactory(campaign=campaign, scale=scale, scale_settings=settings)
    for _ in range(2):
        task_with_outputs(campaign=campaign, criterion=criterion)
    return WorkerFactory(campaign=campaign, consented_at=timezone.now())


@pytest.fixture
def client_() -> Client:
    return Client()


def _start(client: Client, scale: str = "magnitude", **campaign_fields):
    worker = _worker(scale, **campaign_fields)
    token = worker_token(worker)
    slug = worker.campaign.slug
    page = client.get(reverse("annotations:worker-session", args=[slug, token]))
    assignment = Assignment.objects.get(worker=worker)
    submit = reverse("annotations:worker-submit", args=[slug, token, assignment.pk])
    return worker, assignment, submit, page


def _attrs(html: str, element_id: str) -> str:
    match = re.search(rf'<(?:input|select)[^>]*\bid="{element_id}"[^>]*>', html)
    assert match, f"no field with id {element_id}"
    return match.group(0)


# -- sliders without JavaScript ---------------------------------------------------------


def test_no_js_slider_moved_away_from_the_start_counts_as_placed(client_):
    _w, assignment, submit, _ = _start(client_, "slider")
    order = assignment.display_order
    data = {f"score_{s}": str(v) for s, v in zip(order, (80, 20.5, 64), strict=True)}
    response = client_.post(submit, data)  # no "js", no "touched_*": a browser without JS
    assert response.status_code == 303
    judgement = Judgement.objects.get()
    assert judgement.metadata == {"js": False}
    assert dict(judgement.scores.values_list("slot", "score")) == {
        s: float(v) for s, v in zip(order, (80, 20.5, 64), strict=True)
    }


def test_no_js_slider_left_at_the_start_is_asked_about_once_then_kept(client_):
    _w, assignment, submit, _ = _start(client_, "slider")
    a, b, c = assignment.display_order
    data = {f"score_{a}": "80", f"score_{b}": str(SLIDER_START), f"score_{c}": str(SLIDER_START)}
    refused = client_.post(submit, data)
    html = refused.content.decode()
    assert refused.status_code == 400 and Judgement.objects.count() == 0
    # Next to the field and in the summary (the page scripts' own copy aside).
    shown = re.sub(r'<div hidden id="w-strings"[^>]*>', "", html)
    assert shown.count("not moved this slider") == 2 * 2
    # What was entered is kept; the untouched sliders offer "keep in the middle".
    assert 'value="80"' in _attrs(html, f"score-{a}")
    assert f'name="keep_{b}"' in html and f'name="keep_{c}"' in html
    assert f'name="keep_{a}"' not in html
    assert "autofocus" in _attrs(html, f"score-{b}")
    assert "autofocus" not in _attrs(html, f"score-{c}")

    # The worker moves one and keeps the other in the middle.
    ok = client_.post(submit, {**data, f"score_{b}": "35", f"keep_{c}": "on"})
    assert ok.status_code == 303
    scores = dict(Judgement.objects.get().scores.values_list("slot", "score"))
    assert scores == {a: 80.0, b: 35.0, c: float(SLIDER_START)}


def test_js_slider_untouched_at_the_start_is_refused_but_tie_or_keep_places_it(client_):
    _w, assignment, submit, _ = _start(client_, "slider")
    a, b, c = assignment.display_order
    base = {"js": "1", f"score_{a}": "70", f"touched_{a}": "1"}
    base |= {f"score_{b}": str(SLIDER_START), f"score_{c}": str(SLIDER_START)}
    refused = client_.post(submit, base)
    assert refused.status_code == 400
    ok = client_.post(submit, {**base, f"tie_{b}": str(a), f"keep_{c}": "1"})
    assert ok.status_code == 303
    judgement = Judgement.objects.get()
    assert judgement.metadata == {"js": True}
    assert dict(judgement.scores.values_list("slot", "score")) == {a: 70.0, b: 70.0, c: 50.0}


def test_slider_tie_loop_error_is_tied_to_its_select(client_):
    _w, assignment, submit, _ = _start(client_, "slider")
    a, b, c = assignment.display_order
    response = client_.post(
        submit,
        {"js": "1", f"score_{a}": "70", f"score_{b}": "10", f"score_{c}": "20"}
        | {f"touched_{s}": "1" for s in (a, b, c)}
        | {f"tie_{a}": str(b), f"tie_{b}": str(a)},
    )
    html = response.content.decode()
    assert response.status_code == 400 and "point at each other" in html
    select = _attrs(html, f"tie-{a}")
    assert 'aria-invalid="true"' in select and f'aria-describedby="tie-error-{a}"' in select
    assert f'id="tie-error-{a}"' in html
    assert "autofocus" in select
    # Every select has a name that says which output it is for.
    assert re.search(rf'<label for="tie-{a}">Same score as<span class="visually-hidden"> ', html)


# -- errors tied to their fields ------------------------------------------------------


def test_magnitude_errors_are_described_invalid_and_the_first_gets_the_focus(client_):
    _w, assignment, submit, page = _start(client_)
    # No maxlength (it cut longer numbers silently); the rule is said beside the input.
    assert "maxlength" not in page.content.decode()
    assert "up to 4 digits" in page.content.decode()  # max_digits of the criterion
    a, b, c = assignment.display_order
    response = client_.post(submit, {f"score_{a}": "120", f"score_{b}": "1.5", f"score_{c}": ""})
    html = response.content.decode()
    assert response.status_code == 400
    for slot in (b, c):
        field = _attrs(html, f"score-{slot}")
        assert 'aria-invalid="true"' in field and f"error-{slot}" in field
        assert f'id="error-{slot}"' in html
    assert "aria-invalid" not in _attrs(html, f"score-{a}")
    assert "autofocus" in _attrs(html, f"score-{b}")
    assert html.count("autofocus") == 1


def test_magnitude_errors_with_htmx_also_carry_autofocus(client_):
    _w, assignment, submit, _ = _start(client_)
    a, b, c = assignment.display_order
    response = client_.post(
        submit, {f"score_{a}": "0", f"score_{b}": "5", f"score_{c}": "5"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith("<form")
    assert "autofocus" in _attrs(html, f"score-{a}")


def test_likert_error_marks_every_radio_of_the_output(client_):
    _w, assignment, submit, _ = _start(client_, "likert")
    a, b, c = assignment.display_order
    html = client_.post(submit, {f"score_{a}": "1", f"score_{b}": "2"}).content.decode()
    radios = re.findall(rf'<input type="radio"[^>]*name="score_{c}"[^>]*>', html)
    assert len(radios) == 3
    for radio in radios:
        assert 'aria-invalid="true"' in radio and f'aria-describedby="error-{c}"' in radio
    assert "autofocus" in radios[0] and "autofocus" not in radios[1]
    assert not any(
        "aria-invalid" in r for r in re.findall(rf'<input[^>]*name="score_{a}"[^>]*>', html)
    )


# -- submitting -------------------------------------------------------------------------


def test_resubmit_of_a_recorded_task_moves_on_whatever_was_posted(client_):
    worker, assignment, submit, _ = _start(client_)
    valid = {f"score_{s}": "100" if i else "150" for i, s in enumerate(assignment.display_order)}
    assert client_.post(submit, valid).status_code == 303
    for data in ({}, {"score_0": "oops"}, valid):
        again = client_.post(submit, data)
        assert again.status_code == 303
        assert again["Location"].endswith(f"/s/{worker_token(worker)}/?already=1")
        htmx = client_.post(submit, data, HTTP_HX_REQUEST="true")
        assert htmx.status_code == 200 and htmx.has_header("HX-Redirect")
    assert Judgement.objects.count() == 1


def test_refuse_policy_keeps_the_answers_and_records_nothing(client_):
    worker, assignment, submit, _ = _start(
        client_, min_seconds_per_task=120, min_time_policy="refuse"
    )
    seen = type(worker).objects.get(pk=worker.pk).last_seen_at
    assert seen is not None  # stamped by the hand-out
    data = {f"score_{s}": str(100 + s) for s in assignment.display_order}
    full = client_.post(submit, data)
    # The submit locks the worker by stamping it: a refused answer is undone whole.
    assert type(worker).objects.get(pk=worker.pk).last_seen_at == seen
    html = full.content.decode()
    assert full.status_code == 400 and "at least 120 seconds" in html
    assert "I have read every output" not in html  # refusing offers no way round
    for s in assignment.display_order:
        assert f'value="{100 + s}"' in _attrs(html, f"score-{s}")
    fragment = client_.post(submit, {**data, "acknowledge_too_fast": "1"}, HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200 and "at least 120 seconds" in fragment.content.decode()
    assert Judgement.objects.count() == 0
    assert Assignment.objects.get(pk=assignment.pk).state == Assignment.State.ACTIVE


def test_task_page_with_htmx_header_is_the_form_fragment(client_):
    worker, _assignment, submit, _ = _start(client_)
    url = reverse("annotations:worker-session", args=[worker.campaign.slug, worker_token(worker)])
    full = client_.get(url).content.decode()
    fragment = client_.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" in full and "Task 1 of 2" in full
    assert "<html" not in fragment and fragment.lstrip().startswith("<form")
    assert f'action="{submit}"' in fragment


# -- RankME: the standard, the content checks, the number rule, the too-fast warning ----


def _rankme_start(client: Client, *, show_input: bool = True, **campaign_fields):
    worker, assignment, submit, page = _start(client, **campaign_fields)
    criterion = assignment.criterion
    criterion.show_input = show_input
    criterion.standard_input = "name[The Phoenix], food[French]"
    criterion.standard_text = "The Phoenix serves French food."
    criterion.scale_settings = {**criterion.scale_settings, "standard": 100}
    criterion.content_checks = ["added", "missing"]
    criterion.save()
    page = client.get(
        reverse("annotations:worker-session", args=[worker.campaign.slug, worker_token(worker)])
    )
    return worker, assignment, submit, page


def test_the_standard_and_its_value_come_before_the_outputs(client_):
    _w, _a, _s, page = _rankme_start(client_)
    html = page.content.decode()
    standard = html.index("Here is the STANDARD to relate to")
    assert (
        standard
        < html.index("The Phoenix serves French food.")
        < html.index("Here is the TASK for you")
        < html.index('class="w-output')
    )
    assert "Its score: <strong>100</strong>" in html
    assert "French" in html[standard : html.index("Here is the TASK for you")]


def test_the_standard_input_is_hidden_when_the_criterion_hides_inputs(client_):
    _w, _a, _s, page = _rankme_start(client_, show_input=False)
    html = page.content.decode()
    assert "The Phoenix serves French food." in html and "French</dd>" not in html


def test_checklist_without_javascript_is_stored(client_):
    _w, assignment, submit, page = _rankme_start(client_)
    a, b, c = assignment.display_order
    html = page.content.decode()
    assert f'name="check_{a}" value="missing"' in html
    response = client_.post(
        submit,
        {f"score_{a}": "150", f"score_{b}": "100", f"score_{c}": "40"}
        | {f"check_{c}": ["added", "missing"], f"check_{a}": ["added"]},
    )
    assert response.status_code == 303
    stored = dict(Judgement.objects.get().scores.values_list("slot", "checks"))
    assert stored == {a: ["added"], b: [], c: ["added", "missing"]}


def test_seven_digits_are_refused_on_the_page_and_kept_as_typed(client_):
    _w, assignment, submit, _ = _rankme_start(client_)
    a, b, c = assignment.display_order
    # This criterion allows 4 digits (see _worker).
    response = client_.post(
        submit, {f"score_{a}": "12345", f"score_{b}": "100", f"score_{c}": "50"}
    )
    html = response.content.decode()
    assert response.status_code == 400 and Judgement.objects.count() == 0
    assert "12345 has 5 digits; enter a whole number of at most 4 digits" in html
    assert 'value="12345"' in _attrs(html, f"score-{a}")


def test_too_fast_warning_is_by_the_submit_button_with_the_seconds(client_):
    _w, assignment, submit, _ = _rankme_start(client_, min_seconds_per_task=300)
    data = {f"score_{s}": str(100 + s) for s in assignment.display_order}
    html = client_.post(submit, data).content.decode()
    warning = html.index('role="alert" id="too-fast"')
    last_output = html.rindex('class="w-output')
    assert last_output < warning < html.index("I have read every output: submit")
    # The confirming button is the one to press: a reviewer pressed the blue "Submit and
    # continue" four times and was warned four times (it never confirms).
    assert "Submit and continue" not in html
    assert 'value="1" class="w-primary" autofocus>I have read every output: submit' in html
    assert re.search(r"You spent \d+(\.\d)? seconds on this task; we expect at least 300", html)
    assert html.index('class="w-actions"') < warning


def _rankme_with_perfect(client: Client):
    worker, assignment, submit, _ = _rankme_start(client)
    criterion = assignment.criterion
    criterion.content_checks = ["added", "missing", "perfect"]
    criterion.save()
    return worker, assignment, submit


@pytest.mark.parametrize("htmx", [False, True])
def test_checklist_without_a_tick_is_refused_in_the_error_summary(client_, htmx):
    _w, assignment, submit = _rankme_with_perfect(client_)
    a, b, c = assignment.display_order
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client_.post(
        submit,
        {f"score_{a}": "150", f"score_{b}": "100", f"score_{c}": "40"}
        | {f"check_{a}": ["added"], f"check_{c}": ["perfect"]},
        **headers,
    )
    assert response.status_code == (200 if htmx else 400)
    html = response.content.decode()
    letter = "B"  # the second output shown
    summary = html[
        html.index("data-error-summary") : html.index("</ul>", html.index("data-error-summary"))
    ]
    assert f'href="#check-{b}-added"' in summary
    assert f"Output {letter}: tick at least one statement about this output." in summary
    assert re.search(rf'id="check-{b}-added"[^>]*aria-invalid="true"[^>]*autofocus', html)
    assert Judgement.objects.count() == 0
    # the ticks given are kept on the page
    assert re.search(rf'id="check-{a}-added"[^>]*checked', html)


def test_checklist_contradiction_is_refused(client_):
    _w, assignment, submit = _rankme_with_perfect(client_)
    a, b, c = assignment.display_order
    response = client_.post(
        submit,
        {f"score_{a}": "150", f"score_{b}": "100", f"score_{c}": "40"}
        | {
            f"check_{a}": ["missing", "perfect"],
            f"check_{b}": ["perfect"],
            f"check_{c}": ["added"],
        },
    )
    assert response.status_code == 400
    assert (
        "“It reflects the input perfectly” cannot be ticked together with "
        "“It misses information from the input”; untick one."
    ) in response.content.decode()
    assert Judgement.objects.count() == 0
    fixed = client_.post(
        submit,
        {f"score_{a}": "150", f"score_{b}": "100", f"score_{c}": "40"}
        | {f"check_{a}": ["missing"], f"check_{b}": ["perfect"], f"check_{c}": ["added"]},
    )
    assert fixed.status_code == 303
    stored = dict(Judgement.objects.get().scores.values_list("slot", "checks"))
    assert stored == {a: ["missing"], b: ["perfect"], c: ["added"]}
