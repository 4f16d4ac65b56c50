"""A synthetic multilingual MTG-style data set for the second demo campaign (pure: no Django).

The same restaurant meaning representations (MRs, from ``annotations.core.demo.random_mr``)
are described in English, German, French and Spanish by four synthetic systems of
graded quality: one writes every fact grammatically, one leaves facts out, one makes
grammar and word-order errors, and one says one fact per sentence and repeats itself.
English reuses the realiser and error models of ``annotations.core.demo``; German, French and
Spanish have small template grammars of their own (grammatical for the good system).
Every output records its defects, from which ``simulated_likert`` draws 1-5 ratings for
the MTG criteria (grammar, fluency, relevance): better outputs tend to score higher.

Everything is drawn from a ``numpy.random.Generator`` passed in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from annotations.core.demo import (
    DemoOutput,
    DemoSystem,
    disfluent,
    omit,
    random_mr,
    realise,
    repetitive,
)

LANGUAGES = ("en", "de", "fr", "es")

SYSTEMS = (
    DemoSystem("polished", "Polished", "Every fact, grammatical and fluent, in every language."),
    DemoSystem("terse", "Terse", "Grammatical, but leaves out one to three facts."),
    DemoSystem("clumsy", "Clumsy", "Every fact, with grammar and word-order errors."),
    DemoSystem("parrot", "Parrot", "Every fact, one per sentence, some said twice."),
)


@dataclass(frozen=True)
class MultilingualItem:
    """One MR in one language, with the four systems' outputs in that language."""

    external_id: str  # "de-003"
    language: str
    mr: dict[str, str]
    outputs: dict[str, DemoOutput] = field(default_factory=dict)

    @property
    def input(self) -> str:
        """The MR in E2E form: ``name[The Eagle], eatType[pub], ...``."""
        return ", ".join(f"{a}[{v}]" for a, v in self.mr.items())


def _pick(rng: np.random.Generator, options: tuple[str, ...]) -> str:
    return options[int(rng.integers(len(options)))]


# ----------------------------------------------------------------------------------------
# Lexicons: how each language says the E2E values


@dataclass(frozen=True)
class Lexicon:
    """A language's words for the MR values and its sentence templates.

    ``intro`` makes the first sentence from the name, the kind of place and where it is;
    ``facts`` the other sentences (a few variants each); ``parrot`` one sentence per
    fact that starts with the name. ``swaps`` are the errors a clumsy system makes.
    """

    code: str
    eat_type: Mapping[str, str]  # "" = no eatType given
    area: Mapping[str, tuple[str, ...]]
    near: Callable[[str], str]
    food: Mapping[str, str]
    food_sentences: tuple[str, ...]
    price_words: Mapping[str, str]
    price_sentences: tuple[str, ...]  # for the adjective values (cheap, moderate, high)
    amount_sentences: tuple[str, ...]  # for the amounts (less than £20, ...)
    rating_words: Mapping[str, str]
    rating_sentences: tuple[str, ...]  # low, average, high
    score_sentences: tuple[str, ...]  # 1 out of 5, ...
    family: Mapping[str, tuple[str, ...]]
    intro: str  # "{name} ist {eat}{where}."
    parrot: Mapping[str, Callable[[str, str], str]]
    swaps: tuple[tuple[str, str], ...]


_AMOUNTS = ("less than £20", "£20-25", "more than £30")
_SCORES = ("1 out of 5", "3 out of 5", "5 out of 5")


def _score(value: str, word: str) -> str:
    """``3 out of 5`` as ``3 <word> 5``."""
    return value.replace(" out of ", f" {word} ")


def _french_de(name: str) -> str:
    """``de`` before a name, elided before a vowel: ``près d'Avalon``."""
    return f"d'{name}" if name[:1].lower() in "aeiou" else f"de {name}"


_DE_FOOD = {
    "Chinese": "chinesisches Essen", "English": "englisches Essen",
    "French": "französisches Essen", "Fast food": "Fast Food", "Indian": "indisches Essen",
    "Italian": "italienisches Essen", "Japanese": "japanisches Essen",
}  # fmt: skip
_DE_PRICE = {
    "cheap": "niedrig", "moderate": "moderat", "high": "hoch",
    "less than £20": "weniger als 20 Pfund", "£20-25": "20 bis 25 Pfund",
    "more than £30": "mehr als 30 Pfund",
}  # fmt: skip
_DE_PRICE_ATTRIBUTIVE = {"cheap": "niedrige", "moderate": "moderate", "high": "hohe"}
_DE_RATING = {"low": "niedrig", "average": "durchschnittlich", "high": "hoch"}
_DE_RATING_ATTRIBUTIVE = {"low": "niedrige", "average": "durchschnittliche", "high": "hohe"}
_DE_EAT = {"restaurant": "ein Restaurant", "coffee shop": "ein Café", "pub": "ein Pub",
           "": "ein Lokal"}  # fmt: skip
