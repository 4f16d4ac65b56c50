"""The evaluation datasheet: platform answers, person answers, exports, CLI, page and API."""

from __future__ import annotations

import json
from datetime import timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from annotations.models import (
    Criterion,
    ImportJob,
    Judgement,
    JudgementScore,
    Worker,
    WorkerCheck,
)
from common.errors import DomainError
from ranking.models import RankingRun
from reports.core import heds
from reports.exports.datasheet import datasheet_latex, datasheet_markdown
from reports.models import Datasheet
from reports.selectors.datasheet import datasheet_for
from reports.services.datasheet import datasheet_answers_update
from tests.factories import (
    AssignmentFactory,
    CampaignFactory,
    CriterionFactory,
    WorkerFactory,
    task_with_outputs,
)

pytestmark = pytest.mark.django_db


def _judge(task, worker, scores, too_fast=False):
    now = timezone.now()
    a = AssignmentFactory(task=task, worker=worker, state="submitted", submitted_at=now)
    j = Judgement.objects.create(
        assignment=a,
        task=task,
        worker=worker,
        criterion=task.criterion,
        started_at=now - timedelta(seconds=30),
        submitted_at=now,
        seconds_on_task=30,
        too_fast=too_fast,
    )
    ranked = sorted(scores, reverse=True)
    for to, s in zip(task.task_outputs.all(), scores, strict=True):
        JudgementScore.objects.create(
            judgement=j, output=to.output, slot=to.slot, score=s, rank=ranked.index(s) + 1
        )
    return a


@pytest.fixture
def campaign():
    owner = User.objects.create_user("owner", password="pw")
    c = CampaignFactory(
        owner=owner,
        name="Demo",
        instructions="Read every output carefully please.",
        attention_check_rate=0.1,
        repeat_rate=0.05,
        min_seconds_per_task=20,
        assignment_timeout_minutes=25,
        tasks_per_worker=7,
        task_seed=42,
    )
    q = CriterionFactory(campaign=c, name="quality", question="How good is it?", show_input=True)
    CriterionFactory(
        campaign=c,
        name="fluency",
        question="How fluent?",
        show_input=False,
        scale=Criterion.Scale.LIKERT,
        content_checks=["added", "missing"],
        scale_settings={
            "levels": [
                {"value": 1, "label": "bad", "descriptor": "unreadable"},
                {"value": 2, "label": "good", "descriptor": "fine"},
            ]
        },
    )
    task = task_with_outputs(campaign=c, criterion=q)
    c.items.update(attributes={"language": "en"})
    w1 = WorkerFactory(campaign=c, bonus=Decimal("1.50"), review="approved")
    w2 = WorkerFactory(campaign=c, platform=Worker.Platform.MTURK, expert=True)
    WorkerFactory(campaign=c, excluded=True)
    a1 = _judge(task, w1, [100, 50, 10])
    _judge(task, w2, [90, 60, 20], too_fast=True)
    WorkerCheck.objects.create(worker=w1, assignment=a1, kind="attention", passed=True)
    ImportJob.objects.create(campaign=c, kind="outputs", filename="outs.tsv", status="done")
    RankingRun.objects.create(
        campaign=c,
        criterion=q,
        method="bootstrap",
        runs=300,
        confidence=0.9,
        seed=7,
        status="done",
        n_judgements=2,
        n_comparisons=6,
        finished_at=timezone.now(),
    )
    return c


def _answers(c):
    return {e.key: e for e in datasheet_for(campaign=c).entries}


