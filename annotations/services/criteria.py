"""Criteria: the presets, creating, changing and deleting them, and their RankME parts
(the standard exemplar and the per-output content checks).

Magnitude estimation needs a modulus: every score is relative to a *standard* shown
with a fixed value (100 by default). The RankME crowd tasks (Novikova, Dusek and Rieser
2018) open with "Here is the STANDARD to relate to": an input and an utterance with its
score, then "Here is the TASK for you". A magnitude criterion here keeps that standard
in ``standard_input`` / ``standard_text`` (``standard_output`` records the uploaded
output it was copied from) and its value in ``scale_settings["standard"]``.

Content checks are RankME's per-output checklist (quality and informativeness
set-ups): whether an output adds information not in the input, misses some, or
reflects it perfectly. ``Criterion.content_checks`` lists the enabled keys; the keys a
worker ticks are stored per output in ``JudgementScore.checks``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext, gettext_lazy

from annotations.models import Campaign, Criterion, Output
from annotations.selectors.criteria import (
    criteria_without_standard,
    criterion_by_name,
    setup_input_conflict,
)
from annotations.services.validation import model_check
from common.errors import DomainError
from common.queries import refused_when_taken

if TYPE_CHECKING:  # the stubs' name of a lazy string (a dev dependency)
    from django_stubs_ext import StrPromise

E2E_QUALITY_QUESTION = (
    "How do you judge the overall quality of the utterance in terms of its grammatical "
    "correctness, fluency, adequacy and other important factors?"
)
E2E_NATURALNESS_QUESTION = "Could the utterance have been produced by a native speaker?"
RANKME_INFORMATIVENESS_QUESTION = "How informative is the utterance, relative to the standard?"


def magnitude_settings() -> dict[str, Any]:
    """A new magnitude criterion's settings (a fresh dict): the standard's value and the
    most digits a score has, the defaults of ``Criterion``. The presets and the imports
    write these."""
    return {"standard": Criterion.MAGNITUDE_STANDARD, "max_digits": Criterion.MAGNITUDE_MAX_DIGITS}


def likert_settings(values: Sequence[int], descriptors: Sequence[str] = ()) -> dict[str, Any]:
    """A Likert criterion's settings: a level per value, labelled with it, described by
    ``descriptors`` in order (blank when there are fewer). The presets and the imports
    write these (descriptors beyond the values are dropped)."""
    described = [*descriptors, *[""] * len(values)][: len(values)]
    return {
        "levels": [
            {"value": v, "label": str(v), "descriptor": d}
            for v, d in zip(values, described, strict=True)
        ]
    }


def likert_levels_inferred(scores: Sequence[float]) -> list[int] | None:
    """The Likert levels whole-number scores imply, from min(1, lowest) to the highest,
    at least two (an all-zero yes/no question gets 0 and 1); ``None`` when a score is not
    a whole number (or there is none). The one rule of the imports' inferred scales (a
    column-mapped file's inferred scale, and its mapping's Likert without levels)."""
    if not scores or not all(float(s).is_integer() for s in scores):
        return None
    first = min(1, int(min(scores)))
    return list(range(first, max(int(max(scores)), first + 1) + 1))


def _likert(descriptors: list[str]) -> dict[str, Any]:
    return likert_settings(range(1, len(descriptors) + 1), descriptors)


# Criterion presets: name -> fields of a Criterion. MTG's 1-5 scales follow the
# grammaticality / fluency / relevance descriptors common in meaning-to-text evaluation.
CRITERION_PRESETS: dict[str, dict[str, Any]] = {
    # E2E's quality task asked the checklist too (RankME set-ups 1 and 2).
    "quality": {
        "question": E2E_QUALITY_QUESTION,
        "show_input": True,
        "scale": Criterion.Scale.MAGNITUDE,
        "scale_settings": magnitude_settings(),
        "content_checks": ["added", "missing", "perfect"],
    },
    "naturalness": {
        "question": E2E_NATURALNESS_QUESTION,
        "show_input": False,
        "scale": Criterion.Scale.MAGNITUDE,
        "scale_settings": magnitude_settings(),
    },
    # RankME's third criterion (Novikova, Dusek and Rieser 2018), with its checklist.
    "informativeness": {
        "question": RANKME_INFORMATIVENESS_QUESTION,
        "show_input": True,
        "scale": Criterion.Scale.MAGNITUDE,
        "scale_settings": magnitude_settings(),
        "content_checks": ["added", "missing", "perfect"],
    },
    "grammar": {
        "question": "How grammatical is the text?",
        "show_input": False,
        "scale": Criterion.Scale.LIKERT,
        "scale_settings": _likert(
            [
                "Incomprehensible: grammar errors make it unreadable",
                "Many serious errors",
                "Several errors, meaning still clear",
                "Minor errors only",
                "Perfectly grammatical",
            ]
        ),
    },
    "fluency": {
        "question": "How fluent and natural does the text read?",
        "show_input": False,
        "scale": Criterion.Scale.LIKERT,
        "scale_settings": _likert(
            [
                "Not fluent at all",
                "Awkward in most places",
                "Understandable but clumsy",
                "Mostly fluent",
                "Completely fluent, as a native speaker would write",
            ]
        ),
    },
    "relevance": {
        "question": "How well does the text express the input, without omissions or additions?",
        "show_input": True,
        "scale": Criterion.Scale.LIKERT,
        "scale_settings": _likert(
            [
                "Unrelated to the input",
                "Expresses little of the input",
                "Expresses about half of the input",
                "Expresses most of the input",
                "Expresses all of the input and nothing else",
            ]
        ),
    },
}


def criterion_from_preset(*, campaign: Campaign, preset: str, name: str = "") -> Criterion:
    """The campaign's criterion made from a preset (updated in place when it exists)."""
    if preset not in CRITERION_PRESETS:
        raise DomainError(
            f"Unknown criterion preset '{preset}'; choose one of {', '.join(CRITERION_PRESETS)}."
        )
    fields = dict(CRITERION_PRESETS[preset])
    criterion, _ = Criterion.objects.update_or_create(
        campaign=campaign,
        name=name or preset,
        defaults={**fields, "position": campaign.criteria.count()},
    )
    return criterion