_DE_AREA = {"city centre": ("im Stadtzentrum", "in der Innenstadt"),
            "riverside": ("am Flussufer", "direkt am Fluss")}  # fmt: skip


def _de_price(name: str, value: str) -> str:
    if value in _DE_PRICE_ATTRIBUTIVE:
        return f"{name} hat {_DE_PRICE_ATTRIBUTIVE[value]} Preise."
    return f"{name} hat Preise von {_DE_PRICE[value]}."


def _de_rating(name: str, value: str) -> str:
    if value in _DE_RATING_ATTRIBUTIVE:
        return f"{name} hat eine {_DE_RATING_ATTRIBUTIVE[value]} Kundenbewertung."
    return f"{name} hat eine Kundenbewertung von {_score(value, 'von')} Punkten."


GERMAN = Lexicon(
    code="de",
    eat_type=_DE_EAT,
    area=_DE_AREA,
    near=lambda near: f"in der Nähe von {near}",
    food=_DE_FOOD,
    food_sentences=("Dort gibt es {food}.", "Serviert wird {food}.", "Auf der Karte steht {food}."),
    price_words=_DE_PRICE,
    price_sentences=("Die Preise sind {price}.", "Die Preise dort sind {price}."),
    amount_sentences=("Ein Essen kostet {price}.", "Ein Hauptgericht kostet {price}."),
    rating_words={**_DE_RATING, **{s: _score(s, "von") for s in _SCORES}},
    rating_sentences=("Die Kundenbewertung ist {rating}.", "Die Bewertung der Gäste ist {rating}."),
    score_sentences=(
        "Die Kundenbewertung liegt bei {rating} Punkten.",
        "Die Gäste vergeben {rating} Punkten.",
    ),
    family={
        "yes": ("Das Lokal ist kinderfreundlich.", "Familien mit Kindern sind willkommen."),
        "no": ("Das Lokal ist nicht kinderfreundlich.", "Kinder sind dort nicht willkommen."),
    },
    intro="{name} ist {eat}{where}.",
    parrot={
        "eatType": lambda name, v: f"{name} ist {_DE_EAT[v]}.",
        "food": lambda name, v: f"{name} serviert {_DE_FOOD[v]}.",
        "priceRange": _de_price,
        "customer rating": _de_rating,
        "area": lambda name, v: f"{name} ist {_DE_AREA[v][0]}.",
        "familyFriendly": lambda name, v: (
            f"{name} ist {'' if v == 'yes' else 'nicht '}kinderfreundlich."
        ),
        "near": lambda name, v: f"{name} ist in der Nähe von {v}.",
    },
    swaps=(
        (" ist ein ", " ist eine "),
        ("Dort gibt es ", "Dort es gibt "),
        ("Die Preise sind ", "Die Preise ist "),
        (" im ", " in "),
        (" in der Nähe von ", " in die Nähe von "),
        ("Serviert wird ", "Serviert werden "),
        ("Die Kundenbewertung ist ", "Die Kundenbewertung sind "),
        (" hat eine ", " hat ein "),
        ("Ein Essen kostet ", "Ein Essen kosten "),
        ("Das Lokal ist ", "Das Lokal sind "),
        ("Kinder sind ", "Kinder ist "),
        (" am Flussufer", " an Flussufer"),
        ("Die Gäste vergeben ", "Die Gäste vergibt "),
        (" liegt bei ", " liegt bei bei "),
    ),
)

_FR_FOOD = {
    "Chinese": "une cuisine chinoise", "English": "une cuisine anglaise",
    "French": "une cuisine française", "Fast food": "de la restauration rapide",
    "Indian": "une cuisine indienne", "Italian": "une cuisine italienne",
    "Japanese": "une cuisine japonaise",
}  # fmt: skip
_FR_PRICE = {
    "cheap": "bas", "moderate": "modérés", "high": "élevés",
    "less than £20": "moins de 20 livres", "£20-25": "entre 20 et 25 livres",
    "more than £30": "plus de 30 livres",
}  # fmt: skip
_FR_RATING = {"low": "faible", "average": "moyenne", "high": "élevée"}
_FR_EAT = {"restaurant": "un restaurant", "coffee shop": "un café", "pub": "un pub",
           "": "un établissement"}  # fmt: skip
