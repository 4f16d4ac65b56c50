"""The second demo campaign that ``make run`` sets up: multilingual, MTG-style.

``demo_multilingual_seed`` makes a live campaign from ``annotations.core.demo_multilingual``
(no data files needed): four synthetic systems describe 12 restaurant MRs in English,
German, French and Spanish (one item per MR and language, so every task is in one
language), judged on the MTG criteria grammar, fluency and relevance (1-5 Likert). The
campaign's texts and the criteria's questions and level descriptors are translated into
German, French and Spanish, and simulated workers in each language have already judged
part of the tasks, so the language, ranking and mean-rating pages have something to show.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from django.db import transaction
from django.utils import timezone

from annotations.core.demo_multilingual import (
    LANGUAGES,
    SYSTEMS,
    MultilingualItem,
    likert_workers,
    multilingual_items,
    simulated_likert,
)
from annotations.core.outputs import OutputRow
from annotations.models import Campaign, Criterion, Judgement, Output, System, Task, Worker
from annotations.services.campaigns import campaign_create, campaign_launch
from annotations.services.criteria import criterion_from_preset
from annotations.services.demo import DemoSeeded, simulated_judgement
from annotations.services.finished_judgements import (
    FinishedJudgement,
    judgements_store_finished,
)
from annotations.services.languages import campaign_translations_update
from annotations.services.outputs import outputs_store
from annotations.services.tasks import tasks_build

DEMO_MTG_SLUG = "demo-mtg"
DEMO_MTG_NAME = "Demo: multilingual restaurant descriptions (MTG-style, en/de/fr/es)"
DEMO_MTG_SEED = 2020
DEMO_MTG_ITEMS = 12  # MRs; each is an item in every language
DEMO_MTG_CRITERIA = ("grammar", "fluency", "relevance")
DEMO_MTG_WORKERS = 6  # simulated, per language
DEMO_MTG_JUDGEMENTS_PER_TASK = 2  # simulated; leaves room for real visitors (3 per task)

DEMO_MTG_DESCRIPTION = (
    "A demonstration campaign with synthetic data in four languages: four made-up "
    "systems of graded quality describe 12 restaurants from structured data in English, "
    "German, French and Spanish, as in meaning-to-text generation (MTG) evaluations. "
    "Workers rate grammar, fluency and relevance from 1 to 5 in their own language. "
    "Simulated workers have already judged part of the tasks."
)

DEMO_MTG_INSTRUCTIONS = """\
You will read short descriptions of restaurants, written by computer programs from a \
list of facts (for example: name, type of food, price range, location). Each task shows \
up to four descriptions, all in your language.

Rate every description from 1 (worst) to 5 (best). Depending on the task you are asked \
about:

- grammar: is the text grammatically correct?
- fluency: does it read naturally, as a native speaker would write it?
- relevance: does it say what the facts say, no more and no less? The facts are shown.

The page describes what each number means. Read each description fully before you rate \
it. There are no trick questions; we want your own judgement.
"""

DEMO_MTG_CONSENT = """\
This study is run to compare computer programs that write text. It takes about 10 \
minutes. You will rate short restaurant descriptions; nothing in them is offensive.

What we store: your platform ID (to pay you and to avoid giving you the same task twice), \
the language you judge in, your ratings, and how long each task took. We do not store \
your name, your IP address or your location. Your ratings may be published in anonymous \
form for research.

Taking part is voluntary. You may stop at any time by closing the page; work you have \
submitted until then stays stored unless you ask us to remove it, quoting your platform \
ID. If you have questions, contact the organizers through the platform's messaging.

By continuing you confirm that you are at least 18 years old, that you have read this \
information, and that you agree to take part.
"""

# What workers judging in German, French and Spanish read instead.
DEMO_MTG_TRANSLATIONS: dict[str, dict[str, str]] = {
    "de": {
        "name": "Demo: mehrsprachige Restaurantbeschreibungen (MTG-Stil)",
        "description": (
            "Eine Demonstrationskampagne mit synthetischen Daten in vier Sprachen: vier "
            "erfundene Systeme unterschiedlicher Qualität beschreiben 12 Restaurants aus "
            "strukturierten Daten auf Englisch, Deutsch, Französisch und Spanisch, wie in "
            "Evaluationen der Textgenerierung aus Bedeutungsrepräsentationen (MTG). "
            "Bewertet werden Grammatik, Flüssigkeit und Relevanz von 1 bis 5, jeweils in "
            "der eigenen Sprache. Simulierte Teilnehmende haben einen Teil der Aufgaben "
            "bereits bewertet."
        ),
        "instructions": """\
