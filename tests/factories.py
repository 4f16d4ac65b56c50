"""factory_boy factories for the domain models."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

import factory
from django.db.models import F, Model
from django.utils import timezone

from annotations.models import (
    Assignment,
    Campaign,
    Criterion,
    Item,
    Judgement,
    JudgementScore,
    Output,
    System,
    Task,
    TaskOutput,
    Worker,
)
from annotations.services.criteria import E2E_QUALITY_QUESTION

ModelT = TypeVar("ModelT", bound=Model)


class ModelFactory(factory.django.DjangoModelFactory[ModelT]):
    """A factory whose call is typed as returning its model (``CampaignFactory()`` is a
    ``Campaign``), as factory_boy's metaclass makes it at run time."""

    class Meta:
        abstract = True

    if TYPE_CHECKING:
        # factory_boy's metaclass ``__call__`` returns the model but is untyped, so mypy
        # would take ``CampaignFactory()`` for a factory instance.
        def __new__(cls, *args: Any, **kwargs: Any) -> ModelT: ...  # type: ignore[misc]


class CampaignFactory(ModelFactory[Campaign]):
    class Meta:
        model = Campaign

    slug = factory.Sequence(lambda n: f"campaign-{n}")
    name = factory.LazyAttribute(lambda o: o.slug.replace("-", " ").title())


class CriterionFactory(ModelFactory[Criterion]):
    class Meta:
        model = Criterion

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"quality{n}")
    question = E2E_QUALITY_QUESTION
    show_input = True
    scale = Criterion.Scale.MAGNITUDE
    scale_settings = factory.LazyFunction(lambda: {"standard": 100, "max_digits": 6})


class SystemFactory(ModelFactory[System]):
    class Meta:
        model = System

    campaign = factory.SubFactory(CampaignFactory)
    label = factory.Sequence(lambda n: f"sys{n}")


class ItemFactory(ModelFactory[Item]):
    class Meta:
        model = Item

    campaign = factory.SubFactory(CampaignFactory)
    external_id = factory.Sequence(lambda n: f"mr{n}")
    input = "name[Cotto], eatType[coffee shop], near[The Bakers]"


class OutputFactory(ModelFactory[Output]):
    class Meta:
        model = Output

    item = factory.SubFactory(ItemFactory)
    system = factory.SubFactory(SystemFactory, campaign=factory.SelfAttribute("..item.campaign"))
    text = factory.Sequence(lambda n: f"Cotto is a coffee shop near The Bakers ({n}).")


class TaskFactory(ModelFactory[Task]):
    class Meta:
        model = Task

    campaign = factory.SubFactory(CampaignFactory)
    criterion = factory.SubFactory(CriterionFactory, campaign=factory.SelfAttribute("..campaign"))
    item = factory.SubFactory(ItemFactory, campaign=factory.SelfAttribute("..campaign"))


class TaskOutputFactory(ModelFactory[TaskOutput]):
    class Meta:
        model = TaskOutput

    task = factory.SubFactory(TaskFactory)
    output = factory.SubFactory(OutputFactory, item=factory.SelfAttribute("..task.item"))
    slot = factory.Sequence(lambda n: n % 5)


class WorkerFactory(ModelFactory[Worker]):
    class Meta:
        model = Worker

    campaign = factory.SubFactory(CampaignFactory)
    platform = Worker.Platform.PROLIFIC
    external_id = factory.Sequence(lambda n: f"PID{n:06d}")


class AssignmentFactory(ModelFactory[Assignment]):
    class Meta:
        model = Assignment

    task = factory.SubFactory(TaskFactory)
    worker = factory.SubFactory(WorkerFactory, campaign=factory.SelfAttribute("..task.campaign"))
    item = factory.SelfAttribute("task.item")
    criterion = factory.SelfAttribute("task.criterion")
    started_at = factory.LazyFunction(timezone.now)


def task_with_outputs(
    *,
    campaign: Campaign | None = None,
    criterion: Criterion | None = None,
    texts: tuple[str, ...] = (
        "Cotto is a coffee shop near The Bakers.",
        "Near The Bakers, Cotto is a coffee shop.",
        "Cotto coffee shop Bakers.",
    ),
    kind: str = Task.Kind.REGULAR,
    number: int = 0,
) -> Task:
    """A task with one output per text, each in its own slot (0, 1, ...), one system each."""
    campaign = campaign or (criterion.campaign if criterion else CampaignFactory())
    criterion = criterion or CriterionFactory(campaign=campaign)
    item = ItemFactory(campaign=campaign)
    task = TaskFactory(campaign=campaign, criterion=criterion, item=item, kind=kind, number=number)
    for slot, text in enumerate(texts):
        system = System.objects.get_or_create(campaign=campaign, label=f"sys{slot}")[0]
        output = OutputFactory(item=item, system=system, text=text)
        TaskOutputFactory(task=task, output=output, slot=slot)
    return task


def judgement_of(
    task: Task, worker: Worker, scores: list[float], *, kind: str = Assignment.Kind.REGULAR
) -> Judgement:
    """A submitted judgement of ``task`` by ``worker``: one score per slot (in slot
    order), ranks from the scores, and its assignment; the task's place counted."""
    from annotations.core.scoring import ranks_from_scores

    now = timezone.now()
    links = list(task.task_outputs.order_by("slot"))
    assignment = Assignment.objects.create(
        worker=worker,
        task=task,
        item=task.item,
        criterion=task.criterion,
        kind=kind,
        state=Assignment.State.SUBMITTED,
        started_at=now,
        submitted_at=now,
    )
    judgement = Judgement.objects.create(
        assignment=assignment,
        task=task,
        worker=worker,
        criterion=task.criterion,
        started_at=now,
        submitted_at=now,
        seconds_on_task=30.0,
    )
    JudgementScore.objects.bulk_create(
        JudgementScore(judgement=judgement, output=link.output, slot=link.slot, score=s, rank=r)
        for link, s, r in zip(links, scores, ranks_from_scores(scores), strict=True)
    )
    Task.objects.filter(pk=task.pk).update(places_held=F("places_held") + 1)
    return judgement


def live_campaign_with_tasks(*, tasks: int = 3, **fields: Any) -> Campaign:
    """A live campaign of one criterion and ``tasks`` tasks, two per worker unless
    ``fields`` say otherwise (the worker's pages: sessions, the task page, its submit)."""
    campaign = CampaignFactory(**{"status": Campaign.Status.LIVE, "tasks_per_worker": 2, **fields})
    criterion = CriterionFactory(campaign=campaign)
    for _ in range(tasks):
        task_with_outputs(campaign=campaign, criterion=criterion)
    return campaign