_FR_AREA = {"city centre": ("dans le centre-ville", "au centre-ville"),
            "riverside": ("au bord de la rivière", "en bord de rivière")}  # fmt: skip


def _fr_price(name: str, value: str) -> str:
    if value in _AMOUNTS:
        amount = _FR_PRICE[value]
        return f"{name} a des prix {'compris' if amount.startswith('entre') else 'de'} {amount}."
    return f"{name} a des prix {_FR_PRICE[value]}."


def _fr_rating(name: str, value: str) -> str:
    if value in _FR_RATING:
        return f"{name} a une note client {_FR_RATING[value]}."
    return f"{name} a une note client de {_score(value, 'sur')}."


FRENCH = Lexicon(
    code="fr",
    eat_type=_FR_EAT,
    area=_FR_AREA,
    near=lambda near: f"près {_french_de(near)}",
    food=_FR_FOOD,
    food_sentences=("Il propose {food}.", "On y sert {food}."),
    price_words=_FR_PRICE,
    price_sentences=("Les prix sont {price}.", "Ses prix sont {price}."),
    amount_sentences=("Un repas coûte {price}.", "Comptez {price} par repas."),
    rating_words={**_FR_RATING, **{s: _score(s, "sur") for s in _SCORES}},
    rating_sentences=("Sa note client est {rating}.", "Les clients lui donnent une note {rating}."),
    score_sentences=(
        "Sa note client est de {rating}.",
        "Les clients lui donnent une note de {rating}.",
    ),
    family={
        "yes": ("Il est adapté aux enfants.", "Il accueille les familles avec enfants."),
        "no": ("Il n'est pas adapté aux enfants.", "Il n'accueille pas les enfants."),
    },
    intro="{name} est {eat}{where}.",
    parrot={
        "eatType": lambda name, v: f"{name} est {_FR_EAT[v]}.",
        "food": lambda name, v: f"{name} sert {_FR_FOOD[v]}.",
        "priceRange": _fr_price,
        "customer rating": _fr_rating,
        "area": lambda name, v: f"{name} est {_FR_AREA[v][0]}.",
        "familyFriendly": lambda name, v: (
            f"{name} est adapté aux enfants."
            if v == "yes"
            else f"{name} n'est pas adapté aux enfants."
        ),
        "near": lambda name, v: f"{name} est près {_french_de(v)}.",
    },
    swaps=(
        (" est un ", " est une "),
        ("Il propose ", "Il proposent "),
        ("Les prix sont ", "Les prix est "),
        (" dans le ", " dans la "),
        (" près de ", " près "),
        (" au bord de la ", " au bord du "),
        ("Un repas coûte ", "Un repas coûtent "),
        ("Sa note client est ", "Sa note client sont "),
        (" n'est pas ", " est pas "),
        ("Il accueille ", "Il accueillent "),
        (" une cuisine ", " un cuisine "),
        ("On y sert ", "On sert y "),
        (" lui donnent ", " le donne "),
    ),
)

_ES_FOOD = {
    "Chinese": "comida china", "English": "comida inglesa", "French": "comida francesa",
    "Fast food": "comida rápida", "Indian": "comida india", "Italian": "comida italiana",
    "Japanese": "comida japonesa",
}  # fmt: skip
_ES_PRICE = {
    "cheap": "bajos", "moderate": "moderados", "high": "altos",
    "less than £20": "menos de 20 libras", "£20-25": "entre 20 y 25 libras",
    "more than £30": "más de 30 libras",
}  # fmt: skip
_ES_RATING = {"low": "baja", "average": "media", "high": "alta"}
_ES_EAT = {"restaurant": "un restaurante", "coffee shop": "una cafetería", "pub": "un pub",
           "": "un local"}  # fmt: skip
_ES_AREA = {"city centre": ("en el centro de la ciudad", "en pleno centro"),
            "riverside": ("a la orilla del río", "junto al río")}  # fmt: skip


def _es_price(name: str, value: str) -> str:
    if value in _AMOUNTS:
        return f"{name} tiene precios de {_ES_PRICE[value]}."
    return f"{name} tiene precios {_ES_PRICE[value]}."


def _es_rating(name: str, value: str) -> str:
    if value in _ES_RATING:
        return f"{name} tiene una valoración {_ES_RATING[value]}."
    return f"{name} tiene una valoración de {_score(value, 'sobre')}."