def test_platform_fills_what_the_campaign_knows(campaign):
    a = {k: e.platform_answer for k, e in _answers(campaign).items()}
    assert "meaning representations" in a["2.1"] and "1 inputs" in a["2.1"]
    assert a["2.4"] == "Stored language of the inputs: en (1)"
    assert a["3.1.1"].startswith("3 of the 3 outputs (3 systems on 1 items)")
    assert "outs.tsv (outputs)" in a["3.1.2"] and "seed 42" in a["3.1.2"]
    assert a["3.2.1"].startswith("2 evaluators submitted judgements (3 registered); 1 excluded")
    assert a["3.2.2"].startswith("1 marked as experts")
    assert "Prolific (2)" in a["3.2.3"] and "Amazon Mechanical Turk (1)" in a["3.2.3"]
    assert "1.50 in total to 1 workers" in a["3.2.3"] and "1 approved" in a["3.2.3"]
    assert "(5 words)" in a["3.2.4"]
    assert "10% of tasks (1 passed, 0 failed)" in a["3.3.3"]
    assert "Minimum time per task: 20 s" in a["3.3.3"] and "1 judgements too fast" in a["3.3.3"]
    assert "shown for quality and hidden for fluency" in a["3.3.4"]
    assert "25 minutes" in a["3.3.5"] and "at most 7 tasks" in a["3.3.5"]
    assert a["4.3.7@quality"] == "How good is it?" and a["4.3.7@fluency"] == "How fluent?"
    assert a["4.1.3@quality"].startswith("Relative to the input")
    assert a["4.1.3@fluency"].startswith("In its own right")
    assert "standard scored 100" in a["4.2.2@quality"]
    assert a["4.3.3@fluency"] == "2 levels."
    assert a["4.3.4@fluency"] == "1 = bad (unreadable); 2 = good (fine)"
    assert "checklist: added, missing" in a["4.3.5@fluency"]
    assert "value 100" in a["4.3.5@quality"]
    assert "bootstrap" in a["4.3.9@quality"].lower() and "300 runs, seed 7" in a["4.3.9@quality"]
    assert a["4.3.10@quality"].startswith("Rank ranges keep 270 of the 300 runs (90.0%; 90% asked)")
    assert a["4.3.11@quality"].startswith("Yes, on 2 judgements by 2 evaluators")
    assert a["4.3.9@fluency"] == "" and a["4.3.11@fluency"] == ""  # no run, no judgements


def test_person_questions_are_open_and_marked(campaign):
    entries = _answers(campaign)
    person = [k for k, e in entries.items() if not e.question.platform]
    assert person and all(entries[k].open for k in person)
    md = datasheet_markdown(datasheet_for(campaign=campaign))
    row = next(line for line in md.splitlines() if line.startswith("| 5.1 "))
    assert f"_{heds.TO_BE_ANSWERED}_" in row


def test_saved_answers_merge_and_bad_keys_write_nothing(campaign):
    user = campaign.owner
    datasheet_answers_update(
        campaign=campaign, answers={"5.1": "Yes, ERC 12.", "4.1.1@quality": "goodness"}, user=user
    )
    entries = _answers(campaign)
    assert entries["5.1"].answer == "Yes, ERC 12." and entries["5.1"].source == "person"
    assert entries["4.1.1@quality"].person_answer == "goodness"
    with pytest.raises(DomainError, match=r"4\.1\.1@nope"):
        datasheet_answers_update(campaign=campaign, answers={"5.2": "No.", "4.1.1@nope": "x"})
    assert "5.2" not in Datasheet.objects.get(campaign=campaign).answers
    datasheet_answers_update(campaign=campaign, answers={"5.1": "  "})
    assert "5.1" not in Datasheet.objects.get(campaign=campaign).answers


def test_latex_escapes_specials(campaign):
    campaign.name = r"R&D_50% $x# {y} ~ ^ \z"
    campaign.save()
    datasheet_answers_update(campaign=campaign, answers={"1.1": "a_b & c"})
    tex = datasheet_latex(datasheet_for(campaign=campaign))
    assert r"R\&D\_50\% \$x\# \{y\} \textasciitilde{} \textasciicircum{} \textbackslash{}z" in tex
    assert r"a\_b \& c" in tex and "a_b & c" not in tex


