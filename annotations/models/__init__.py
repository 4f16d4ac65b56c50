"""The domain of a human-evaluation campaign.

A campaign has systems, items (inputs), one output per system per item and criteria.
A task shows a worker k outputs of one item under one criterion; an assignment hands a
task to a worker; a judgement holds the worker's raw score for every output of the task
and the ranks derived from them.

Rules that must never break are database constraints, not only code: one output per
system and item, one judgement per assignment, a worker never holds the same task twice,
scores are never negative, and so on. Business logic lives in the ``annotations.services`` package (writes, one module per
entity) and reads in ``annotations.selectors``.

One module per entity, named as the module that writes it: ``campaigns``, ``memberships``
(members and invitations), ``criteria``, ``outputs`` (systems, items, outputs), ``tasks``,
``workers``, ``assignment``, ``judgements`` and ``quality`` (worker checks) as their
services in ``annotations.services``; ``jobs`` (background imports) and ``mapped`` (saved
column mappings) as their importers in ``annotations.importing``. Import the models from
here.
"""

from annotations.models.assignment import Assignment
from annotations.models.campaigns import LANGUAGE_MAX, Campaign
from annotations.models.campaigns import _code as _code  # named by migrations
from annotations.models.campaigns import _english as _english  # named by migrations
from annotations.models.criteria import Criterion
from annotations.models.jobs import ImportJob
from annotations.models.judgements import Judgement, JudgementScore
from annotations.models.mapped import RatingMapping
from annotations.models.memberships import CampaignInvitation, CampaignMembership
from annotations.models.outputs import Item, Output, System
from annotations.models.quality import WorkerCheck
from annotations.models.tasks import Task, TaskOutput
from annotations.models.workers import Worker

__all__ = [
    "LANGUAGE_MAX",
    "Assignment",
    "Campaign",
    "CampaignInvitation",
    "CampaignMembership",
    "Criterion",
    "ImportJob",
    "Item",
    "Judgement",
    "JudgementScore",
    "Output",
    "RatingMapping",
    "System",
    "Task",
    "TaskOutput",
    "Worker",
    "WorkerCheck",
]

# COPIES. Some columns repeat what another row already says, so that hot reads and the
# database's uniqueness rules need no join:
#   Task.campaign                              = Task.criterion.campaign = Task.item.campaign
#   Assignment.item, Assignment.criterion      = its task's
#   Judgement.task, .worker, .criterion        = its assignment's
#   JudgementScore.output                      = an output of the judgement's task at the
#                                                score's slot and role
# The column a copy is taken from keeps its foreign-key check in the database; the copies
# have none (db_constraint=False). PostgreSQL checks each foreign key of each new row at
# commit, about 3 microseconds a check: a 100,000-row WMT import writes 1.1 million copies
# (the target for that import is under 15 s). Every writer sets a copy from the row it
# copies, in the same transaction; Django still deletes along every copy (on_delete); and
# annotations.selectors.integrity.copies_disagreeing counts copies that disagree or point
# nowhere (tested after every writer, and checked by the load benchmark after each run).