SPANISH = Lexicon(
    code="es",
    eat_type=_ES_EAT,
    area=_ES_AREA,
    near=lambda near: f"cerca de {near}",
    food=_ES_FOOD,
    food_sentences=("Sirve {food}.", "Ofrece {food}."),
    price_words=_ES_PRICE,
    price_sentences=("Los precios son {price}.", "Sus precios son {price}."),
    amount_sentences=("Una comida cuesta {price}.", "Comer allí cuesta {price}."),
    rating_words={**_ES_RATING, **{s: _score(s, "sobre") for s in _SCORES}},
    rating_sentences=(
        "Los clientes le dan una valoración {rating}.",
        "Tiene una valoración {rating} entre los clientes.",
    ),
    score_sentences=(
        "Los clientes le dan una valoración de {rating}.",
        "Tiene una valoración de {rating}.",
    ),
    family={
        "yes": ("Los niños son bienvenidos.", "Admite niños."),
        "no": ("Los niños no son bienvenidos.", "No admite niños."),
    },
    intro="{name} es {eat}{where}.",
    parrot={
        "eatType": lambda name, v: f"{name} es {_ES_EAT[v]}.",
        "food": lambda name, v: f"{name} sirve {_ES_FOOD[v]}.",
        "priceRange": _es_price,
        "customer rating": _es_rating,
        "area": lambda name, v: f"{name} está {_ES_AREA[v][0]}.",
        "familyFriendly": lambda name, v: f"{name} {'' if v == 'yes' else 'no '}admite niños.",
        "near": lambda name, v: f"{name} está cerca de {v}.",
    },
    swaps=(
        (" es un ", " es una "),
        ("Sirve ", "Sirven "),
        ("Los precios son ", "Los precios es "),
        (" en el centro", " en la centro"),
        (" cerca de ", " cerca "),
        ("Una comida cuesta ", "Una comida cuestan "),
        ("Los niños son ", "Los niños es "),
        (" le dan ", " les da "),
        (" una valoración ", " un valoración "),
        (" junto al río", " junto el río"),
        ("Tiene una ", "Tienen una "),
        (" no son bienvenidos", " no son bienvenido"),
    ),
)

LEXICONS: dict[str, Lexicon] = {lex.code: lex for lex in (GERMAN, FRENCH, SPANISH)}


# ----------------------------------------------------------------------------------------
# Realisation in German, French and Spanish (English: ``annotations.core.demo``)


def realise_in(mr: dict[str, str], lexicon: Lexicon, rng: np.random.Generator) -> str:
    """Grammatical text in the lexicon's language that expresses every attribute of ``mr``."""
    where = ""
    if "area" in mr:
        where += " " + _pick(rng, lexicon.area[mr["area"]])
    if "near" in mr:
        where += (", " if where else " ") + lexicon.near(mr["near"])
    sentences = [
        lexicon.intro.format(
            name=mr["name"], eat=lexicon.eat_type[mr.get("eatType", "")], where=where
        )
    ]
    if "food" in mr:
        sentences.append(_pick(rng, lexicon.food_sentences).format(food=lexicon.food[mr["food"]]))
    if "priceRange" in mr:
        value = mr["priceRange"]
        templates = lexicon.amount_sentences if value in _AMOUNTS else lexicon.price_sentences
        sentences.append(_pick(rng, templates).format(price=lexicon.price_words[value]))
    if "customer rating" in mr:
        value = mr["customer rating"]
        templates = lexicon.score_sentences if value in _SCORES else lexicon.rating_sentences
        sentences.append(_pick(rng, templates).format(rating=lexicon.rating_words[value]))
    if "familyFriendly" in mr:
        sentences.append(_pick(rng, lexicon.family[mr["familyFriendly"]]))
    return " ".join(sentences)


def disfluent_in(text: str, lexicon: Lexicon, rng: np.random.Generator) -> tuple[str, int]:
    """The text with two to four grammar or word-order errors (as ``demo.disfluent``)."""
    errors = 0
    padded = f" {text} "
    wanted = int(rng.integers(2, 5))
    for index in rng.permutation(len(lexicon.swaps)):
        if errors >= wanted:
            break
        old, new = lexicon.swaps[int(index)]
        if old in padded:
            padded = padded.replace(old, new, 1)
            errors += 1
    words = padded.split()
    while errors < wanted and len(words) > 4:
        i = int(rng.integers(1, len(words) - 2))
        words[i], words[i + 1] = words[i + 1], words[i]
        errors += 1
    return " ".join(words), errors


def repetitive_in(
    mr: dict[str, str], lexicon: Lexicon, rng: np.random.Generator
) -> tuple[str, int]:
    """One fact per sentence, each starting with the name, one or two facts said twice."""
    name = mr["name"]
    facts = [lexicon.parrot[a](name, v) for a, v in mr.items() if a != "name"]
    if not facts:
        facts = [lexicon.parrot["eatType"](name, "")]
    repeats = min(len(facts), int(rng.integers(1, 3)))
    for index in rng.choice(len(facts), size=repeats, replace=False):
        facts.insert(int(rng.integers(int(index) + 1, len(facts) + 1)), facts[int(index)])
    return " ".join(facts), repeats