# The fields ``criterion_create`` and ``criterion_update`` take (the RankME parts go
# through ``criterion_rankme_set``).
CRITERION_FIELDS = frozenset(
    {"name", "question", "show_input", "scale", "scale_settings", "position", "example"}
)

# Key -> what the worker reads beside the box, in the order shown: the one wording of the
# content checks (whole sentences, translated lazily into the worker's language), which
# the task page, the worked example, the designer's form and the checklist's refusal use.
CONTENT_CHECKS: dict[str, StrPromise] = {
    "added": gettext_lazy("It contains information not in the input"),
    "missing": gettext_lazy("It misses information from the input"),
    "perfect": gettext_lazy("It reflects the input perfectly"),
}


def _criterion_editable(criterion: Criterion) -> None:
    if criterion.pk and criterion.tasks.exists():
        raise DomainError(
            f"Criterion '{criterion.name}' has tasks already; it can no longer change."
        )


#: The most levels a Likert scale has (0 to 100 is 101 levels); finer is a slider's.
LIKERT_LEVELS_MAX = 101


#: What a scale's settings may hold besides ``source`` (where an import got the criterion):
#: the magnitude standard's value and the most digits of a score, a Likert scale's
#: levels (a slider has none). Anything else was kept and shown to workers as it was
#: (a label that was a JSON object), or broke their pages (``max_digits: "abc"``).
SCALE_KEYS: dict[str, frozenset[str]] = {
    Criterion.Scale.MAGNITUDE: frozenset({"standard", "max_digits"}),
    Criterion.Scale.LIKERT: frozenset({"levels"}),
    Criterion.Scale.SLIDER: frozenset(),
}
#: A magnitude score's most digits (the task page's rule says it; 10**digits is the cap).
MAX_DIGITS_MAX = 12
#: A Likert level's value, label and descriptor bounds.
LEVEL_VALUE_MAX = 1_000_000
LEVEL_LABEL_MAX, LEVEL_DESCRIPTOR_MAX = 200, 2_000


