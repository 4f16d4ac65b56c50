"""The questions of the Human Evaluation Datasheet (HEDS) 1.0, section by section.

Source: Anastasia Shimorina and Anya Belz (2021), "The Human Evaluation Datasheet 1.0: A
Template for Recording Details of Human Evaluation Experiments in NLP", arXiv:2103.09710
(https://arxiv.org/abs/2103.09710); the question list as published with the ReproGen
form (https://reprogen.github.io/2021/heds/). Question ids are HEDS's own. The wording
here is shortened; the ids point to the full questions and their instructions.

Section 4 is answered once per quality criterion (``per_criterion``), so a question's
key in a datasheet is its id (``"3.2.1"``) or, in section 4, its id and the criterion's
name (``"4.3.7@quality"``). ``platform`` says whether the platform can answer the
question from a campaign; the others are answered by a person.

Pure: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

VERSION = "1.0"
SOURCE = (
    'Shimorina and Belz (2021), "The Human Evaluation Datasheet 1.0: A Template for '
    'Recording Details of Human Evaluation Experiments in NLP", arXiv:2103.09710'
)
#: How a question no one has answered yet is shown in every rendering.
TO_BE_ANSWERED = "To be answered by a person."

SECTIONS: dict[str, str] = {
    "1": "Paper and supplementary resources",
    "2": "Evaluated system(s)",
    "3": "Sample of system outputs, evaluators and experimental design",
    "4": "Quality criterion: definition and operationalisation",
    "5": "Ethics",
}


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    platform: bool
    subsection: str = ""

    @property
    def section(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def per_criterion(self) -> bool:
        return self.section == "4"


def _q(id: str, text: str, platform: bool = False, subsection: str = "") -> Question:
    return Question(id=id, text=text, platform=platform, subsection=subsection)


QUESTIONS: tuple[Question, ...] = (
    _q("1.1", "Link to the paper reporting the evaluation experiment."),
    _q("1.2", "Link to a website providing resources used in the evaluation experiment."),
    _q("1.3", "Name, affiliation and email address of the person completing this sheet."),
    _q("2.1", "What type of input do the evaluated system(s) take?", True),
    _q("2.2", "What type of output do the evaluated system(s) generate?", True),
    _q("2.3", "What task do the evaluated system(s) perform in mapping inputs to outputs?"),
    _q("2.4", "What are the input languages used by the system(s)?", True),
    _q("2.5", "What are the output languages used by the system(s)?", True),
    _q("3.1.1", "How many system outputs are evaluated?", True, "Sample of system outputs"),
    _q("3.1.2", "How are system outputs selected for inclusion?", True, "Sample of system outputs"),
    _q(
        "3.1.3",
        "What is the statistical power of the sample size?",
        False,
        "Sample of system outputs",
    ),
    _q("3.2.1", "How many evaluators are there?", True, "Evaluators"),
    _q("3.2.2", "What kind of evaluators are they?", True, "Evaluators"),
    _q("3.2.3", "How are evaluators recruited (and paid)?", True, "Evaluators"),
    _q("3.2.4", "What training or practice are evaluators given?", True, "Evaluators"),
    _q("3.2.5", "What other characteristics do the evaluators have?", False, "Evaluators"),
    _q("3.3.1", "Has the experimental design been preregistered?", False, "Experimental design"),
    _q("3.3.2", "How are responses collected?", True, "Experimental design"),
    _q("3.3.3", "What quality assurance methods are used?", True, "Experimental design"),
    _q(
        "3.3.4",
        "What do evaluators see when carrying out evaluations?",
        True,
        "Experimental design",
    ),
    _q(
        "3.3.5",
        "How free are evaluators regarding when and how quickly to carry out evaluations?",
        True,
        "Experimental design",
    ),
    _q(
        "3.3.6",
        "Are evaluators told they can ask questions or give feedback?",
        False,
        "Experimental design",
    ),
    _q(
        "3.3.7",
        "What are the experimental conditions in which evaluators carry out the evaluations?",
        True,
        "Experimental design",
    ),
    _q(
        "3.3.8",
        "Unless the evaluation is carried out at a place of the evaluators' own choosing, "
        "briefly describe the (range of different) conditions in which evaluators carry out "
        "the evaluations.",
        True,
        "Experimental design",
    ),
    _q(
        "4.1.1",
        "What type of quality is assessed (correctness, goodness, feature)?",
        False,
        "Quality criterion properties",
    ),
    _q(
        "4.1.2",
        "Which aspect of system outputs is assessed (form, content, both)?",
        False,
        "Quality criterion properties",
    ),
    _q(
        "4.1.3",
        "Is each output assessed in its own right, relative to the input, or relative to an "
        "external reference?",
        True,
        "Quality criterion properties",
    ),
    _q(
        "4.2.1",
        "Does an assessment involve an objective or a subjective judgment?",
        False,
        "Evaluation mode",
    ),
    _q("4.2.2", "Are outputs assessed in absolute or relative terms?", True, "Evaluation mode"),
    _q("4.2.3", "Is the evaluation intrinsic or extrinsic?", True, "Evaluation mode"),
    _q(
        "4.3.1",
        "What is the quality criterion called in explanations and interfaces to evaluators?",
        True,
        "Response elicitation",
    ),
    _q(
        "4.3.2",
        "What definition of the quality criterion are evaluators given?",
        False,
        "Response elicitation",
    ),
    _q("4.3.3", "Size of the scale or other rating instrument.", True, "Response elicitation"),
    _q("4.3.4", "Possible values of the scale or rating instrument.", True, "Response elicitation"),
    _q(
        "4.3.5",
        "How is the scale or rating instrument presented to evaluators?",
        True,
        "Response elicitation",
    ),
    _q(
        "4.3.6",
        "If there is no rating instrument, what task do evaluators perform?",
        True,
        "Response elicitation",
    ),
    _q(
        "4.3.7",
        "What is the verbatim question, prompt or instruction given to evaluators?",
        True,
        "Response elicitation",
    ),
    _q("4.3.8", "Form of response elicitation.", True, "Response elicitation"),
    _q(
        "4.3.9",
        "How are raw responses aggregated or otherwise processed into reported scores?",
        True,
        "Response elicitation",
    ),
    _q(
        "4.3.10",
        "Method(s) used for determining effect size and significance of findings.",
        True,
        "Response elicitation",
    ),
    _q(
        "4.3.11",
        "Has inter- and intra-annotator agreement been assessed (method and figures)?",
        True,
        "Response elicitation",
    ),
    _q("5.1", "Has the evaluation been approved by a research ethics committee?"),
    _q(
        "5.2",
        "Do any of the outputs evaluated or responses collected contain personal data?",
    ),
    _q(
        "5.3",
        "Do any of the outputs evaluated or responses collected contain special category "
        "information?",
    ),
    _q("5.4", "Have any impact assessments been carried out for the evaluation?"),
)

BY_ID: dict[str, Question] = {q.id: q for q in QUESTIONS}


def answer_key(question_id: str, criterion: str | None = None) -> str:
    """The key of an answer: the question id, with ``@criterion`` in section 4."""
    return f"{question_id}@{criterion}" if criterion is not None else question_id


def keys_for(criteria: list[str]) -> list[tuple[Question, str | None]]:
    """Every (question, criterion) of a datasheet in HEDS order: sections 1 to 3, section 4
    once per criterion, then section 5."""
    rows: list[tuple[Question, str | None]] = []
    for question in QUESTIONS:
        if question.section == "4":
            continue
        if question.section == "5" and not any(r[0].section == "5" for r in rows):
            for criterion in criteria:
                rows.extend((q, criterion) for q in QUESTIONS if q.per_criterion)
        rows.append((question, None))
    return rows