def outputs_in(
    mr: dict[str, str], language: str, rng: np.random.Generator
) -> dict[str, DemoOutput]:
    """The four systems' outputs for one MR in ``language`` (en, de, fr or es)."""
    shorter, dropped = omit(mr, rng)
    if language == "en":
        clumsy_text, errors = disfluent(realise(mr, rng), rng)
        parrot_text, repeats = repetitive(mr, rng)
        return {
            "polished": DemoOutput(realise(mr, rng)),
            "terse": DemoOutput(realise(shorter, rng), omitted=dropped),
            "clumsy": DemoOutput(clumsy_text, disfluencies=errors),
            "parrot": DemoOutput(parrot_text, repetitions=repeats),
        }
    lexicon = LEXICONS[language]
    clumsy_text, errors = disfluent_in(realise_in(mr, lexicon, rng), lexicon, rng)
    parrot_text, repeats = repetitive_in(mr, lexicon, rng)
    return {
        "polished": DemoOutput(realise_in(mr, lexicon, rng)),
        "terse": DemoOutput(realise_in(shorter, lexicon, rng), omitted=dropped),
        "clumsy": DemoOutput(clumsy_text, disfluencies=errors),
        "parrot": DemoOutput(parrot_text, repetitions=repeats),
    }


def multilingual_items(
    *, rng: np.random.Generator, n_items: int = 12, languages: tuple[str, ...] = LANGUAGES
) -> list[MultilingualItem]:
    """``n_items`` distinct MRs, each as one item per language (ids ``de-003`` ...), with
    the four systems' outputs in that language; grouped by language, in ``languages`` order."""
    mrs: list[dict[str, str]] = []
    seen: set[tuple[tuple[str, str], ...]] = set()
    while len(mrs) < n_items:
        mr = random_mr(rng)
        key = tuple(mr.items())
        if key not in seen:
            seen.add(key)
            mrs.append(mr)
    return [
        MultilingualItem(f"{language}-{n:03d}", language, mr, outputs_in(mr, language, rng))
        for language in languages
        for n, mr in enumerate(mrs, start=1)
    ]


# ----------------------------------------------------------------------------------------
# Simulated 1-5 ratings


@dataclass(frozen=True)
class LikertWorker:
    """A simulated worker judging in one language: a lenient or strict bias and noise."""

    external_id: str
    language: str
    bias: float
    noise: float


def likert_workers(*, rng: np.random.Generator, language: str, n: int = 6) -> list[LikertWorker]:
    """``n`` simulated workers judging in ``language`` (ids ``SIM-DE-01`` ...)."""
    return [
        LikertWorker(
            external_id=f"SIM-{language.upper()}-{i + 1:02d}",
            language=language,
            bias=float(rng.normal(0.0, 0.35)),
            noise=float(rng.uniform(0.3, 0.7)),
        )
        for i in range(n)
    ]


def likert_penalty(output: DemoOutput, *, criterion: str) -> float:
    """How many points below a perfect 5 the output's defects put it, per criterion.

    Grammar counts errors (and a little for repetition), fluency errors and repetition,
    relevance (the input is shown) left-out and wrong facts and, a little, repetition.
    """
    if criterion == "grammar":
        return 0.8 * output.disfluencies + 0.2 * output.repetitions
    if criterion == "fluency":
        return 0.6 * output.disfluencies + 0.9 * output.repetitions
    if criterion == "relevance":
        return 0.9 * len(output.omitted) + 0.9 * len(output.hallucinated) + 0.2 * output.repetitions
    raise ValueError(f"no simulated ratings for criterion '{criterion}'")


def simulated_likert(
    outputs: list[DemoOutput],
    *,
    criterion: str,
    worker: LikertWorker,
    rng: np.random.Generator,
) -> list[int]:
    """1-5 ratings of one task's outputs: ``5 - penalty + bias + noise``, rounded and
    clipped to 1..5; identical texts get the same rating."""
    by_text: dict[str, int] = {}
    ratings = []
    for output in outputs:
        if output.text not in by_text:
            value = (
                5.0
                - likert_penalty(output, criterion=criterion)
                + worker.bias
                + rng.normal(0.0, worker.noise)
            )
            by_text[output.text] = int(np.clip(round(value), 1, 5))
        ratings.append(by_text[output.text])
    return ratings
