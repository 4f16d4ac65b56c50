"""Pure language helpers: which translated texts a page in a given language reads."""

from __future__ import annotations

from annotations.core.languages import translated_for


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
