"""The datasheet's answers worded from values (``reports.core.datasheet_text``): plain
functions, no database."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from typing import Any

from reports.core import datasheet_text as text

SETTINGS = text.CampaignSettings(
    task_seed=7,
    outputs_per_task=1,
    judgements_per_task=3,
    merge_identical_outputs=False,
    tasks_per_worker=10,
    setup_display="Set-up 2",
    together=True,
    instructions="Read each output.",
    consent_text=False,
    attention_check_rate=0.1,
    quality_threshold=0.5,
    stop_failed_workers=True,
    repeat_rate=0.0,
    min_seconds_per_task=5,
    min_time_policy_display="Flag",
    assignment_timeout_minutes=30,
)


def _criterion(**changes: object) -> text.CriterionFacts:
    fields: dict = {
        "name": "fluency",
        "question": "How fluent?",
        "show_input": True,
        "magnitude": False,
        "likert": False,
        "ranking": False,
        "imported": False,
        "ticked": False,
    }
    return text.CriterionFacts(**{**fields, **changes})


def test_numbers_and_lists_in_words():
    assert text.count(1, "output") == "1 output" and text.count(1200, "output") == "1,200 outputs"
    assert text.words(["a b", "a b c d"]) == "mean 3.0 words (from 2 to 4)"
    assert text.words([]) == ""
    assert text.languages(["en", "de", "", "en"]) == "de (1), en (2)"
    assert text.fmt(None) == "n/a" and text.fmt(0.12345) == "0.123"
    assert text.number(3.0) == "3" and text.number(2.5) == "2.5"


def test_inputs_are_called_meaning_representations_only_when_every_one_is():
    a = text.Answers()
    mrs = ["name[Aromi], food[Chinese]", "name[Zizzi], area[city centre]"]
    text.inputs_and_outputs(
        a, inputs=mrs, input_languages=["en", "en"], outputs=[], output_languages=[]
    )
    assert a.text["2.1"].startswith("Structured data") and "area, food, name" in a.text["2.1"]
    assert a.text["2.4"] == "Stored language of the inputs: en (2)"
    assert "2.2" not in a.text
    b = text.Answers()
    text.inputs_and_outputs(
        b, inputs=[*mrs, "plain text"], input_languages=[], outputs=["x y"], output_languages=["de"]
    )
    assert b.text["2.1"].startswith("Text: 3 inputs, mean")
    assert b.text["2.2"] == "Text: 1 outputs, mean 2.0 words (from 2 to 2)."


def test_criteria_disagreeing_on_one_page_leave_the_input_to_a_person():
    a = text.Answers()
    text.presentation(
        a,
        SETTINGS,
        imported=False,
        outputs_per_task=[2, 2],
        ticked=set(),
        show_input=[("fluency", True), ("adequacy", False)],
    )
    assert (
        a.text["3.3.4"]
        == "Each task shows 2 outputs of one item, every criterion of the item on one page."
    )
    assert "criteria disagree" in a.ask["3.3.4"]


def test_an_imported_campaign_states_only_the_stored_checks_and_asks_for_the_rest():
    a = text.Answers()
    text.quality_checks(
        a,
        SETTINGS,
        imported=True,
        checks=Counter({("attention", False): 2}),
        too_fast=0,
        n_excluded=1,
        n_flagged=2,
        n_stopped=0,
    )
    assert a.text["3.3.3"] == (
        "Quality checks stored: attention failed 2. "
        "Exclusions: 1 workers excluded, 2 flagged, 0 stopped."
    )
    assert "Attention checks:" not in a.text["3.3.3"]
    assert a.ask["3.3.3"]
    text.conditions(a, SETTINGS, imported=True)
    assert "3.3.5" not in a.text


def test_bonuses_are_stated_when_collected_here_or_paid():
    asked: dict[str, Any] = {
        "platforms": Counter({"Prolific": 3}),
        "channels": Counter(),
        "approved": 0,
        "rejected": 0,
    }
    assert text.recruitment(imported=True, bonuses=[], **asked) == ["Platforms: Prolific (3)."]
    paid = text.recruitment(imported=True, bonuses=[Decimal("1.50"), Decimal("2")], **asked)
    assert paid[1].startswith("Bonuses: 3.50 in total to 2 workers;")
    here = text.recruitment(imported=False, bonuses=[], **asked)
    assert here[1].startswith("Bonuses: 0.00 in total to 0 workers;")


def test_a_wmt_ranking_is_worded_as_ranks_with_nothing_left_to_ask():
    a = text.Answers()
    cr = _criterion(ranking=True, imported=True)
    text.instrument(a, cr, text.StoredScores(low=1.0, high=5.0, n=40))
    assert a.text[cr.key("4.3.3")] == "5 ranks: up to 5 outputs ranked together."
    assert (
        "ranks, not scores, and the same rank stores a higher value in a longer ranking (40 stored)."
        in a.text[cr.key("4.3.4")]
    )
    assert cr.key("4.3.3") not in a.ask and cr.key("4.3.4") not in a.ask
    assert a.ask[cr.key("4.3.5")]


def test_a_likert_instrument_lists_its_levels_and_checklist():
    a = text.Answers()
    levels = [{"value": 1, "label": "bad"}, {"value": 2, "label": "good", "descriptor": "fine"}]
    cr = _criterion(likert=True, likert_levels=levels, content_checks=["typo"])
    text.instrument(a, cr, text.StoredScores())
    assert a.text[cr.key("4.3.3")] == "2 levels."
    assert a.text[cr.key("4.3.4")] == "1 = bad; 2 = good (fine)"
    assert a.text[cr.key("4.3.5")].endswith("Under each output a checklist: typo.")


def test_clusters_are_worded_only_when_claimed():
    run = text.RunFacts(
        pk=9,
        method_display="WMT14",
        n_judgements=100,
        n_comparisons=300,
        runs=200,
        seed=1,
        exclude_flagged=True,
        excluded_workers=2,
        confidence=0.95,
        kept=190,
        share=0.95,
        clusters_claimed=False,
        problems=["Too few comparisons."],
    )
    a = text.Answers()
    cr = _criterion()
    text.ranking_answers(a, cr, run)
    assert "judgements of 2 excluded workers left out (ranking run 9)." in a.text[cr.key("4.3.9")]
    assert a.text[cr.key("4.3.10")].endswith("No clusters are claimed: Too few comparisons.")


def test_agreement_with_no_coefficient_defined_is_a_no_saying_why() -> None:
    """Review: one evaluator (CrowdFlower's aggregated report, a WMT file of one judge)
    read "Yes, on 2 judgements by 1 evaluators: ... n/a ... n/a"."""
    from types import SimpleNamespace

    a = text.Answers()
    cr = _criterion()
    none = SimpleNamespace(
        judgements=2,
        workers=1,
        excluded_judgements=0,
        excluded_workers=0,
        preference_alpha=None,
        score_alpha=None,
        inter_kappa=None,
        intra_kappa=None,
    )
    text.agreement_answer(a, cr, none, ranking_kept_excluded=False)
    said = a.text[cr.key("4.3.11")]
    assert said.startswith("No: on 2 judgements by 1 evaluator no agreement coefficient")
    assert "n/a" not in said
    some = SimpleNamespace(**{**vars(none), "workers": 2, "score_alpha": 0.5})
    text.agreement_answer(a, cr, some, ranking_kept_excluded=False)
    assert a.text[cr.key("4.3.11")].startswith("Yes, on 2 judgements by 2 evaluators")


def test_one_evaluator_is_one_evaluator() -> None:
    """Review: "1 evaluators submitted judgements" (CrowdFlower's aggregated report)."""
    a = text.Answers()
    text.evaluators(
        a,
        SETTINGS,
        imported=True,
        n_active=1,
        n_registered=1,
        n_excluded=0,
        n_experts=0,
        recruitment=[],
    )
    assert a.text["3.2.1"].startswith("1 evaluator submitted judgements (1 registered)")
