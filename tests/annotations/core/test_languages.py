"""Pure language helpers: which translated texts a page in a given language reads."""

from __future__ import annotations

import pytest

from annotations.core.languages import LanguageError, language_from_code_or_name, translated_for


def test_translated_texts_follow_the_base_language():
    given = {"de-AT": {"name": "Studie"}, "fr": {"name": "Étude"}}
    assert translated_for(given, "de") == {"name": "Studie"}  # a German interface
    assert translated_for(given, "fr") == {"name": "Étude"}
    assert translated_for(given, "es") == {}
    assert translated_for(None, "de") == {}


def test_a_texts_direction_is_that_of_most_of_its_letters() -> None:
    from annotations.core.languages import directions_unlike, text_direction

    assert text_direction("Aromi is a pub.") == "ltr"
    assert text_direction("أرومي مقهى") == "rtl"
    assert text_direction("Aromi هو مقهى.") == "rtl"
    assert text_direction("שלום, Tel Aviv and Haifa") == "ltr"
    assert text_direction("12 345 !?") == ""
    texts = [("أرومي مقهى", "en"), ("Pub.", "en"), ("أرومي", "ar"), ("Pub.", "ar"), ("", "ar")]
    assert directions_unlike(texts) == {("en", "rtl"): 1, ("ar", "ltr"): 1}


@pytest.mark.parametrize(
    ("written", "tag"),
    [
        ("German", "de"),
        ("czech", "cs"),
        ("Bengali", "bn"),
        ("Farsi", "fa"),
        ("deu", "de"),
        ("cze", "cs"),
        ("-1", ""),
        ("", ""),
        ("pt-BR", "pt-BR"),
    ],
)
def test_a_language_is_read_from_a_code_or_its_english_name(written, tag):
    assert language_from_code_or_name(written) == tag


@pytest.mark.parametrize("written", ["Germany", "Klingonish", "A", "Czech Republic", "Xyzzy"])
def test_a_value_that_only_begins_like_a_language_name_is_refused(written):
    """langcodes' search took "Germany" for German, "Klingonish" for Klingon and "A" for
    a language of that name: a reviewer's file was stored as Klingon."""
    with pytest.raises(LanguageError, match="neither a BCP 47 language code nor a"):
        language_from_code_or_name(written)
