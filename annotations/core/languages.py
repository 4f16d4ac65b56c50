"""Languages of a campaign: BCP 47 tags, text direction and the worker's language.

Pure (no queries): importers, forms and views call these to check a code, to know how
an output is written (``dir``) and to choose the language a worker judges in. Tags are
checked and normalised by ``langcodes`` (``en_US`` -> ``en-US``, ``iw`` -> ``he``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

#: the worker interface is translated into these (gettext catalogs in ``locale/``)
INTERFACE_LANGUAGES = ("en", "de", "fr", "es")

#: scripts written right to left (ISO 15924)
_RTL_SCRIPTS = frozenset(
    {"Arab", "Hebr", "Thaa", "Syrc", "Nkoo", "Adlm", "Mand", "Samr", "Rohg", "Yezi"}
)


def _langcodes() -> Any:
    """``langcodes``, imported on first use: its data takes 0.1 s to load, which every
    command and worker would otherwise pay at start-up whether it checks a code or not."""
    import langcodes

    return langcodes


class LanguageError(ValueError):
    """A code that is not a usable BCP 47 language tag: the message says why."""


def language_check(code: object) -> str:
    """The tag as stored (normalised), or a ``LanguageError`` saying what is wrong."""
    if not isinstance(code, str) or not code.strip():
        raise LanguageError("a language is required: give a BCP 47 code such as en, de or pt-BR.")
    text = code.strip()
    shown = text[:40]
    if len(text) > 35:
        raise LanguageError(f"'{shown}' is not a language code: at most 35 characters.")
    langcodes = _langcodes()
    try:
        valid = langcodes.tag_is_valid(text)
        language = langcodes.Language.get(text) if valid else None
    except (ValueError, LookupError):
        valid, language = False, None
    if not valid or language is None or not language.is_valid():
        raise LanguageError(
            f"'{shown}' is not a BCP 47 language code: use a code such as en, de, fr, es, "
            "ar or pt-BR."
        )
    if language.language in (None, "und"):
        raise LanguageError(f"'{shown}' names no language: use a code such as en or de.")
    return str(language)


#: what WMT's tools write for "no language" in ``srclang``/``trglang`` (Appraise's XML
#: converters write -1; a blank cell says the same)
LANGUAGE_PLACEHOLDERS = frozenset({"", "-1"})


def language_from_code_or_name(written: object) -> str:
    """A BCP 47 tag from a code (``de``, ``deu``, ``cze``) or an English language name
    (``German``, ``Czech``: the WMT13 exports and wmt-trueskill's CSVs), normalised;
    "" for a placeholder (:data:`LANGUAGE_PLACEHOLDERS`). A ``LanguageError`` names the
    value when it is neither (names are looked up exactly: :func:`_language_named`)."""
    text = str(written).strip() if written is not None else ""
    if text in LANGUAGE_PLACEHOLDERS:
        return ""
    try:
        return language_check(text)
    except LanguageError as error:
        code_error = error
    if 3 <= len(text) <= 60 and any(c.isalpha() for c in text):
        found = _language_named(text)
        if found is not None:
            return found
    raise LanguageError(
        f"'{text[:40]}' is neither a BCP 47 language code nor a language name: use a code "
        "such as en, de or cs, a name such as English, or -1 for none."
    ) from code_error


def _language_named(text: str) -> str | None:
    """The tag of an English language name written as it is named (case, accents and
    spacing aside: ``German``, ``czech``, ``Bengali``, ``Farsi``), else None.
    ``langcodes.find`` also takes a name with more after it (``Germany``, ``Klingonish``
    and ``Czech Republic`` gave de, tlh and cs): such a value is not a language."""
    from language_data import names

    try:
        code = names.name_to_code("language", text, "en")
        trie = names.TRIES.get("en/name_to_language")
    except (LookupError, ValueError, OSError):
        return None
    if code is None or trie is None or names.normalize_name(text) not in trie:
        return None
    try:
        return language_check(code)
    except LanguageError:
        return None


def languages_check(codes: Iterable[object]) -> list[str]:
    """Each code checked, in order, without repeats; at least one."""
    seen: list[str] = []
    for code in codes:
        tag = language_check(code)
        if tag not in seen:
            seen.append(tag)
    if not seen:
        raise LanguageError("a campaign needs at least one language.")
    return seen


@lru_cache(maxsize=256)
def direction(code: str) -> str:
    """``rtl`` for languages written right to left (ar, he, fa, ur, ...), else ``ltr``."""
    try:
        script = _langcodes().Language.get(code).maximize().script
    except (ValueError, LookupError):
        return "ltr"
    return "rtl" if script in _RTL_SCRIPTS else "ltr"


#: letters of the right-to-left blocks (Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan,
#: Mandaic, their supplements and presentation forms)
_RTL_LETTER = re.compile(r"[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]")
_LETTER = re.compile(r"[^\W\d_]")


def text_direction(text: str) -> str:
    """How ``text`` is written, by most of its letters: ``rtl``, ``ltr``, or "" when it
    has no letters (numbers, punctuation). Regular expressions over the first 400
    characters, so a large import checks every output's text in C, at a bounded cost."""
    text = text[:400]
    rtl = len(_RTL_LETTER.findall(text))
    if not rtl:
        return "ltr" if _LETTER.search(text) else ""
    letters = len(_LETTER.findall(text))
    if not letters:
        return ""
    return "rtl" if 2 * rtl > letters else "ltr"


def directions_unlike(texts: Iterable[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """Of (text, language) pairs, how many texts are written the other way than their
    language (Arabic outputs uploaded without a ``language`` column take the campaign's
    English, and workers would see them left to right): ``{(language, the texts'
    direction): count}``."""
    unlike: dict[tuple[str, str], int] = {}
    of: dict[str, str] = {}
    for text, language in texts:
        written = text_direction(text)
        if language not in of:
            of[language] = direction(language)
        if written and written != of[language]:
            unlike[(language, written)] = unlike.get((language, written), 0) + 1
    return unlike


def base(code: str) -> str:
    """The language subtag: ``de-AT`` -> ``de``."""
    return code.split("-", 1)[0].lower()


def _match(wanted: str, available: Sequence[str]) -> str | None:
    """``wanted`` among ``available``: exact tag first, then the same base language."""
    try:
        wanted = language_check(wanted)
    except LanguageError:
        return None
    lowered = {tag.lower(): tag for tag in available}
    if wanted.lower() in lowered:
        return lowered[wanted.lower()]
    for tag in available:
        if base(tag) == base(wanted):
            return tag
    return None


def accept_language_tags(header: str) -> list[str]:
    """An ``Accept-Language`` header's tags, most wanted first (``*`` and q=0 left out)."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip()
        if not tag or tag == "*":
            continue
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > 0:
            ranked.append((-quality, index, tag))
    return [tag for _, _, tag in sorted(ranked)]


def worker_language(
    campaign_languages: Sequence[str], *, requested: str | None = None, accept_language: str = ""
) -> str:
    """The language a worker judges in: the campaign's, a URL parameter's or the browser's.

    A campaign with one language decides alone. With several, a requested language the
    campaign has (``?lang=de``) wins, then the browser's most wanted language the campaign
    has, then the campaign's first.
    """
    available = list(campaign_languages) or ["en"]
    if len(available) == 1:
        return available[0]
    if requested:
        found = _match(requested, available)
        if found:
            return found
    for tag in accept_language_tags(accept_language):
        found = _match(tag, available)
        if found:
            return found
    return available[0]


def interface_language(language: str) -> str:
    """The interface catalog to use for a worker judging in ``language`` (else English)."""
    wanted = base(language)
    return wanted if wanted in INTERFACE_LANGUAGES else "en"


#: the texts a designer translates: a campaign's, a criterion's (``levels``: one
#: descriptor per Likert level, a string or ``{"label", "descriptor"}``)
CAMPAIGN_TEXTS = ("name", "description", "instructions", "consent_text")
CRITERION_TEXTS = ("question", "levels", "standard_text")


def translations_check(
    raw: object, allowed: Sequence[str], *, levels: int | None = None
) -> dict[str, dict[str, Any]]:
    """``{tag: {field: text}}`` checked: known codes (normalised), only ``allowed``
    fields, texts (``levels``: a list, as many as the scale's ``levels`` when given).
    A ``LanguageError`` names the language and field at fault."""
    if not raw:
        return {}
    if not isinstance(raw, dict):
        raise LanguageError('give an object of language -> texts, e.g. {"de": {...}}.')
    checked: dict[str, dict[str, Any]] = {}
    for code, texts in raw.items():
        tag = language_check(code)
        if not isinstance(texts, dict) or set(texts) - set(allowed):
            raise LanguageError(f"'{tag}': give only {', '.join(allowed)}.")
        for field, text in texts.items():
            ok = isinstance(text, str) or (
                field == "levels"
                and isinstance(text, list)
                and all(isinstance(t, str | dict) for t in text)
            )
            if not ok:
                raise LanguageError(f"'{tag}': {field} must be text.")
            if field == "levels" and levels is not None and text and len(text) != levels:
                raise LanguageError(
                    f"'{tag}': {len(text)} level descriptors for a scale of {levels} levels."
                )
        checked[tag] = texts
    return checked


def translated_for(translations: dict[str, Any] | None, language: str) -> dict[str, Any]:
    """The texts given for ``language``: its own tag's, else those of a tag with the same
    base language (a German interface reads ``de-AT`` texts), else none."""
    given = translations or {}
    if language in given:
        return dict(given[language] or {})
    wanted = base(language)
    for tag, texts in given.items():
        if base(tag) == wanted:
            return dict(texts or {})
    return {}