Sie lesen kurze Beschreibungen von Restaurants, die Computerprogramme aus einer Liste \
von Fakten geschrieben haben (zum Beispiel: Name, Art des Essens, Preisklasse, Lage). \
Jede Aufgabe zeigt bis zu vier Beschreibungen, alle in Ihrer Sprache.

Bewerten Sie jede Beschreibung von 1 (am schlechtesten) bis 5 (am besten). Je nach \
Aufgabe werden Sie gefragt nach:

- Grammatik: Ist der Text grammatisch korrekt?
- Flüssigkeit: Liest er sich natürlich, so wie ihn ein Muttersprachler schreiben würde?
- Relevanz: Sagt er, was die Fakten sagen, nicht mehr und nicht weniger? Die Fakten \
werden angezeigt.

Auf der Seite steht, was jede Zahl bedeutet. Lesen Sie jede Beschreibung vollständig, \
bevor Sie sie bewerten. Es gibt keine Fangfragen; uns interessiert Ihr eigenes Urteil.
""",
        "consent_text": """\
Diese Studie vergleicht Computerprogramme, die Texte schreiben. Sie dauert etwa 10 \
Minuten. Sie bewerten kurze Beschreibungen von Restaurants; nichts darin ist anstößig.

Was wir speichern: Ihre Plattform-ID (um Sie zu bezahlen und Ihnen nicht zweimal dieselbe \
Aufgabe zu geben), die Sprache, in der Sie bewerten, Ihre Bewertungen und wie lange jede \
Aufgabe gedauert hat. Wir speichern weder Ihren Namen noch Ihre IP-Adresse oder Ihren \
Standort. Ihre Bewertungen können in anonymisierter Form für die Forschung \
veröffentlicht werden.

Die Teilnahme ist freiwillig. Sie können jederzeit aufhören, indem Sie die Seite \
schließen; bis dahin abgeschickte Arbeit bleibt gespeichert, es sei denn, Sie bitten uns \
unter Angabe Ihrer Plattform-ID, sie zu löschen. Bei Fragen wenden Sie sich über die \
Nachrichtenfunktion der Plattform an die Organisatoren.

Indem Sie fortfahren, bestätigen Sie, dass Sie mindestens 18 Jahre alt sind, diese \
Informationen gelesen haben und der Teilnahme zustimmen.
""",
    },
    "fr": {
        "name": "Démo : descriptions de restaurants multilingues (style MTG)",
        "description": (
            "Une campagne de démonstration avec des données synthétiques en quatre "
            "langues : quatre systèmes fictifs de qualité variable décrivent 12 restaurants "
            "à partir de données structurées en anglais, en allemand, en français et en "
            "espagnol, comme dans les évaluations de génération de texte à partir de "
            "représentations sémantiques (MTG). La grammaire, la fluidité et la pertinence "
            "sont notées de 1 à 5, chacun dans sa propre langue. Des participants simulés "
            "ont déjà évalué une partie des tâches."
        ),
        "instructions": """\
Vous allez lire de courtes descriptions de restaurants, écrites par des programmes \
informatiques à partir d'une liste de faits (par exemple : nom, type de cuisine, gamme \
de prix, emplacement). Chaque tâche présente jusqu'à quatre descriptions, toutes dans \
votre langue.

Notez chaque description de 1 (la moins bonne) à 5 (la meilleure). Selon la tâche, on \
vous interroge sur :

- la grammaire : le texte est-il grammaticalement correct ?
- la fluidité : se lit-il naturellement, comme l'écrirait un locuteur natif ?
- la pertinence : dit-il ce que disent les faits, ni plus ni moins ? Les faits sont \
affichés.

La page indique ce que signifie chaque note. Lisez chaque description en entier avant \
de la noter. Il n'y a pas de piège ; c'est votre propre jugement qui nous intéresse.
""",
        "consent_text": """\
Cette étude compare des programmes informatiques qui écrivent des textes. Elle dure \
environ 10 minutes. Vous noterez de courtes descriptions de restaurants ; elles ne \
contiennent rien de choquant.

