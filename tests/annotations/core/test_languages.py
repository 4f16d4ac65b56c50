"""Pure language helpers: which translated texts a page in a given language reads."""

from __future__ import annotations

from annotations.core.languages import translated_for


def test_translated_texts_follow_the_base_language():
    given = {"de-AT": {"name": "Studie"}, "fr": {"name": "Étude"}}
    assert translated_for(given, "de") == {"name": "Studie"}  # a German interface
    assert translated_for(given, "fr") == {"name": "Étude"}
    assert translated_for(given, "es") == {}
    assert translated_for(None, "de") == {}
