"""A synthetic E2E-style data set for the demo campaign (pure: no Django).

Restaurant meaning representations (MRs) with the eight E2E attributes, and the outputs
of six synthetic systems of graded quality: a near-perfect one, one that omits
attributes, one that states wrong or extra facts, one that writes disfluently, one that
repeats itself and one that mixes these errors (and otherwise writes what the
near-perfect system writes, so identical outputs occur as in real campaigns). Every
output records its defects, from which ``simulated_scores`` draws RankME-style
magnitude estimates: better outputs tend to score higher.

Everything is drawn from a ``numpy.random.Generator`` passed in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

NAMES = (
    "The Eagle", "The Mill", "Giraffe", "Zizzi", "Fitzbillies", "Aromi", "Alimentum",
    "The Vaults", "Strada", "The Phoenix", "Wildwood", "Browns Cambridge", "The Rice Boat",
    "Cocum", "Loch Fyne", "Midsummer House", "Clowns", "The Cricketers", "Green Man",
    "Bibimbap House", "The Dumpling Tree", "The Plough", "The Punter", "Taste of Cambridge",
    "The Olive Grove", "The Waterman", "The Twenty Two", "The Wrestlers", "Cotto",
    "Blue Spice", "The Golden Curry", "The Golden Palace", "Wildwood Tavern", "The Cambridge Blue",
)  # fmt: skip
NEAR = (
    "Café Sicilia", "Express by Holiday Inn", "Raja Indian Cuisine", "The Portland Arms",
    "Burger King", "Café Rouge", "Crowne Plaza Hotel", "Ranch", "Yippee Noodle Bar",
    "All Bar One", "The Sorrento", "Rainbow Vegetarian Café", "Café Brazil", "Avalon",
    "Clare Hall", "The Six Bells", "Café Adriatic", "The Bakers",
)  # fmt: skip
VALUES: dict[str, tuple[str, ...]] = {
    "eatType": ("restaurant", "coffee shop", "pub"),
    "food": ("Chinese", "English", "French", "Fast food", "Indian", "Italian", "Japanese"),
    "priceRange": ("cheap", "moderate", "high", "less than £20", "£20-25", "more than £30"),
    "customer rating": ("low", "average", "high", "1 out of 5", "3 out of 5", "5 out of 5"),
    "area": ("city centre", "riverside"),
    "familyFriendly": ("yes", "no"),
    "near": NEAR,
}
ATTRIBUTES = ("name", "eatType", "food", "priceRange", "customer rating", "area",
              "familyFriendly", "near")  # fmt: skip


@dataclass(frozen=True)
class DemoSystem:
    label: str
    name: str
    description: str


SYSTEMS = (
    DemoSystem("polished", "Polished", "Near-perfect: every attribute, fluent and varied."),
    DemoSystem("terse", "Terse", "Fluent, but leaves out one to three attributes."),
    DemoSystem("inventive", "Inventive", "Fluent, but states wrong or extra facts."),
    DemoSystem("clumsy", "Clumsy", "Complete, but with grammar and word-order errors."),
    DemoSystem("parrot", "Parrot", "Complete, one fact per sentence, repeats itself."),
    DemoSystem("mixed", "Mixed bag", "Sometimes polished, sometimes any of the errors above."),
)


@dataclass(frozen=True)
class DemoOutput:
    """A system's text and the defects it was made with."""

    text: str
    omitted: tuple[str, ...] = ()
    hallucinated: tuple[str, ...] = ()
    disfluencies: int = 0
    repetitions: int = 0


@dataclass(frozen=True)
class DemoItem:
    external_id: str
    mr: dict[str, str]
    outputs: dict[str, DemoOutput] = field(default_factory=dict)

    @property
    def input(self) -> str:
        """The MR in E2E form: ``name[The Eagle], eatType[pub], ...``."""
        return ", ".join(f"{a}[{v}]" for a, v in self.mr.items())


def _pick(rng: np.random.Generator, options: tuple[str, ...] | list[str]) -> str:
    return options[int(rng.integers(len(options)))]


def random_mr(rng: np.random.Generator) -> dict[str, str]:
    """An MR: a name and three to seven other attributes, in E2E attribute order."""
    others = list(ATTRIBUTES[1:])
    size = int(rng.integers(2, len(others) + 1))
    kept = set(rng.choice(others, size=size, replace=False).tolist())
    mr = {"name": _pick(rng, NAMES)}
    for attribute in others:
        if attribute in kept:
            mr[attribute] = _pick(rng, VALUES[attribute])
    if mr.get("near") == mr["name"]:
        del mr["near"]
    return mr


# ----------------------------------------------------------------------------------------
# Realisation: fluent text from an MR


def _price_adjective(value: str) -> str | None:
    return {"cheap": "cheap", "moderate": "moderately priced", "high": "high-priced"}.get(value)


def _price_clause(value: str, rng: np.random.Generator) -> str:
    adjective = _price_adjective(value)
    if adjective is not None:
        return _pick(rng, [f"its prices are {value}", f"it is {adjective}"])
    return _pick(rng, [f"it has a price range of {value}", f"prices are {value}"])


