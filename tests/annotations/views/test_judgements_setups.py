"""The task page and its submit (``annotations.views.judgements``) in the study's
set-ups: all criteria on one page (set-up 1), one criterion per page, PlainME, and a task
submitted from a second tab."""

from __future__ import annotations

import re

import pytest

from annotations.models import Assignment, Campaign, Judgement, JudgementScore
from annotations.selectors.judgements import page_assignments
from tests.annotations.setups_data import built
from tests.annotations.views.worker_pages import (
    consented,
    draft_url,
    page_lead,
    session_url,
    submit_url,
)
from tests.factories import CampaignFactory, CriterionFactory, task_with_outputs

pytestmark = pytest.mark.django_db


def _answers(page: list[Assignment], skip: tuple[int, int] | None = None) -> dict[str, str]:
    data = {}
    for a in page:
        for slot in a.display_order:
            if (a.criterion_id, slot) != skip:
                data[f"c{a.criterion_id}-score_{slot}"] = str(100 + slot)
    return data


# Set-up 1 -------------------------------------------------------------------------------------


def test_together_page_shows_each_output_once_with_one_answer_per_criterion(client):
    campaign = built()
    worker = consented(campaign)
    page = client.get(session_url(campaign, worker))
    assert page.status_code == 200
    html = page.content.decode()
    lead = page_lead(worker)
    siblings = page_assignments(assignment=lead)
    assert len(siblings) == 2
    texts = re.findall(r'<p class="w-text" id="text-\d+"[^>]*>([^<]+)</p>', html)
    assert len(texts) == 3 and len(set(texts)) == 3
    for a in siblings:
        assert a.criterion.question in html
        for slot in a.display_order:
            assert html.count(f'name="c{a.criterion_id}-score_{slot}"') == 1
    assert 'id="together-form"' in html and "data-draft-url" in html


def test_together_page_shows_one_standard_with_its_value_per_criterion(client):
    campaign = built(criteria=("informativeness", "naturalness", "quality"))
    campaign.criteria.update(
        standard_text="Cotto is a coffee shop.", standard_input="name[Cotto]", show_input=True
    )
    campaign.criteria.filter(name="quality").update(scale_settings={"standard": 80})
    worker = consented(campaign)
    html = client.get(session_url(campaign, worker)).content.decode()
    assert html.count("data-standard>") == 1
    assert html.count("Here is the STANDARD to relate to") == 1
    assert html.count("Here is the TASK for you") == 1
    assert html.count("Cotto is a coffee shop.") == 1
    values = re.findall(r"<li data-standard-value>(\w+): <strong>(\d+)</strong>", html)
    assert values == [("Informativeness", "100"), ("Naturalness", "100"), ("Quality", "80")]


def test_one_standard_box_when_a_criterion_hides_the_input(client):
    """The walk-through: naturalness hides the input, quality shows it, and the page
    showed the same standard twice (once with its input, once without)."""
    campaign = built(criteria=("naturalness", "quality"))
    campaign.criteria.update(standard_text="Cotto is a coffee shop.", standard_input="name[Cotto]")
    campaign.criteria.filter(name="naturalness").update(show_input=False)
    campaign.criteria.filter(name="quality").update(show_input=True)
    worker = consented(campaign)
    html = client.get(session_url(campaign, worker)).content.decode()
    assert html.count("data-standard>") == 1
    assert html.count("Cotto is a coffee shop.") == 1
    assert "Cotto" in html.split("data-standard>", 1)[1].split("Cotto is a coffee shop.", 1)[0]


def test_together_submit_records_one_judgement_per_criterion(client):
    campaign = built()
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    lead = page_lead(worker)
    siblings = page_assignments(assignment=lead)
    response = client.post(submit_url(campaign, worker, lead), _answers(siblings))
    assert response.status_code == 303
    assert sorted(Judgement.objects.values_list("criterion__name", flat=True)) == [
        "naturalness",
        "quality",
    ]
    assert JudgementScore.objects.count() == 6
    # The same page posted again (double submit): nothing new, and the worker is told.
    again = client.post(submit_url(campaign, worker, lead), _answers(siblings))
    assert again.status_code == 303 and again.url.endswith("?already=1")
    assert Judgement.objects.count() == 2


@pytest.mark.parametrize("htmx", [False, True])
def test_together_partial_answers_are_refused_as_a_whole_with_an_error_per_field(client, htmx):
    campaign = built()
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    lead = page_lead(worker)
    siblings = page_assignments(assignment=lead)
    natural = siblings[1]
    missing_slot = natural.display_order[0]
    data = _answers(siblings, skip=(natural.criterion_id, missing_slot))
    data[f"c{lead.criterion_id}-score_{lead.display_order[1]}"] = "12.5"
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post(submit_url(campaign, worker, lead), data, headers=headers)
    assert response.status_code == (200 if htmx else 400)
    html = response.content.decode()
    assert html.count('class="w-error"') == 2
    assert f'id="c{natural.criterion_id}-score-{missing_slot}-error"' in html
    assert f'id="c{lead.criterion_id}-score-{lead.display_order[1]}-error"' in html
    # What was typed stays on the page.
    assert f'value="{100 + lead.display_order[0]}"' in html
    assert not Judgement.objects.exists()
    assert set(Assignment.objects.values_list("state", flat=True)) == {"active"}
    if htmx:
        assert html.lstrip().startswith('<form id="together-form"')
    # The page shown again keeps autosaving (corrections survive a reload).
    draft = submit_url(campaign, worker, lead) + "draft/"
    assert f'data-draft-url="{draft}"' in html