Ce que nous conservons : votre identifiant sur la plateforme (pour vous payer et ne pas \
vous donner deux fois la même tâche), la langue dans laquelle vous évaluez, vos notes et \
la durée de chaque tâche. Nous ne conservons ni votre nom, ni votre adresse IP, ni votre \
localisation. Vos notes pourront être publiées de façon anonyme à des fins de recherche.

La participation est volontaire. Vous pouvez arrêter à tout moment en fermant la page ; \
le travail envoyé jusque-là reste enregistré, sauf si vous nous demandez de le supprimer \
en indiquant votre identifiant sur la plateforme. Pour toute question, contactez les \
organisateurs via la messagerie de la plateforme.

En continuant, vous confirmez avoir au moins 18 ans, avoir lu ces informations et \
accepter de participer.
""",
    },
    "es": {
        "name": "Demo: descripciones multilingües de restaurantes (estilo MTG)",
        "description": (
            "Una campaña de demostración con datos sintéticos en cuatro idiomas: cuatro "
            "sistemas ficticios de distinta calidad describen 12 restaurantes a partir de "
            "datos estructurados en inglés, alemán, francés y español, como en las "
            "evaluaciones de generación de texto a partir de representaciones de significado "
            "(MTG). Se valoran la gramática, la fluidez y la relevancia de 1 a 5, cada uno en "
            "su propio idioma. Participantes simulados ya han evaluado parte de las tareas."
        ),
        "instructions": """\
Leerá descripciones breves de restaurantes, escritas por programas informáticos a partir \
de una lista de datos (por ejemplo: nombre, tipo de comida, rango de precios, ubicación). \
Cada tarea muestra hasta cuatro descripciones, todas en su idioma.

Valore cada descripción de 1 (la peor) a 5 (la mejor). Según la tarea, se le pregunta \
por:

- la gramática: ¿es el texto gramaticalmente correcto?
- la fluidez: ¿se lee con naturalidad, como lo escribiría un hablante nativo?
- la relevancia: ¿dice lo que dicen los datos, ni más ni menos? Los datos se muestran.

La página explica qué significa cada número. Lea cada descripción completa antes de \
valorarla. No hay preguntas trampa; nos interesa su propia opinión.
""",
        "consent_text": """\
Este estudio compara programas informáticos que escriben textos. Dura unos 10 minutos. \
Valorará descripciones breves de restaurantes; no contienen nada ofensivo.

Qué guardamos: su ID de la plataforma (para pagarle y no darle dos veces la misma \
tarea), el idioma en el que evalúa, sus valoraciones y cuánto tardó en cada tarea. No \
guardamos su nombre, su dirección IP ni su ubicación. Sus valoraciones pueden publicarse \
de forma anónima con fines de investigación.

La participación es voluntaria. Puede dejarlo en cualquier momento cerrando la página; \
el trabajo enviado hasta entonces se conserva, salvo que nos pida eliminarlo indicando su \
ID de la plataforma. Si tiene preguntas, contacte con los organizadores a través de la \
mensajería de la plataforma.