def _rating_clause(value: str, rng: np.random.Generator) -> str:
    if "out of" in value:
        return _pick(
            rng, [f"it is rated {value} by customers", f"it has a customer rating of {value}"]
        )
    return _pick(rng, [f"it has a {value} customer rating", f"customers rate it {value}"])


def _family_clause(value: str, rng: np.random.Generator) -> str:
    if value == "yes":
        return _pick(rng, ["it is family-friendly", "it welcomes children", "it is kid friendly"])
    return _pick(rng, ["it is not family-friendly", "it does not welcome children",
                       "it is not suitable for children"])  # fmt: skip


def _area_phrase(value: str, rng: np.random.Generator) -> str:
    if value == "riverside":
        return _pick(rng, ["by the riverside", "on the riverside", "in the riverside area"])
    return _pick(rng, ["in the city centre", "in the centre of the city"])


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _capitalise(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def realise(mr: dict[str, str], rng: np.random.Generator) -> str:
    """Fluent text that expresses every attribute of ``mr``."""
    name = mr["name"]
    eat_type = mr.get("eatType", "")
    food = mr.get("food", "")
    price = mr.get("priceRange", "")
    head_words = []
    price_adjective = _price_adjective(price) if price else None
    if price_adjective:
        head_words.append(price_adjective)
    if food and eat_type and rng.random() < 0.6:
        head_words.append("fast food" if food == "Fast food" else food)
        food_done = True
    else:
        food_done = False
    head_words.append(eat_type or "place")
    noun_phrase = " ".join(head_words)
    first = f"{name} is {_article(noun_phrase)} {noun_phrase}"
    if "area" in mr:
        first += " " + _area_phrase(mr["area"], rng)
    if "near" in mr:
        first += f" near {mr['near']}"
    clauses: list[str] = []
    if food and not food_done:
        dish = "fast food" if food == "Fast food" else f"{food} food"
        clauses.append(_pick(rng, [f"it serves {dish}", f"it offers {dish}", f"they serve {dish}"]))
    if price and not price_adjective:
        clauses.append(_price_clause(price, rng))
    if "customer rating" in mr:
        clauses.append(_rating_clause(mr["customer rating"], rng))
    if "familyFriendly" in mr:
        clauses.append(_family_clause(mr["familyFriendly"], rng))
    if not clauses:
        return first + "."
    if len(clauses) == 1 and clauses[0].startswith("it ") and rng.random() < 0.5:
        return f"{first} and {clauses[0].removeprefix('it ')}."
    second = ", ".join(clauses[:-1]) + " and " + clauses[-1] if len(clauses) > 1 else clauses[0]
    return f"{first}. {_capitalise(second)}."


# ----------------------------------------------------------------------------------------
# Error models


def omit(mr: dict[str, str], rng: np.random.Generator) -> tuple[dict[str, str], tuple[str, ...]]:
    """The MR without one to three attributes (never the name; at least one kept)."""
    droppable = [a for a in mr if a != "name"]
    if len(droppable) < 2:
        return dict(mr), ()
    n = int(rng.integers(1, min(3, len(droppable) - 1) + 1))
    dropped = tuple(sorted(rng.choice(droppable, size=n, replace=False).tolist()))
    return {a: v for a, v in mr.items() if a not in dropped}, dropped


def hallucinate(
    mr: dict[str, str], rng: np.random.Generator
) -> tuple[dict[str, str], tuple[str, ...]]:
    """The MR with one or two values changed or attributes added (wrong facts)."""
    changed = dict(mr)
    touched: list[str] = []
    for _ in range(int(rng.integers(1, 3))):
        attribute = _pick(rng, ATTRIBUTES[1:])
        options = [v for v in VALUES[attribute] if v != mr.get(attribute)]
        changed[attribute] = _pick(rng, options)
        if attribute not in touched:
            touched.append(attribute)
    ordered = {a: changed[a] for a in ATTRIBUTES if a in changed}
    return ordered, tuple(touched)


_SWAPS = (
    (" is a ", " is "), (" is an ", " is "), (" it is ", " it are "), (" has a ", " have "),
    (" serves ", " serve "), (" near ", " nearby of "), (" by the ", " by "), (" and ", " and and "),
    (" in the ", " in "), (" customers rate it ", " customer rates it "), (" offers ", " offer "),
)  # fmt: skip


def disfluent(text: str, rng: np.random.Generator) -> tuple[str, int]:
    """The text with two to four grammar or word-order errors."""
    errors = 0
    padded = f" {text} "
    wanted = int(rng.integers(2, 5))
    for index in rng.permutation(len(_SWAPS)):
        if errors >= wanted:
            break
        old, new = _SWAPS[int(index)]
        if old in padded:
            padded = padded.replace(old, new, 1)
            errors += 1
    words = padded.split()
    if errors < wanted and len(words) > 4:
        i = int(rng.integers(1, len(words) - 2))
        words[i], words[i + 1] = words[i + 1], words[i]
        errors += 1
    result = " ".join(words)
    if rng.random() < 0.5:
        result = result.replace(". ", " . ", 1)
        result = result.rstrip(".") + " ."
    return result, errors


def repetitive(mr: dict[str, str], rng: np.random.Generator) -> tuple[str, int]:
    """One fact per sentence, each starting with the name, one or two facts said twice."""
    name = mr["name"]
    facts = []
    for attribute, value in mr.items():
        if attribute == "name":
            continue
        facts.append(
            {
                "eatType": f"{name} is a {value}",
                "food": f"{name} serves {'fast food' if value == 'Fast food' else value + ' food'}",
                "priceRange": f"{name} has a price range of {value}",
                "customer rating": f"{name} has a customer rating of {value}",
                "area": f"{name} is in the {value}",
                "familyFriendly": f"{name} is {'' if value == 'yes' else 'not '}family friendly",
                "near": f"{name} is near {value}",
            }[attribute]
        )
    if not facts:
        facts = [f"{name} is a place"]
    repeats = min(len(facts), int(rng.integers(1, 3)))
    for index in rng.choice(len(facts), size=repeats, replace=False):
        facts.insert(int(rng.integers(int(index) + 1, len(facts) + 1)), facts[int(index)])
    return ". ".join(facts) + ".", repeats


def outputs_for(mr: dict[str, str], rng: np.random.Generator) -> dict[str, DemoOutput]:
    """The six systems' outputs for one MR."""
    polished = DemoOutput(realise(mr, rng))
    shorter, dropped = omit(mr, rng)
    terse = DemoOutput(realise(shorter, rng), omitted=dropped)
    wrong, changed = hallucinate(mr, rng)
    inventive = DemoOutput(realise(wrong, rng), hallucinated=changed)
    clumsy_text, errors = disfluent(realise(mr, rng), rng)
    clumsy = DemoOutput(clumsy_text, disfluencies=errors)
    parrot_text, repeats = repetitive(mr, rng)
    parrot = DemoOutput(parrot_text, repetitions=repeats)
    roll = rng.random()
    if roll < 0.25:
        base, dropped = omit(mr, rng)
        mixed = DemoOutput(realise(base, rng), omitted=dropped)
    elif roll < 0.45:
        base, changed = hallucinate(mr, rng)
        mixed = DemoOutput(realise(base, rng), hallucinated=changed)
    elif roll < 0.65:
        text, errors = disfluent(realise(mr, rng), rng)
        mixed = DemoOutput(text, disfluencies=errors)
    else:
        mixed = polished  # identical to "polished": merged into one slot in tasks
    return {
        "polished": polished,
        "terse": terse,
        "inventive": inventive,
        "clumsy": clumsy,
        "parrot": parrot,
        "mixed": mixed,
    }


def demo_items(*, rng: np.random.Generator, n_items: int = 40) -> list[DemoItem]:
    """``n_items`` distinct MRs with the six systems' outputs (ids ``demo-001`` ...)."""
    items: list[DemoItem] = []
    seen: set[tuple[tuple[str, str], ...]] = set()
    while len(items) < n_items:
        mr = random_mr(rng)
        key = tuple(mr.items())
        if key in seen:
            continue
        seen.add(key)
        items.append(DemoItem(f"demo-{len(items) + 1:03d}", mr, outputs_for(mr, rng)))
    return items


# ----------------------------------------------------------------------------------------
# Simulated judgements


@dataclass(frozen=True)
class SimulatedWorker:
    """A simulated crowd worker: how widely they spread scores and how noisy they are."""

    external_id: str
    spread: float
    noise: float
    generosity: float


def simulated_workers(*, rng: np.random.Generator, n: int = 12) -> list[SimulatedWorker]:
    return [
        SimulatedWorker(
            external_id=f"SIM-{i + 1:02d}",
            spread=float(rng.uniform(0.6, 1.6)),
            noise=float(rng.uniform(0.15, 0.5)),
            generosity=float(rng.normal(0.0, 0.2)),
        )
        for i in range(n)
    ]


def defect_penalty(output: DemoOutput, *, criterion: str) -> float:
    """How much worse than a perfect output, in log2 units of a magnitude estimate.

    Naturalness (input hidden) ignores omissions and wrong facts; quality counts all.
    """
    fluency = 0.45 * output.disfluencies + 0.5 * output.repetitions
    if criterion == "naturalness":
        return fluency
    return fluency + 0.5 * len(output.omitted) + 0.7 * len(output.hallucinated)


def simulated_scores(
    outputs: list[DemoOutput],
    *,
    criterion: str,
    worker: SimulatedWorker,
    rng: np.random.Generator,
) -> list[float]:
    """Magnitude estimates (the standard is worth 100) for the outputs of one task.

    ``100 * 2 ** (spread * (1 - penalty) + generosity + noise)``, rounded to a whole
    positive number; identical texts get the same score.
    """
    by_text: dict[str, float] = {}
    scores = []
    for output in outputs:
        if output.text not in by_text:
            exponent = (
                worker.spread * (1.0 - defect_penalty(output, criterion=criterion))
                + worker.generosity
                + rng.normal(0.0, worker.noise)
            )
            by_text[output.text] = float(max(1, round(100 * 2**exponent)))
        scores.append(by_text[output.text])
    return scores