def test_separate_set_up_keeps_one_criterion_per_page(client):
    campaign = built(setup="separate")
    worker = consented(campaign)
    html = client.get(session_url(campaign, worker)).content.decode()
    assert 'id="task-form"' in html and "together-form" not in html
    assert Assignment.objects.filter(worker=worker).count() == 1


def test_separate_set_up_announces_a_change_of_criterion_on_its_first_task(client):
    campaign = built(setup="separate", k=3, tasks_per_worker=4, min_seconds_per_task=0)
    worker = consented(campaign)
    session = session_url(campaign, worker)
    page = client.get(session)
    seen = []
    for _ in range(4):
        assignment = page_lead(worker)
        html = page.content.decode()
        seen.append((assignment.criterion_id, "New question from this task on" in html))
        # the criterion of each output's task, with the scores of its outputs
        data: dict[str, str | list[str]] = {
            f"score_{slot}": str(100 + slot) for slot in assignment.display_order
        }
        if assignment.criterion.content_checks:
            data |= {f"check_{slot}": ["perfect"] for slot in assignment.display_order}
        response = client.post(submit_url(campaign, worker, assignment), data)
        assert response.status_code == 303, response.content.decode()[:3000]
        page = client.get(response["Location"])
    criteria = [c for c, _ in seen]
    assert len(set(criteria)) == 2, "the test needs a change of criterion"
    for i, (criterion, announced) in enumerate(seen):
        changed = i > 0 and criterion != criteria[i - 1]
        assert announced == changed, seen


# PlainME --------------------------------------------------------------------------------------


def test_plainme_page_shows_one_output_and_records_its_score(client):
    campaign = built(setup="separate", k=1, criteria=("quality",))
    worker = consented(campaign)
    html = client.get(session_url(campaign, worker)).content.decode()
    assert html.count('class="w-output"') == 1 and 'name="score_0"' in html
    lead = page_lead(worker)
    response = client.post(submit_url(campaign, worker, lead), {"score_0": "150"})
    assert response.status_code == 303
    score = JudgementScore.objects.get()
    assert (score.score, score.rank) == (150.0, 1.0)


# Second tabs ------------------------------------------------------------------------------------


def test_second_tab_submitting_the_same_task_gets_a_clear_message(client):
    """A second tab, or the same tab after the back button: the server cannot tell them
    apart, so the message names both."""
    campaign = CampaignFactory(status=Campaign.Status.LIVE, tasks_per_worker=3)
    criterion = CriterionFactory(campaign=campaign)
    for _ in range(3):
        task_with_outputs(campaign=campaign, criterion=criterion)
    worker = consented(campaign)
    client.get(session_url(campaign, worker))  # tab 1
    client.get(session_url(campaign, worker))  # tab 2: the same task
    a = page_lead(worker)
    answers = {"score_0": "100", "score_1": "90", "score_2": "80"}
    first = client.post(submit_url(campaign, worker, a), answers)
    assert first.status_code == 303 and "already" not in first.url
    second = client.post(submit_url(campaign, worker, a), {"score_0": "1", "score_1": "2"})
    assert second.status_code == 303
    page = client.get(second.url)
    html = page.content.decode()
    assert "already submitted (here or in another tab" in html
    assert 'id="task-form"' in html  # ... and here is the next task
    assert page_lead(worker).pk != a.pk
    assert Judgement.objects.get().scores.get(slot=0).score == 100
    # The second tab's autosave after the submit is refused with the same explanation.
    late = client.post(draft_url(campaign, worker, a), {"score_0": "5"})
    assert late.status_code == 409 and b"already submitted" in late.content


def test_second_tab_with_htmx_is_redirected_with_the_message(client):
    campaign = CampaignFactory(status=Campaign.Status.LIVE, tasks_per_worker=2)
    criterion = CriterionFactory(campaign=campaign)
    task_with_outputs(campaign=campaign, criterion=criterion)
    task_with_outputs(campaign=campaign, criterion=criterion)
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    a = page_lead(worker)
    answers = {"score_0": "100", "score_1": "90", "score_2": "80"}
    client.post(submit_url(campaign, worker, a), answers)
    again = client.post(submit_url(campaign, worker, a), answers, headers={"HX-Request": "true"})
    assert again.headers["HX-Redirect"].endswith("?already=1")