@pytest.mark.parametrize("fmt", ["markdown", "latex", "json"])
def test_cli_formats(campaign, fmt):
    out = StringIO()
    call_command("datasheet", campaign.slug, "--format", fmt, stdout=out)
    text = out.getvalue()
    if fmt == "json":
        data = json.loads(text)
        assert data["campaign"] == campaign.slug and "5.1" in data["open"]
        assert (
            next(q for q in data["questions"] if q["key"] == "4.3.7@quality")["answer"]
            == "How good is it?"
        )
    elif fmt == "latex":
        assert text.startswith(r"\section*{Human evaluation datasheet: Demo}")
    else:
        assert text.startswith("# Human evaluation datasheet: Demo") and "## 4. Quality" in text


def test_page_shows_form_and_saves_without_js(client, campaign):
    client.force_login(campaign.owner)
    url = f"/campaigns/{campaign.slug}/datasheet/"
    page = client.get(url)
    assert page.status_code == 200
    assert b'name="a:5.1"' in page.content and b"How good is it?" in page.content
    # Platform-answered: a person may replace the answer (the field is behind a disclosure).
    html = page.content.decode()
    assert "Replace the platform's answer" in html.split('name="a:4.3.7@quality"')[0][-400:]
    # An open question says once that a person answers it (the box's label said it again).
    open_entry = html.split('name="a:5.1"')[0].rsplit("<dt", 1)[1]
    assert open_entry.count("To be answered by a person") == 1
    resp = client.post(url, {"a:5.1": "Approved."})
    assert resp.status_code == 302
    assert Datasheet.objects.get(campaign=campaign).answers == {"5.1": "Approved."}
    bad = client.post(url, {"a:9.9": "x"})
    assert bad.status_code == 400 and b"9.9" in bad.content
    dl = client.get(url + "latex/")
    assert dl.status_code == 200 and b"\\section*" in dl.content
    assert client.get(url + "pdf/").status_code == 404


def test_viewer_reads_but_cannot_save(client, campaign):
    from annotations.models import CampaignMembership

    viewer = User.objects.create_user("viewer", password="pw")
    CampaignMembership.objects.create(campaign=campaign, user=viewer, role="viewer")
    client.force_login(viewer)
    url = f"/campaigns/{campaign.slug}/datasheet/"
    assert client.get(url).status_code == 200
    assert client.post(url, {"a:5.1": "x"}).status_code == 403
    stranger = User.objects.create_user("stranger", password="pw")
    client.force_login(stranger)
    assert client.get(url).status_code == 404


def test_api_get_and_patch(client, campaign):
    client.force_login(campaign.owner)
    url = f"/api/campaigns/{campaign.slug}/datasheet/"
    data = client.get(url).json()
    assert "5.1" in data["open"]
    resp = client.patch(url, {"answers": {"5.1": "Yes."}}, content_type="application/json")
    assert resp.status_code == 200 and "5.1" not in resp.json()["open"]
    bad = client.patch(url, {"answers": {"zz": "Yes."}}, content_type="application/json")
    assert bad.status_code == 400 and "zz" in bad.content.decode()


@pytest.mark.e2e_data
def test_e2e_datasheet_complete_except_person_fields(e2e_dir):
    from annotations.importing.ratings import e2e_import
    from annotations.models import Campaign

    e2e_import(campaign_slug="e2e", folder=e2e_dir)
    sheet = datasheet_for(campaign=Campaign.objects.get(slug="e2e"))
    open_platform = [e for e in sheet.entries if e.open and e.question.platform]
    # Imported judgements: how they were collected (checks, interface, timing, training,
    # conditions, the instrument) is known only to a person: those questions stay open,
    # each with what the stored data do show, or empty, and what a person must add.
    assert open_platform
    for e in open_platform:
        assert e.ask or not e.platform_answer, e.key
    assert {e.key for e in open_platform} >= {"3.3.3", "3.3.4", "3.3.5", "3.3.7", "3.3.8"}
    md = datasheet_markdown(sheet)
    assert md.count(f"_{heds.TO_BE_ANSWERED}_") == len(sheet.open_keys)
    a = {e.key: e.platform_answer for e in sheet.entries}
    assert "meaning representations" in a["2.1"]
    assert a["4.3.11@quality"].startswith("Yes, on ")
