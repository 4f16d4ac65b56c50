"""The worker interface speaks the worker's language: every worker-facing
string is marked for translation, so a German worker's pages share no wording with an
English worker's apart from the study's own content (names, texts, codes, numbers)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import timezone

from annotations.access.workers import worker_token
from annotations.models import Campaign, Criterion, Task
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory, task_with_outputs

pytestmark = pytest.mark.django_db

CONTENT = {"Studie X", "Cotto", "coffee shop", "The Bakers", "name", "eat type", "near"}


class _Text(HTMLParser):
    """Visible text: text nodes outside script/style, plus aria-labels and placeholders."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "title"):
            self._skip += 1
        for name, value in attrs:
            if name in ("aria-label", "placeholder") and value:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "title"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def _words(html: str, content: set[str]) -> set[str]:
    parser = _Text()
    parser.feed(html)
    found = set()
    for part in parser.parts:
        text = " ".join(part.split())
        if len(re.findall(r"[A-Za-zÀ-ÿ]{3,}", text)) and text not in content:
            found.add(text)
    return found


def _campaign(scale: str) -> tuple[Campaign, Criterion, set[str]]:
    campaign = CampaignFactory(
        name="Studie X",
        status=Campaign.Status.LIVE,
        languages=["en", "de"],
        tasks_per_worker=1,
        consent_text="",
        instructions="",
    )
    levels = [{"value": v, "label": str(v), "descriptor": f"level {v}"} for v in (1, 2, 3)]
    criterion = CriterionFactory(
        campaign=campaign,
        name="fluency",
        question="How fluent?",
        scale=scale,
        scale_settings={"levels": levels} if scale == "likert" else {},
        translations={
            "de": {"question": "Wie flüssig?", "levels": ["Stufe 1", "Stufe 2", "Stufe 3"]}
        },
    )
    texts = ("Cotto ist ein Café.", "Cotto liegt nahe The Bakers.", "Cotto Café Bakers.")
    for language in ("en", "de"):
        task = task_with_outputs(campaign=campaign, criterion=criterion, texts=texts)
        Task.objects.filter(pk=task.pk).update(language=language)
    content = CONTENT | set(texts) | {"fluency", "Fluency"}
    return campaign, criterion, content


@pytest.mark.parametrize("scale", ["likert", "magnitude", "slider"])
def test_a_german_worker_sees_no_english_wording(client, scale) -> None:
    campaign, criterion, content = _campaign(scale)
    if scale == "magnitude":
        criterion.standard_text = "Cotto ist ein Café."
        criterion.save(update_fields=["standard_text"])
        # the worked example's texts are copies of the standard: content, not wording
        from annotations.selectors.criteria import example_for

        content = content | {row.text for row in example_for(criterion).rows}
    pages = {}
    for language in ("en", "de"):
        entry = reverse("annotations:worker-entry", args=[campaign.slug])
        consent = client.get(
            entry + f"?PROLIFIC_PID=p-{language}&STUDY_ID=s&SESSION_ID=x&lang={language}"
        )
        worker = WorkerFactory(campaign=campaign, language=language, consented_at=timezone.now())
        session = reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)])
        task = client.get(session, follow=True)
        # A submit with nothing filled in: the error summary and messages.
        form = re.search(r'<form id="task-form"[^>]*action="([^"]+)"', task.content.decode())
        assert form is not None
        errors = client.post(form.group(1), {"js": ""})
        pages[language] = [consent.content.decode(), task.content.decode(), errors.content.decode()]
    assert 'lang="de"' in pages["de"][1]
    shared = set()
    for english, german in zip(pages["en"], pages["de"], strict=True):
        shared |= _words(english, content) & _words(german, content)
    # The same wording on both: a string nobody marked for translation.
    assert shared == set(), sorted(shared)


def test_the_browser_or_link_language_also_translates_the_problem_pages(client) -> None:
    url = reverse("annotations:worker-entry", args=["no-such-study"])
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9").content.decode()
    assert "Wir finden diese Studie nicht" in german and '<html lang="de"' in german
    french = client.get(url + "?lang=fr").content.decode()
    assert "Nous ne trouvons pas cette étude" in french
    english = client.get(url).content.decode()
    assert "We cannot find this study" in english


def test_a_one_language_campaign_speaks_its_language_whatever_the_browser(client) -> None:
    campaign = CampaignFactory(status=Campaign.Status.LIVE, languages=["es"], consent_text="")
    CriterionFactory(campaign=campaign)
    url = reverse("annotations:worker-entry", args=[campaign.slug])
    page = client.get(url + "?PROLIFIC_PID=p&STUDY_ID=s&SESSION_ID=x", HTTP_ACCEPT_LANGUAGE="de")
    body = page.content.decode()
    assert "Instrucciones" in body and "Empezar" in body and '<html lang="es"' in body


def test_the_mturk_preview_of_a_multilingual_campaign_is_in_the_workers_language(client) -> None:
    campaign, _criterion, _content = _campaign("likert")
    Campaign.objects.filter(pk=campaign.pk).update(
        description="Rate descriptions of restaurants.",
        instructions="Read the information first.",
        translations={
            "de": {
                "description": "Bewerten Sie Beschreibungen von Restaurants.",
                "instructions": "Lesen Sie zuerst die Informationen.",
            }
        },
    )
    Task.objects.filter(campaign=campaign, language="de").update(number=99)  # not the first
    entry = reverse("annotations:worker-entry", args=[campaign.slug])
    preview = "?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H1"
    german = client.get(entry + preview, HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9").content.decode()
    assert "Bewerten Sie Beschreibungen von Restaurants." in german
    assert "Lesen Sie zuerst die Informationen." in german
    assert "Wie flüssig?" in german and "How fluent?" not in german
    assert "Rate descriptions" not in german and "Read the information first" not in german
    assert re.search(r'<p class="w-text"[^>]*lang="de"', german)
    english = client.get(entry + preview, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Rate descriptions of restaurants." in english and "How fluent?" in english


def test_input_facts_are_in_the_workers_language_and_each_takes_its_own_direction(client):
    from annotations.models import Item

    campaign, criterion, _content = _campaign("magnitude")
    Criterion.objects.filter(pk=criterion.pk).update(show_input=True)
    Item.objects.filter(campaign=campaign).update(
        input="name[Cotto], eatType[coffee shop], familyFriendly[no], near[The Bakers]",
        language="ar",
    )
    Task.objects.filter(campaign=campaign, language="en").delete()
    worker = WorkerFactory(campaign=campaign, language="de", consented_at=timezone.now())
    session = reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)])
    html = client.get(session).content.decode()
    facts = re.findall(r"<dt dir=\"auto\">([^<]+)</dt><dd dir=\"auto\"([^>]*)>([^<]+)</dd>", html)
    assert [(name, value) for name, _attrs, value in facts] == [
        ("Name", "Cotto"),
        ("Art des Lokals", "Café"),
        ("familienfreundlich", "nein"),
        ("in der Nähe von", "The Bakers"),
    ]
    # a value left as given keeps the input's language; a translated one does not
    assert [attrs for _n, attrs, _v in facts] == [' lang="ar"', "", "", ' lang="ar"']
    # no box takes the item's direction as a whole (English facts in an RTL item)
    assert 'class="w-mr" lang=' not in html and "family friendly" not in html