Al continuar, confirma que tiene al menos 18 años, que ha leído esta información y que \
acepta participar.
""",
    },
}

# The presets' questions and level descriptors (levels 1 to 5, in the presets' order).
DEMO_MTG_CRITERION_TRANSLATIONS: dict[str, dict[str, dict[str, Any]]] = {
    "grammar": {
        "de": {
            "question": "Wie grammatisch korrekt ist der Text?",
            "levels": [
                "Unverständlich: Grammatikfehler machen ihn unlesbar",
                "Viele schwere Fehler",
                "Mehrere Fehler, die Bedeutung ist aber noch klar",
                "Nur kleine Fehler",
                "Grammatisch einwandfrei",
            ],
        },
        "fr": {
            "question": "Dans quelle mesure le texte est-il grammaticalement correct ?",
            "levels": [
                "Incompréhensible : les fautes de grammaire le rendent illisible",
                "Beaucoup de fautes graves",
                "Plusieurs fautes, mais le sens reste clair",
                "Seulement des fautes mineures",
                "Grammaticalement parfait",
            ],
        },
        "es": {
            "question": "¿En qué medida es gramaticalmente correcto el texto?",
            "levels": [
                "Incomprensible: los errores gramaticales lo hacen ilegible",
                "Muchos errores graves",
                "Varios errores, pero el significado sigue siendo claro",
                "Solo errores menores",
                "Gramaticalmente perfecto",
            ],
        },
    },
    "fluency": {
        "de": {
            "question": "Wie flüssig und natürlich liest sich der Text?",
            "levels": [
                "Überhaupt nicht flüssig",
                "An den meisten Stellen holprig",
                "Verständlich, aber unbeholfen",
                "Größtenteils flüssig",
                "Völlig flüssig, so wie ein Muttersprachler schreiben würde",
            ],
        },
        "fr": {
            "question": "Le texte se lit-il de manière fluide et naturelle ?",
            "levels": [
                "Pas du tout fluide",
                "Maladroit presque partout",
                "Compréhensible mais maladroit",
                "Plutôt fluide",
                "Parfaitement fluide, comme l'écrirait un locuteur natif",
            ],
        },
        "es": {
            "question": "¿Con qué fluidez y naturalidad se lee el texto?",
            "levels": [
                "Nada fluido",
                "Forzado en la mayor parte del texto",
                "Comprensible pero torpe",
                "Mayormente fluido",
                "Totalmente fluido, como lo escribiría un hablante nativo",
            ],
        },
    },
    "relevance": {
        "de": {
            "question": (
                "Wie gut gibt der Text die Eingabe wieder, ohne Auslassungen oder Zusätze?"
            ),
            "levels": [
                "Hat nichts mit der Eingabe zu tun",
                "Gibt wenig von der Eingabe wieder",
                "Gibt etwa die Hälfte der Eingabe wieder",
                "Gibt den Großteil der Eingabe wieder",
                "Gibt die gesamte Eingabe wieder und nichts anderes",
            ],
        },
        "fr": {
            "question": (
                "Dans quelle mesure le texte exprime-t-il les données d'entrée, sans omission "
                "ni ajout ?"
            ),
            "levels": [
                "Sans rapport avec les données d'entrée",
                "Exprime peu des données d'entrée",
                "Exprime environ la moitié des données d'entrée",
                "Exprime l'essentiel des données d'entrée",
                "Exprime toutes les données d'entrée, et rien d'autre",
            ],
        },
        "es": {
            "question": "¿En qué medida expresa el texto la entrada, sin omisiones ni añadidos?",
            "levels": [
                "No tiene relación con la entrada",
                "Expresa poco de la entrada",
                "Expresa aproximadamente la mitad de la entrada",
                "Expresa la mayor parte de la entrada",
                "Expresa toda la entrada y nada más",
            ],
        },
    },
}


@transaction.atomic
def demo_multilingual_seed(*, seed: int = DEMO_MTG_SEED) -> DemoSeeded:
    """Create the multilingual demo campaign unless it exists; report what it holds.

    A campaign with the slug ``demo-mtg`` is left as it is, whatever it holds. Otherwise
    it is created live, in one transaction: ``DEMO_MTG_ITEMS`` MRs as items in each of
    en, de, fr and es with the four systems' outputs in that language, the MTG criteria
    with their German, French and Spanish texts, the campaign's texts in those languages,
    a task design seeded with ``seed`` (one task per item and criterion: four outputs)
    and simulated judgements from workers in every language.
    """
    campaign = Campaign.objects.filter(slug=DEMO_MTG_SLUG).first()
    created = campaign is None
    if campaign is None:
        campaign = campaign_create(
            slug=DEMO_MTG_SLUG,
            name=DEMO_MTG_NAME,
            description=DEMO_MTG_DESCRIPTION,
            instructions=DEMO_MTG_INSTRUCTIONS,
            consent_text=DEMO_MTG_CONSENT,
            outputs_per_task=len(SYSTEMS),
            judgements_per_task=3,
            tasks_per_worker=10,
            min_seconds_per_task=10,
            languages=list(LANGUAGES),
            language_quotas={},
        )
        criteria = [
            criterion_from_preset(campaign=campaign, preset=name) for name in DEMO_MTG_CRITERIA
        ]
        for language, texts in DEMO_MTG_TRANSLATIONS.items():
            campaign_translations_update(
                campaign=campaign,
                language=language,
                texts=texts,
                criteria={
                    c.pk: DEMO_MTG_CRITERION_TRANSLATIONS[c.name][language] for c in criteria
                },
            )
        items = multilingual_items(rng=np.random.default_rng(seed), n_items=DEMO_MTG_ITEMS)
        outputs_store(
            campaign=campaign,
            rows=[
                OutputRow(
                    item_id=item.external_id,
                    input=item.input,
                    system=label,
                    text=out.text,
                    language=item.language,
                )
                for item in items
                for label, out in item.outputs.items()
            ],
        )
        described = {s.label: s for s in SYSTEMS}
        systems = list(campaign.systems.all())
        for system in systems:
            system.name = described[system.label].name
            system.metadata = {"description": described[system.label].description,
                               "synthetic": True}  # fmt: skip
        System.objects.bulk_update(systems, ["name", "metadata"])
        tasks_build(campaign=campaign, seed=seed)  # tasks are built in a draft
        campaign = campaign_launch(campaign=campaign)
        demo_multilingual_judgements_simulate(campaign=campaign, items=items, seed=seed)
    return DemoSeeded(
        campaign=campaign,
        created=created,
        systems=campaign.systems.count(),
        items=campaign.items.count(),
        outputs=Output.objects.filter(item__campaign=campaign).count(),
        tasks=campaign.tasks.filter(kind=Task.Kind.REGULAR).count(),
        judgements=Judgement.objects.filter(task__campaign=campaign).count(),
    )


def demo_multilingual_judgements_simulate(
    *, campaign: Campaign, items: list[MultilingualItem], seed: int
) -> int:
    """Store simulated 1-5 judgements of the campaign's design tasks; returns how many.

    ``DEMO_MTG_WORKERS`` simulated workers per language (platform ``imported``, metadata
    ``{"simulated": true, "language": ...}``, ``Worker.language`` set) judge the tasks
    in their language: ``DEMO_MTG_JUDGEMENTS_PER_TASK`` distinct workers per task, taken
    in turn so every worker judges as many tasks. Ratings come from
    ``annotations.core.demo_multilingual.simulated_likert``. Stored with
    ``judgements_store_finished`` as imported tasks mirroring the design tasks, so the
    regular tasks stay open for real workers.
    """
    rng = np.random.default_rng([seed, 1])
    languages = list(campaign.languages or LANGUAGES)
    workers = {
        language: likert_workers(rng=rng, language=language, n=DEMO_MTG_WORKERS)
        for language in languages
    }
    outputs = {item.external_id: item.outputs for item in items}
    now = timezone.now()
    stored = 0
    criterion: Criterion
    for criterion in campaign.criteria.order_by("position", "name"):
        tasks = list(
            Task.objects.filter(campaign=campaign, criterion=criterion, kind=Task.Kind.REGULAR)
            .select_related("item")
            .prefetch_related("task_outputs__output__system")
            .order_by("number")
        )
        judgements: list[FinishedJudgement] = []
        for language in languages:
            mine = [t for t in tasks if t.language == language]
            pool = workers[language]
            order = [pool[int(w)] for w in rng.permutation(len(pool))]
            turn = 0
            for task in mine:
                labels = [to.output.system.label for to in task.task_outputs.all()]
                item_outputs = outputs[task.item.external_id]
                for _ in range(DEMO_MTG_JUDGEMENTS_PER_TASK):
                    worker = order[turn % len(order)]
                    turn += 1
                    ratings = simulated_likert(
                        [item_outputs[label] for label in labels],
                        criterion=criterion.name,
                        worker=worker,
                        rng=rng,
                    )
                    judgements.append(
                        simulated_judgement(
                            task=task,
                            criterion=criterion,
                            worker_id=worker.external_id,
                            labels=labels,
                            scores=[float(r) for r in ratings],
                            now=now,
                            seconds=(30, 180),
                            rng=rng,
                            worker_metadata={"simulated": True, "language": language},
                        )
                    )
        judgements.sort(key=lambda j: j.submitted_at)
        stored += judgements_store_finished(
            campaign=campaign, criterion=criterion, judgements=judgements
        )
    for language, pool in workers.items():
        Worker.objects.filter(
            campaign=campaign,
            platform=Worker.Platform.IMPORTED,
            external_id__in=[w.external_id for w in pool],
        ).update(language=language)
    return stored