def _whole(value: object) -> bool:
    """A whole number as JSON gives one (``true`` is no number; ``2.0`` is 2)."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _refused_setting(message: str) -> DomainError:
    return DomainError(message, field="scale_settings")


def _check_magnitude(settings: dict[str, Any]) -> None:
    standard = settings.get("standard", Criterion.MAGNITUDE_STANDARD)
    digits = settings.get("max_digits", Criterion.MAGNITUDE_MAX_DIGITS)
    if not _whole(digits) or not 1 <= digits <= MAX_DIGITS_MAX:
        raise _refused_setting(
            f"max_digits must be a whole number from 1 to {MAX_DIGITS_MAX} (the most digits "
            "of a score)."
        )
    if not _whole(standard) or not 1 <= standard < 10**digits:
        raise _refused_setting(
            f"The standard's value must be a whole number from 1 to {10 ** int(digits) - 1} "
            f"(a score of at most {int(digits)} digits)."
        )


def _check_likert(levels: object) -> None:
    if not isinstance(levels, list) or len(levels) < 2:
        raise DomainError("A Likert scale needs at least two levels.", field="levels")
    if len(levels) > LIKERT_LEVELS_MAX:
        raise DomainError(
            f"A Likert scale has at most {LIKERT_LEVELS_MAX} levels ({len(levels)} given); "
            "for a finer scale, use the slider.",
            field="levels",
        )
    first: dict[int, int] = {}
    for i, level in enumerate(levels, start=1):
        if not isinstance(level, dict) or not _whole(level.get("value")):
            raise DomainError(
                f"Likert level {i}: each level needs a whole-number value.", field="levels"
            )
        value = level["value"]
        if abs(value) > LEVEL_VALUE_MAX:
            raise DomainError(
                f"Likert level {i}: the value must be from {-LEVEL_VALUE_MAX:,} to "
                f"{LEVEL_VALUE_MAX:,}.",
                field="levels",
            )
        unknown = sorted(set(level) - {"value", "label", "descriptor"})
        if unknown:
            raise DomainError(
                f"Likert level {i}: a level has a value, a label and a descriptor, not "
                f"{', '.join(repr(k[:40]) for k in unknown[:5])}.",
                field="levels",
            )
        for key, most in (("label", LEVEL_LABEL_MAX), ("descriptor", LEVEL_DESCRIPTOR_MAX)):
            text = level.get(key, "")
            if not isinstance(text, str) or len(text) > most:
                raise DomainError(
                    f"Likert level {i}: the {key} must be text of at most {most:,} characters.",
                    field="levels",
                )
        earlier = first.setdefault(int(value), i)
        if earlier != i:
            raise DomainError(
                f"Likert levels {earlier} and {i} both have the value {int(value)}: "
                "answers on them could not be told apart; give each level its own value.",
                field="levels",
            )


def _check_scale_settings(criterion: Criterion) -> None:
    """A scale's settings as :data:`SCALE_KEYS` says, each of the kind and size its
    pages read (the API and imported definitions hand them over as JSON)."""
    settings = criterion.scale_settings or {}
    if not isinstance(settings, dict):
        raise _refused_setting("Scale settings must be a JSON object.")
    allowed = SCALE_KEYS.get(criterion.scale, frozenset()) | {"source"}
    unknown = sorted(str(k)[:40] for k in set(settings) - allowed)
    if unknown:
        raise _refused_setting(
            f"A {criterion.scale} scale's settings take "
            f"{', '.join(sorted(allowed - {'source'})) or 'nothing'}, not {', '.join(unknown[:5])}."
        )
    source = settings.get("source", "")
    if not isinstance(source, str) or len(source) > 64:
        raise _refused_setting("source must be a short text (where an import got the criterion).")
    if criterion.scale == Criterion.Scale.MAGNITUDE:
        _check_magnitude(settings)
    if criterion.scale == Criterion.Scale.LIKERT:
        _check_likert(settings.get("levels"))


def _criterion_new(
    *,
    campaign: Campaign,
    preset: str,
    fields: dict[str, Any],
    content_checks: Iterable[str] | None = None,
    standard_input: str = "",
    standard_text: str = "",
) -> Criterion:
    """A new criterion, saved once it obeys the rules every new criterion obeys, whoever
    makes it (the designer, the API, an import): known fields, a name no other criterion
    of the campaign has, a known preset, the scale's settings, and the model's own rules
    (a slug of at most 64 characters as its name). From a preset (the fields given, but
    ``None`` and "", then override it) or from the fields alone; last by default, a
    position given (the API's field) wins."""
    unknown = set(fields) - CRITERION_FIELDS
    if unknown:
        raise DomainError(f"Unknown criterion fields: {', '.join(sorted(unknown))}.")
    name = fields.get("name") or preset
    if not name:
        raise DomainError("A criterion needs a name (or a preset).", field="name")
    if criterion_by_name(campaign, name) is not None:
        raise DomainError(f"The campaign already has a criterion '{name}'.", field="name")
    values: dict[str, Any] = dict(fields)
    if preset:
        if preset not in CRITERION_PRESETS:
            raise DomainError(
                f"Unknown criterion preset '{preset}'; choose one of "
                f"{', '.join(CRITERION_PRESETS)}."
            )
        given = {k: v for k, v in fields.items() if v not in (None, "")}
        values = {**copy.deepcopy(CRITERION_PRESETS[preset]), **given}
    if content_checks is not None:
        values["content_checks"] = content_checks_clean(keys=content_checks)
    criterion = Criterion(
        campaign=campaign,
        standard_input=standard_input.strip(),
        standard_text=standard_text.strip(),
        **{"position": campaign.criteria.count(), **values, "name": name},
    )
    _check_scale_settings(criterion)
    model_check(instance=criterion)
    with refused_when_taken(
        f"The campaign already has a criterion '{criterion.name}'.", field="name"
    ):
        criterion.save()
    return criterion


@transaction.atomic
def criterion_create(*, campaign: Campaign, preset: str = "", **fields: Any) -> Criterion:
    """A new criterion, from a preset (fields then override it) or from fields alone."""
    if campaign.status != Campaign.Status.DRAFT:
        raise DomainError("Criteria can be added only while the campaign is a draft.")
    return _criterion_new(campaign=campaign, preset=preset, fields=fields)


@transaction.atomic
def criterion_create_imported(
    *,
    campaign: Campaign,
    preset: str = "",
    content_checks: Iterable[str] | None = None,
    standard_input: str = "",
    standard_text: str = "",
    **fields: Any,
) -> Criterion:
    """A new criterion that a file of finished judgements brings (the WMT and the
    column-mapped importers), under the rules of :func:`criterion_create` but in a
    campaign of any status: the judgements come finished, no task is built for them
    (the importers refuse an archived campaign themselves). Besides the fields, the
    content checks it offers (``None``: its preset's, if any) and a written-in standard,
    as a file's criterion definition gives them."""
    return _criterion_new(
        campaign=campaign,
        preset=preset,
        fields=fields,
        content_checks=content_checks,
        standard_input=standard_input,
        standard_text=standard_text,
    )


@transaction.atomic
def criterion_update(*, criterion: Criterion, **fields: Any) -> Criterion:
    """Change a criterion's fields; refused once the criterion has tasks."""
    unknown = set(fields) - CRITERION_FIELDS
    if unknown:
        raise DomainError(f"Unknown criterion fields: {', '.join(sorted(unknown))}.")
    _criterion_editable(criterion)
    if (
        "name" in fields
        and fields["name"] != criterion.name
        and criterion_by_name(criterion.campaign, fields["name"]) is not None
    ):
        raise DomainError(f"The campaign already has a criterion '{fields['name']}'.", field="name")
    for key, value in fields.items():
        setattr(criterion, key, value)
    _check_scale_settings(criterion)
    model_check(instance=criterion)
    with refused_when_taken(
        f"The campaign already has a criterion '{criterion.name}'.", field="name"
    ):
        criterion.save()
    return criterion


@transaction.atomic
def criterion_delete(*, criterion: Criterion) -> None:
    """Delete a criterion; refused once it has tasks."""
    _criterion_editable(criterion)
    criterion.delete()


def content_checks_clean(*, keys: Iterable[str], where: str = "content_checks") -> list[str]:
    """The keys in the catalogue's order, without repeats; unknown keys are an error."""
    keys = list(keys)
    unknown = sorted(set(keys) - set(CONTENT_CHECKS))
    if unknown:
        raise DomainError(
            f"Unknown content check {', '.join(repr(k) for k in unknown)}; choose from "
            f"{', '.join(CONTENT_CHECKS)}.",
            field=where,
        )
    return [k for k in CONTENT_CHECKS if k in keys]


def checks_ticked_clean(
    *, criterion: Criterion, slots: Sequence[int], checks: Mapping[int, Iterable[str]]
) -> tuple[dict[int, list[str]], dict[int, str]]:
    """The ticked checks per slot (catalogue order) and, separately, errors per slot.

    A key the criterion does not offer, or a slot the task does not have, is an error.
    """
    offered = set(criterion.content_checks or [])
    clean: dict[int, list[str]] = {}
    errors: dict[int, str] = {}
    for slot, keys in checks.items():
        keys = list(keys)
        if slot not in slots:
            errors[slot] = gettext("This task has no such output.")
            continue
        unknown = sorted(set(keys) - offered)
        if unknown:
            errors[slot] = gettext("This task does not ask about %(checks)s.") % {
                "checks": ", ".join(unknown)
            }
            continue
        clean[slot] = [k for k in CONTENT_CHECKS if k in keys]
    for slot in slots:
        problem = checklist_problem(offered=offered, ticked=clean.get(slot, []))
        if problem and slot not in errors:
            errors[slot] = problem
    return clean, errors


def checklist_problem(*, offered: Iterable[str], ticked: Iterable[str]) -> str:
    """What breaks RankME's checklist rules in one output's ticks ("" when nothing).

    The rules hold when "reflects the input perfectly" is offered (so that every output
    has a true statement to tick): each output gets at least one tick, and "perfectly"
    cannot go with "contains information not in the input" or "misses information from
    the input" (a contradiction is refused, not stored). Every interface (the pages, the
    REST API) submits through the service that applies them.
    """
    if "perfect" not in set(offered):
        return ""
    ticked = set(ticked)
    if not ticked:
        return gettext("tick at least one statement about this output.")
    if "perfect" in ticked and ticked & {"added", "missing"}:
        # The sentences as the worker reads them beside the boxes.
        other = CONTENT_CHECKS["added" if "added" in ticked else "missing"]
        return gettext("“%(perfect)s” cannot be ticked together with “%(other)s”; untick one.") % {
            "perfect": str(CONTENT_CHECKS["perfect"]),
            "other": str(other),
        }
    return ""


@transaction.atomic
def criterion_rankme_set(
    *,
    criterion: Criterion,
    standard_output: Output | None = None,
    standard_input: str | None = None,
    standard_text: str | None = None,
    content_checks: Iterable[str] | None = None,
) -> Criterion:
    """Set a criterion's standard and/or its content checks (None leaves a part as it is).

    A ``standard_output`` (an uploaded output of the same campaign) is copied: its item's
    input and its text become the standard, and the output is recorded. A written-in
    standard (``standard_input`` / ``standard_text`` without an output) clears the
    recorded output. Refused once the criterion has tasks, like every criterion change.
    """
    _criterion_editable(criterion)
    changed: list[str] = []
    if standard_output is not None:
        if standard_output.item.campaign_id != criterion.campaign_id:
            raise DomainError(
                "Choose the standard among this campaign's outputs.", field="standard_output"
            )
        criterion.standard_output = standard_output
        criterion.standard_input = standard_output.item.input
        criterion.standard_text = standard_output.text
        changed += ["standard_output", "standard_input", "standard_text"]
    elif standard_input is not None or standard_text is not None:
        if standard_input is not None:
            criterion.standard_input = standard_input.strip()
            changed.append("standard_input")
        if standard_text is not None:
            criterion.standard_text = standard_text.strip()
            changed.append("standard_text")
        criterion.standard_output = None
        changed.append("standard_output")
    if content_checks is not None:
        criterion.content_checks = content_checks_clean(keys=content_checks)
        changed.append("content_checks")
    if changed:
        criterion.save(update_fields=changed)
    return criterion


@transaction.atomic
def criterion_define(
    *,
    campaign: Campaign,
    criterion: Criterion | None = None,
    fields: dict[str, Any],
    standard_output: Output | None = None,
    standard_input: str | None = None,
    standard_text: str | None = None,
    content_checks: Iterable[str] | None = None,
) -> Criterion:
    """Create (``criterion`` None) or change a criterion with its standard and checks,
    all or nothing: the designer's criterion form saves through here."""
    if criterion is None:
        criterion = criterion_create(campaign=campaign, **fields)
    else:
        criterion = criterion_update(criterion=criterion, **fields)
    return criterion_rankme_set(
        criterion=criterion,
        standard_output=standard_output,
        standard_input=standard_input,
        standard_text=standard_text,
        content_checks=content_checks,
    )


def criterion_launch_problems(*, campaign: Campaign) -> list[str]:
    """Why the campaign's criteria are not ready for workers (empty when they are).

    A magnitude criterion needs a standard: workers relate every score to it. A set-up 1
    page shows one input: criteria that hide it cannot share a page with criteria that
    show it (``setup_input_conflict``).
    """
    problems = [
        f"Criterion '{c.name}' uses magnitude estimation but has no standard: choose the "
        "standard output workers relate their scores to on its criterion page."
        for c in criteria_without_standard(campaign=campaign)
    ]
    conflict = setup_input_conflict(campaign=campaign)
    return [*problems, conflict] if conflict else problems


def criteria_check_launchable(*, campaign: Campaign) -> None:
    """Raise ``DomainError`` naming every criterion that is not ready for launch."""
    problems = criterion_launch_problems(campaign=campaign)
    if problems:
        raise DomainError(" ".join(problems))
