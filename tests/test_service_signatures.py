"""annotations' services that write take keyword-only arguments (the rule of
``annotations/services/__init__.py``); only the small helpers of one or two values
listed here, each with what it is, take them positionally. A new positional function
of ``annotations/services/`` fails here until it is made keyword-only or listed."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SERVICES = REPO / "annotations" / "services"

POSITIONAL: dict[str, str] = {
    "criteria.likert_levels_inferred": "pure: the Likert levels of whole-number scores",
    "criteria.likert_settings": "pure: the settings of a Likert scale's values",
    "drafts.draft_clean": "pure: a posted form's answers as a draft",
    "judgements.max_magnitude": "pure: a magnitude criterion's largest score",
    "outputs.normalise_output_text": "pure: one text",
    "places.holds_place_q": "pure: the condition of an assignment holding its place",
    "places.taken_subquery": "pure: the places-taken subquery at a moment",
    "quality.pairwise_agreement": "pure: two score lists",
    "assignment.lead_criterion_id": "a one-value lookup of the hand-out",
    "finished_judgements.judgements_refuse_if_archived": "a one-value check, no write",
    "places.places_taken": "a lookup of the hand-out: one task's places at a moment",
    "places.task_to_lock": "a lookup of the hand-out: one task's row, to lock",
    "tokens.token_revoke_if_password_unusable": "a post_save receiver: Django passes the sender",
    # Writes, but its caller is annotations/services/assignment.py, left to its owner
    # in this change: to be made keyword-only with it.
}


def _positional(folder: Path) -> dict[str, list[str]]:
    """Every public module-level function of ``folder``'s modules that takes positional
    parameters, with them."""
    found: dict[str, list[str]] = {}
    for module in sorted(folder.glob("*.py")):
        for node in ast.parse(module.read_text()).body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                names = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
                if names:
                    found[f"{module.stem}.{node.name}"] = names
    return found


def test_services_that_write_take_keyword_only_arguments() -> None:
    positional = _positional(SERVICES)
    unlisted = sorted(set(positional) - set(POSITIONAL))
    assert unlisted == [], f"make these keyword-only (or list a pure helper): {unlisted}"
    assert sorted(set(POSITIONAL) - set(positional)) == [], "listed but keyword-only now"
    assert all(len(names) <= 2 for names in positional.values()), positional


def test_the_check_finds_a_positional_writer(tmp_path: Path) -> None:
    (tmp_path / "things.py").write_text(
        "def thing_save(thing, *, force=False): ...\n"
        "def thing_delete(*, thing): ...\n"
        "def _private(thing): ...\n"
    )
    assert _positional(tmp_path) == {"things.thing_save": ["thing"]}
