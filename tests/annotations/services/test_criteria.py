"""A criterion's RankME parts: the standard exemplar, the content checks, launch rules."""

from __future__ import annotations

import pytest

from annotations.models import Criterion
from annotations.services.campaigns import campaign_launch
from annotations.services.criteria import (
    content_checks_clean,
    criterion_launch_problems,
    criterion_rankme_set,
)
from annotations.services.demo import demo_campaign_seed
from common.errors import DomainError
from tests.factories import CampaignFactory, CriterionFactory, OutputFactory, task_with_outputs
from tests.source_text import modules_containing

pytestmark = pytest.mark.django_db


def test_picked_output_is_copied_with_its_input_and_recorded():
    criterion = CriterionFactory()
    output = OutputFactory(item__campaign=criterion.campaign, text="Cotto is a pub.")
    criterion_rankme_set(criterion=criterion, standard_output=output)
    criterion.refresh_from_db()
    assert criterion.standard_output == output
    assert (criterion.standard_input, criterion.standard_text) == (
        output.item.input,
        "Cotto is a pub.",
    )


def test_an_output_of_another_campaign_is_refused():
    criterion = CriterionFactory()
    with pytest.raises(DomainError, match="Choose the standard among") as refused:
        criterion_rankme_set(criterion=criterion, standard_output=OutputFactory())
    assert refused.value.field == "standard_output"


def test_unknown_content_checks_are_refused_and_known_ones_ordered():
    assert content_checks_clean(keys=["perfect", "added", "perfect"]) == ["added", "perfect"]
    with pytest.raises(DomainError, match="'wrong'"):
        criterion_rankme_set(criterion=CriterionFactory(), content_checks=["missing", "wrong"])


def test_a_criterion_with_tasks_keeps_its_standard():
    task = task_with_outputs()
    with pytest.raises(DomainError, match="has tasks"):
        criterion_rankme_set(criterion=task.criterion, standard_text="Another standard.")


def test_only_magnitude_criteria_need_a_standard():
    criterion = CriterionFactory(scale="likert", scale_settings={"levels": []})
    assert criterion_launch_problems(campaign=criterion.campaign) == []
    magnitude = CriterionFactory(campaign=criterion.campaign, name="quality", standard_text=" ")
    [problem] = criterion_launch_problems(campaign=criterion.campaign)
    assert "'quality'" in problem
    criterion_rankme_set(criterion=magnitude, standard_text="Cotto is a pub.")
    assert criterion_launch_problems(campaign=criterion.campaign) == []


def test_demo_campaign_has_a_standard_for_each_magnitude_criterion_and_relaunches():
    campaign = demo_campaign_seed(seed=3).campaign
    magnitude = campaign.criteria.filter(scale=Criterion.Scale.MAGNITUDE)
    assert magnitude.count() == 2
    for criterion in magnitude:
        assert criterion.standard_output is not None
        assert criterion.standard_text == criterion.standard_output.text
    assert criterion_launch_problems(campaign=campaign) == []
    campaign.status = "paused"
    campaign.save(update_fields=["status"])
    assert campaign_launch(campaign=campaign).status == "live"


@pytest.mark.parametrize("status", ["draft", "closed"])
def test_an_imported_criterion_obeys_the_rules_of_a_new_one_in_any_status(status) -> None:
    """``criterion_create_imported``: the rules of ``criterion_create`` (a slug name, the
    scale's settings), in a campaign of any status (finished judgements are imported into
    closed campaigns too)."""
    from annotations.services.criteria import criterion_create_imported

    campaign = CampaignFactory(status=status)
    with pytest.raises(DomainError, match="Name: "):
        criterion_create_imported(campaign=campaign, name="not a slug", question="?")
    with pytest.raises(DomainError, match="at least two levels"):
        criterion_create_imported(
            campaign=campaign, name="one", scale="likert", scale_settings={"levels": [{"value": 1}]}
        )
    made = criterion_create_imported(campaign=campaign, preset="fluency", content_checks=[])
    assert (made.name, made.scale, made.content_checks) == ("fluency", "likert", [])
    assert criterion_create_imported(campaign=campaign, preset="quality").content_checks == [
        "added",
        "missing",
        "perfect",
    ]


def test_the_content_checks_are_worded_once_and_translated():
    """CONTENT_CHECKS holds the sentences every door shows (the task page's boxes, the
    worked example, the designer's form, the checklist's refusal), in the worker's
    language; no module writes them again."""

    from django.utils import translation

    from annotations.services.criteria import CONTENT_CHECKS, checklist_problem
    from annotations.templatetags.rankme import check_sentence

    with translation.override("de"):
        assert [str(s) for s in CONTENT_CHECKS.values()] == [
            "Er enthält Informationen, die nicht in der Eingabe stehen",
            "Ihm fehlen Informationen aus der Eingabe",
            "Er gibt die Eingabe perfekt wieder",
        ]
        assert check_sentence("perfect") == "Er gibt die Eingabe perfekt wieder"
        refusal = checklist_problem(offered=CONTENT_CHECKS, ticked=["perfect", "missing"])
        assert "Er gibt die Eingabe perfekt wieder" in refusal
        assert "Ihm fehlen Informationen aus der Eingabe" in refusal
    writers = modules_containing("It reflects the input perfectly")
    assert writers == ["annotations/services/criteria.py"]


def test_a_name_taken_between_the_check_and_the_insert_is_refused_not_a_500(monkeypatch):
    """Two requests adding the same criterion at once both pass the name check; the
    second's insert hits the unique constraint. It was an IntegrityError (a 500 on
    PostgreSQL); now the same refusal as one after the other, and the first stays."""
    import annotations.services.criteria as service

    campaign = CampaignFactory()
    service.criterion_create(campaign=campaign, preset="quality")
    # Both checks that run before the insert, as the second request ran them: before the
    # first one's insert.
    monkeypatch.setattr(service, "criterion_by_name", lambda campaign, name: None)
    monkeypatch.setattr(service, "model_check", lambda instance: None)
    with pytest.raises(DomainError, match="already has a criterion 'quality'"):
        service.criterion_create(campaign=campaign, preset="quality")
    assert list(campaign.criteria.values_list("name", flat=True)) == ["quality"]


def test_likert_levels_need_their_own_values_and_are_bounded():
    """An outside review added levels "1 | x" and "1 | y" (two answers recorded alike)
    and a 197-level scale; both are refused, naming the levels."""
    from annotations.services.criteria import LIKERT_LEVELS_MAX, criterion_create

    campaign = CampaignFactory()
    twice = {"levels": [{"value": 1, "label": "x"}, {"value": 1, "label": "y"}]}
    with pytest.raises(DomainError, match="levels 1 and 2 both have the value 1") as refused:
        criterion_create(campaign=campaign, name="dup", scale="likert", scale_settings=twice)
    assert refused.value.field == "levels"
    many = {"levels": [{"value": v} for v in range(LIKERT_LEVELS_MAX + 1)]}
    with pytest.raises(DomainError, match=f"at most {LIKERT_LEVELS_MAX} levels"):
        criterion_create(campaign=campaign, name="many", scale="likert", scale_settings=many)
    assert not campaign.criteria.exists()
