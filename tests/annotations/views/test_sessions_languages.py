"""The worker's pages in the worker's language: from the link or the browser, quotas, right to left."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from annotations.models import Campaign, Task, Worker
from tests.annotations.languages_data import _live_two_languages
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory

pytestmark = pytest.mark.django_db


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


def test_an_untranslated_question_keeps_its_own_language_and_direction(client) -> None:
    """An Arabic task whose question the designer did not translate showed the English
    question as lang="ar" dir="rtl" (its "?" moved to the front); a translated one takes
    the outputs' language and direction."""
    from annotations.access.workers import worker_token
    from annotations.models import Criterion

    campaign, criterion = _german_task(language="ar")
    worker = WorkerFactory(campaign=campaign, language="ar", consented_at="2026-01-01T00:00Z")
    url = reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)])
    translated = client.get(url, follow=True).content.decode()
    assert '<h1 class="w-question" lang="ar" dir="rtl">Wie flüssig ist der Text?</h1>' in translated
    Criterion.objects.filter(pk=criterion.pk).update(translations={})
    fallback = client.get(url, follow=True).content.decode()
    assert '<h1 class="w-question" lang="en" dir="ltr">How fluent is the text?</h1>' in fallback
    assert fallback.count('lang="ar" dir="rtl"') >= 2  # the outputs keep theirs


def test_the_consent_page_speaks_the_workers_language(client) -> None:
    campaign, _ = _german_task()
    url = reverse("annotations:worker-entry", args=[campaign.slug])
    german = client.get(url + "?PROLIFIC_PID=a&STUDY_ID=s&SESSION_ID=x&lang=de").content.decode()
    assert "Lesen Sie jeden Text." in german and "Ich stimme zu." in german
    english = client.get(url + "?PROLIFIC_PID=b&STUDY_ID=s&SESSION_ID=x&lang=en").content.decode()
    assert "Read every text." in english and "Lesen Sie" not in english


def test_the_task_page_folds_the_instructions_in_the_workers_language(client) -> None:
    from annotations.access.workers import worker_token

    campaign, _ = _german_task()
    worker = WorkerFactory(campaign=campaign, language="de", consented_at="2026-01-01T00:00Z")
    url = reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)])
    page = client.get(url, follow=True).content.decode()
    assert '<details class="w-instructions">' in page
    assert "Lesen Sie jeden Text." in page and "Read every text." not in page
