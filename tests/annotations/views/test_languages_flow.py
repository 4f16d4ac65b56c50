"""Multilingual campaigns end to end: import languages, designs that never mix
them, workers who choose theirs at entry, within its quota, and get tasks in it only."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

from annotations.importing.outputs import outputs_import
from annotations.models import Campaign, Item, Output, Task, Worker
from annotations.services import assignment as assignment_services
from annotations.services.tasks import tasks_build
from common.errors import DomainError, ImportFileError
from tests.annotations.importing.conftest import write_csv
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory

pytestmark = pytest.mark.django_db

HEADER = ["item_id", "input", "system", "output", "language"]


def _rows(languages: dict[str, str], systems: int = 3) -> list[list[str]]:
    """Per item id its language: one output per system in that language."""
    return [
        [item, f"input {item}", f"s{s}", f"{language} output {s} of {item}", language]
        for item, language in languages.items()
        for s in range(systems)
    ]


def test_a_language_column_sets_items_outputs_and_the_campaigns_languages(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    path = write_csv(tmp_path / "o.csv", [HEADER, *_rows({"1": "de", "2": "FR", "3": "de"})])
    outputs_import(campaign=campaign, path=path)
    assert dict(Item.objects.filter(campaign=campaign).values_list("external_id", "language")) == {
        "1": "de",
        "2": "fr",
        "3": "de",
    }
    assert set(
        Output.objects.filter(item__campaign=campaign).values_list("language", flat=True)
    ) == {
        "de",
        "fr",
    }
    # A new campaign's untouched English default gives way to the file's languages.
    assert Campaign.objects.get(pk=campaign.pk).languages == ["de", "fr"]


def test_a_bad_code_names_file_line_and_field_and_writes_nothing(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    rows = [HEADER, *_rows({"1": "de"}), ["2", "in", "s0", "text", "klingon!"]]
    with pytest.raises(ImportFileError) as error:
        outputs_import(campaign=campaign, path=write_csv(tmp_path / "o.csv", rows))
    message = str(error.value)
    assert "o.csv" in message and "line 5" in message and "language" in message
    assert not Item.objects.filter(campaign=campaign).exists()
    with pytest.raises(ImportFileError, match="language"):
        outputs_import(
            campaign=campaign,
            path=write_csv(
                tmp_path / "a.csv",
                [
                    ["item_id", "input", "system", "output", "attr:language"],
                    ["1", "i", "s", "t", "de"],
                ],
            ),
        )


def test_jsonl_and_a_per_file_language(tmp_path: Path) -> None:
    campaign = CampaignFactory(languages=["en", "es"])
    lines = [
        {"item_id": "1", "input": "i", "system": "a", "output": "hola", "language": "es"},
        {"item_id": "1", "input": "i", "system": "b", "output": "buenas", "language": "es"},
        {"item_id": "2", "input": "j", "system": "a", "output": "bonjour"},
        {"item_id": "2", "input": "j", "system": "b", "output": "salut"},
    ]
    path = tmp_path / "o.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    outputs_import(campaign=campaign, path=path, language="fr")
    assert dict(Item.objects.filter(campaign=campaign).values_list("external_id", "language")) == {
        "1": "es",
        "2": "fr",
    }
    assert Campaign.objects.get(pk=campaign.pk).languages == ["en", "es", "fr"]
    with pytest.raises(DomainError, match="language"):
        outputs_import(campaign=campaign, path=path, language="zz-!")


def test_tasks_never_mix_languages(tmp_path: Path) -> None:
    campaign = CampaignFactory(outputs_per_task=3)
    CriterionFactory(campaign=campaign)
    # Item 1 has outputs in two languages (a cross-lingual set-up): two designs.
    rows = [HEADER, *_rows({"2": "en", "3": "de"}, systems=4)]
    rows += [["1", "input 1", f"s{s}", f"t{s}", "en" if s < 2 else "de"] for s in range(4)]
    outputs_import(campaign=campaign, path=write_csv(tmp_path / "o.csv", rows))
    tasks_build(campaign=campaign, seed=5)
    tasks = Task.objects.filter(campaign=campaign).prefetch_related("task_outputs__output")
    assert tasks.exists()
    for task in tasks:
        languages = {to.output.language for to in task.task_outputs.all()}
        assert languages == {task.language}, (task.item.external_id, languages)
    assert set(tasks.values_list("language", flat=True)) == {"en", "de"}


def _live_two_languages(tmp_path: Path) -> Campaign:
    campaign = CampaignFactory(outputs_per_task=3, tasks_per_worker=20)
    CriterionFactory(campaign=campaign)
    rows = [HEADER, *_rows({str(n): "en" if n % 2 else "de" for n in range(8)})]
    outputs_import(campaign=campaign, path=write_csv(tmp_path / "o.csv", rows))
    tasks_build(campaign=campaign, seed=1)
    campaign.status = Campaign.Status.LIVE
    campaign.save(update_fields=["status"])
    return Campaign.objects.get(pk=campaign.pk)


def test_workers_get_tasks_in_their_language_only(tmp_path: Path) -> None:
    campaign = _live_two_languages(tmp_path)
    for language in ("de", "en"):
        worker = WorkerFactory(campaign=campaign, language=language)
        seen = []
        while assignment := assignment_services.task_next_for(worker=worker, campaign=campaign):
            seen.append(assignment.task.language)
            assignment.state = assignment.State.SUBMITTED
            assignment.save(update_fields=["state"])
        assert seen and set(seen) == {language}
        assert len(seen) == Task.objects.filter(campaign=campaign, language=language).count()


def _enter(client, campaign: Campaign, pid: str, *, query: str = "", accept: str = ""):
    url = (
        reverse("annotations:worker-entry", args=[campaign.slug])
        + f"?PROLIFIC_PID={pid}&STUDY_ID=s&SESSION_ID=x{query}"
    )
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=accept)
    identity = re.search(rb'name="identity" value="([^"]+)"', page.content)
    assert identity is not None
    return client.post(
        reverse("annotations:worker-start", args=[campaign.slug]),
        {"agree": "on", "identity": identity.group(1).decode()},
    )


def test_the_worker_language_comes_from_the_link_then_the_browser(client, tmp_path: Path) -> None:
    campaign = _live_two_languages(tmp_path)
    assert _enter(client, campaign, "p1", query="&lang=en", accept="de").status_code == 303
    assert Worker.objects.get(external_id="p1").language == "en"
    assert _enter(client, campaign, "p2", accept="de-CH, de;q=0.9, en;q=0.5").status_code == 303
    assert Worker.objects.get(external_id="p2").language == "de"
    assert _enter(client, campaign, "p3", accept="ja").status_code == 303
    assert Worker.objects.get(external_id="p3").language == campaign.languages[0]


def test_a_full_language_quota_is_a_clear_page_and_writes_nothing(client, tmp_path: Path) -> None:
    campaign = _live_two_languages(tmp_path)
    campaign.language_quotas = {"de": 1}
    campaign.save(update_fields=["language_quotas"])
    # p2 reads consent while the last place is free; p1 takes it first.
    entry = reverse("annotations:worker-entry", args=[campaign.slug])
    page = client.get(entry + "?PROLIFIC_PID=p2&STUDY_ID=s&SESSION_ID=x&lang=de")
    identity = re.search(rb'name="identity" value="([^"]+)"', page.content)
    assert identity is not None
    assert _enter(client, campaign, "p1", query="&lang=de").status_code == 303
    response = client.post(
        reverse("annotations:worker-start", args=[campaign.slug]),
        {"agree": "on", "identity": identity.group(1).decode()},
    )
    assert response.status_code == 409
    # In the language the worker asked for.
    assert "Alle Plätze in Ihrer Sprache sind vergeben" in response.content.decode()
    # A new worker now hears it at the entry, before consent and instructions.
    response = client.get(entry + "?PROLIFIC_PID=p4&STUDY_ID=s&SESSION_ID=x&lang=de")
    assert response.status_code == 409
    assert "Alle Plätze in Ihrer Sprache sind vergeben" in response.content.decode()
    assert 'name="identity"' not in response.content.decode()
    assert Worker.objects.filter(campaign=campaign).count() == 1
    # English is not limited.
    assert _enter(client, campaign, "p3", query="&lang=en").status_code == 303


def _german_task(*, language: str = "de"):
    from tests.factories import task_with_outputs

    campaign = CampaignFactory(
        status=Campaign.Status.LIVE,
        languages=["en", language],
        instructions="Read every text.",
        translations={
            language: {"instructions": "Lesen Sie jeden Text.", "consent_text": "Ich stimme zu."}
        },
    )
    criterion = CriterionFactory(
        campaign=campaign,
        question="How fluent is the text?",
        translations={language: {"question": "Wie flüssig ist der Text?"}},
    )
    task = task_with_outputs(campaign=campaign, criterion=criterion, texts=("eins", "zwei"))
    Task.objects.filter(pk=task.pk).update(language=language)
    task.item.language = language
    task.item.save(update_fields=["language"])
    return campaign, criterion


def test_a_german_task_shows_the_translated_question_and_marks_its_texts(client) -> None:
    from annotations.access.workers import worker_token

    campaign, _ = _german_task()
    worker = WorkerFactory(campaign=campaign, language="de", consented_at="2026-01-01T00:00Z")
    page = client.get(
        reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)]),
        follow=True,
    )
    body = page.content.decode()
    assert "Wie flüssig ist der Text?" in body and "How fluent is the text?" not in body
    assert body.count('lang="de" dir="ltr"') >= 2  # both outputs (and the input)


def test_an_arabic_task_is_written_right_to_left(client) -> None:
    from annotations.access.workers import worker_token

    campaign, _ = _german_task(language="ar")
    worker = WorkerFactory(campaign=campaign, language="ar", consented_at="2026-01-01T00:00Z")
    body = client.get(
        reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)]),
        follow=True,
    ).content.decode()
    assert body.count('lang="ar" dir="rtl"') >= 2


def test_the_consent_page_speaks_the_workers_language(client) -> None:
    campaign, _ = _german_task()
    url = reverse("annotations:worker-entry", args=[campaign.slug])
    german = client.get(url + "?PROLIFIC_PID=a&STUDY_ID=s&SESSION_ID=x&lang=de").content.decode()
    assert "Lesen Sie jeden Text." in german and "Ich stimme zu." in german
    english = client.get(url + "?PROLIFIC_PID=b&STUDY_ID=s&SESSION_ID=x&lang=en").content.decode()
    assert "Read every text." in english and "Lesen Sie" not in english


def test_exports_carry_the_language() -> None:
    from annotations.exports.judgements import csv_lines, jsonl_lines
    from tests.ranking.planted import planted_campaign

    _, criterion = planted_campaign(strengths=[1.0, 0.0], n_judgements=2, k=2)
    Task.objects.filter(criterion=criterion).update(language="de")
    import csv as csv_module

    header, *rows = list(csv_module.reader(csv_lines(criterion=criterion)))
    at = header.index("_language")
    assert rows and all(r[at] == "de" for r in rows)
    assert all(json.loads(line)["language"] == "de" for line in jsonl_lines(criterion=criterion))


def test_progress_per_language_on_the_monitor(client, django_user_model, tmp_path: Path) -> None:
    from annotations.models import CampaignMembership
    from annotations.selectors.languages import language_progress

    campaign = _live_two_languages(tmp_path)
    campaign.language_quotas = {"de": 1}
    campaign.save(update_fields=["language_quotas"])
    worker = WorkerFactory(campaign=campaign, language="de", consented_at="2026-01-01T00:00Z")
    assignment = assignment_services.task_next_for(worker=worker, campaign=campaign)
    assert assignment is not None
    rows = {r.language: r for r in language_progress(campaign=campaign)}
    assert set(rows) == {"de", "en"}
    assert rows["de"].workers == 1 and rows["de"].quota == 1 and rows["de"].full
    assert rows["en"].quota is None and not rows["en"].full
    assert rows["de"].tasks == Task.objects.filter(campaign=campaign, language="de").count()
    assert rows["de"].needed == rows["de"].tasks * campaign.judgements_per_task
    user = django_user_model.objects.create_user("designer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="designer")
    client.force_login(user)
    body = client.get(f"/campaigns/{campaign.slug}/monitor/").content.decode()
    assert "data-language-progress" in body and "full" in body


def test_the_task_page_folds_the_instructions_in_the_workers_language(client) -> None:
    from annotations.access.workers import worker_token

    campaign, _ = _german_task()
    worker = WorkerFactory(campaign=campaign, language="de", consented_at="2026-01-01T00:00Z")
    url = reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)])
    page = client.get(url, follow=True).content.decode()
    assert '<details class="w-instructions">' in page
    assert "Lesen Sie jeden Text." in page and "Read every text." not in page
