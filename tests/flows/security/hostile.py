"""A whole campaign whose every user-, file- or URL-supplied string is hostile.

:func:`hostile_world` fills one campaign the way users, uploads and crowd links could:
criteria of each scale (magnitude, Likert, slider) with their questions, standards and
Likert descriptors; systems; items with attributes (names and values); outputs;
judgements with their scores, coverage and metadata; workers (external ids, exclusion
reasons, the id a crowd link brings); a finished ranking run (on a slice) and a failed
one; an adaptive batch (its state and decision name the systems); automatic metric scores (segment and system level); a datasheet answer; members
(names, emails), an invitation, an import job, a saved rating mapping, translations.
Every one of those strings is a :func:`hostile` value: HTML (``<script>``, ``<img
onerror>``, ``<meta http-equiv="refresh">``), ``javascript:`` links (HTML and Markdown),
LaTeX and Markdown specials (``\\input{/etc/passwd}``, ``$ % & # _ { } ~ ^ \\``), a CSV
formula start (``= + - @``, tab, CR), a bidirectional override (U+202E), and in the long
text fields 10,000 characters. NUL is refused at input (PostgreSQL cannot store it), so
the fixture stores none; ``test_nul.py`` checks the refusal.

``tests/flows/security/test_hostile_pages.py`` renders every page, export and API GET response
from it and checks that each string comes out inert.

**When you add a model field that holds text a person, a file or a URL supplies, set it
here to a hostile value and add it to HOSTILE_FIELDS** (a new model with such fields:
create a row of it here), so that every page, export and API response showing it is
checked; a field nobody supplies goes in NOT_SUPPLIED with why. ``test_fields.py`` fails
on a text or JSON field in neither list, and on a listed field the fixture leaves
without a hostile value. docs/deploy.md (Hostile strings) says the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils import timezone

from annotations.models import (
    Assignment,
    Campaign,
    CampaignInvitation,
    CampaignMembership,
    Criterion,
    ImportJob,
    Judgement,
    JudgementScore,
    Output,
    RatingMapping,
    Task,
    TaskOutput,
    Worker,
)
from annotations.selectors.memberships import token_digest
from ranking.models import AdaptiveBatch, RankingResult, RankingRun
from reports.models import Datasheet, MetricScore
from tests.annotations.designer_data import judged_campaign

SCRIPT = '<script>alert("xss")</script>'
IMG = "<img src=x onerror=alert(1)>"
META = '<meta http-equiv="refresh" content="0;url=https://evil.example">'
JS_LINK = '[md](javascript:alert(1))<a href="javascript:alert(1)">a</a>'
TEX = r"\input{/etc/passwd} $\frac{1}{0}$ % & # _ { } ~ ^ \\"
BIDI = "\u202egnp.exe"
#: the invitation's link token (the database keeps its digest)
INVITATION_TOKEN = "hostile-invitation-token"
#: one of each, in the order the short fields rotate through them
PIECES = (SCRIPT, IMG, META, JS_LINK, TEX + " " + BIDI)
#: what a spreadsheet reads as the start of a formula (OWASP)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: every piece at once
PAYLOAD = " ".join(PIECES)
#: a long text: the payload repeated to 10,000 characters
LONG = (PAYLOAD + " ") * (10_000 // (len(PAYLOAD) + 1) + 1)


def hostile(n: int, limit: int | None = None) -> str:
    """The n-th hostile value: a formula start, then the whole payload, or (for a field
    of at most ``limit`` characters) one piece of it, the pieces taking turns."""
    start = FORMULA_STARTS[n % len(FORMULA_STARTS)]
    if limit is None:
        return start + PAYLOAD
    return (start + PIECES[n % len(PIECES)])[:limit]


@dataclass
class HostileWorld:
    campaign: Campaign
    owner: User
    admin: User
    criteria: list[Criterion]
    worker: Worker  # consented, has tasks left
    stopped_worker: Worker  # an MTurk worker stopped by the checks, back from a crafted link
    workers: list[Worker]  # every worker: done, excluded, flagged, not yet consented, ...
    run: RankingRun  # done
    failed_run: RankingRun
    import_job: ImportJob
    invitation: CampaignInvitation
    member: CampaignMembership  # a designer with a hostile name and email
    assignment: Assignment  # the worker's active assignment


def _user(username: str, n: int, **extra: object) -> User:
    return User.objects.create(
        username=username,
        first_name=hostile(n, 150),
        last_name=hostile(n + 1, 150),
        email=f'"{IMG}"@evil.example',
        **extra,
    )


def hostile_world() -> HostileWorld:
    owner = _user("owner", 0)
    admin = _user("admin", 1, is_staff=True, is_superuser=True)
    campaign = judged_campaign(owner=owner, slug="hostile", n_items=4, n_workers=3)
    Campaign.objects.filter(pk=campaign.pk).update(
        name=hostile(0, 200),
        description=hostile(1),
        instructions=hostile(2) + LONG,
        consent_text=hostile(3),
        completion_code=hostile(4, 64),
        failed_check_code=hostile(5, 64),
        screened_out_code=hostile(6, 64),
        languages=["en", "de"],
        translations={
            "de": {"description": hostile(7), "instructions": hostile(8), "consent_text": PAYLOAD}
        },
        status=Campaign.Status.LIVE,
        tasks_per_worker=3,
    )
    campaign.refresh_from_db()

    # Criteria: the magnitude one of judged_campaign, and a Likert and a slider one.
    quality = campaign.criteria.get()
    quality.name = hostile(0, 64)
    quality.question = hostile(1) + LONG
    quality.standard_input = hostile(2)
    quality.standard_text = hostile(3)
    quality.translations = {"de": {"question": hostile(4), "standard_text": hostile(5)}}
    quality.save()
    likert = Criterion.objects.create(
        campaign=campaign,
        name=hostile(1, 64),
        question=hostile(6),
        # the designer's own worked example (the magnitude one's is generated from its
        # hostile standard text)
        example=hostile(9),
        scale=Criterion.Scale.LIKERT,
        position=1,
        scale_settings={
            "levels": [
                {"value": v, "label": hostile(v, 100), "descriptor": hostile(v + 1)}
                for v in range(1, 6)
            ]
        },
        translations={"de": {"question": hostile(7), "levels": [hostile(8)] * 5}},
    )
    slider = Criterion.objects.create(
        campaign=campaign,
        name=hostile(5, 64),  # starts with a CR (a header line break if put in one)
        question=hostile(9),
        scale=Criterion.Scale.SLIDER,
        position=2,
    )

    # Systems, items (attributes: names and values), outputs.
    for n, system in enumerate(campaign.systems.order_by("label")):
        system.label = hostile(n, 100)
        system.name = hostile(n + 1, 200)
        system.metadata = {hostile(n, 100): hostile(n)}
        system.save()
    for n, item in enumerate(campaign.items.order_by("position")):
        item.external_id = hostile(n, 200)
        item.input = hostile(n) + (LONG if n == 0 else "")
        item.attributes = {hostile(n % 2, 100): hostile(n, 100), "domain": hostile(n + 2)}
        item.save()
    for n, output in enumerate(Output.objects.filter(item__campaign=campaign).order_by("pk")):
        output.text = hostile(n) + (LONG if n == 0 else "")
        output.save(update_fields=["text"])

    # Judgements, workers.
    for n, worker in enumerate(campaign.workers.order_by("pk")):
        worker.external_id = hostile(n, 200)
        worker.exclusion_reason = hostile(n + 1)
        worker.metadata = {"assignment_id": hostile(n, 100), hostile(n, 50): hostile(n)}
        worker.excluded = n == 0
        worker.consented_at = timezone.now()
        worker.flagged = n == 1
        worker.save()
    for n, judgement in enumerate(Judgement.objects.filter(task__campaign=campaign)):
        judgement.metadata = {hostile(n, 50): hostile(n)}
        judgement.save(update_fields=["metadata"])
    JudgementScore.objects.filter(judgement__task__campaign=campaign).update(
        coverage=hostile(3, 32)
    )

    # Tasks of the other two criteria, and a fresh worker with one of them in hand.
    for number, criterion in enumerate((likert, slider), start=100):
        for item in campaign.items.order_by("position"):
            task = Task.objects.create(
                campaign=campaign,
                criterion=criterion,
                item=item,
                number=number + item.position,
                external_id=hostile(item.position, 100),
            )
            slots: dict[int, int] = {}
            for output in item.outputs.order_by("system__label"):
                key = output.canonical_id or output.pk
                slot = slots.setdefault(key, len(slots))
                # A text shown instead of the output's (an attention check's copy).
                text = hostile(slot) if criterion == slider and slot == 0 else ""
                TaskOutput.objects.create(task=task, output=output, slot=slot, text=text)
    worker = Worker.objects.create(
        campaign=campaign,
        platform=Worker.Platform.PROLIFIC,
        external_id=hostile(5, 200),
        consented_at=timezone.now(),
        language="en",
    )
    stopped_worker = Worker.objects.create(
        campaign=campaign,
        platform=Worker.Platform.MTURK,
        external_id=hostile(2, 200),
        consented_at=timezone.now(),
        stopped=True,
        metadata={
            "assignment_id": hostile(3, 100),
            "hit_id": hostile(4, 100),
            "turk_submit_to": "javascript:alert(1)//https://www.mturk.com",
        },
    )
    Worker.objects.create(  # arrived, not yet consented: the consent page
        campaign=campaign, platform=Worker.Platform.PROLIFIC, external_id=hostile(3, 200)
    )
    in_hand = Task.objects.filter(criterion=likert).order_by("number").first()
    assert in_hand is not None
    assignment = Assignment.objects.create(
        worker=worker,
        task=in_hand,
        item=in_hand.item,
        criterion=likert,
        started_at=timezone.now(),
        draft={"0": hostile(1, 100)},
    )

    # Ranking: a finished run on a slice, and a failed one.
    run = RankingRun.objects.create(
        campaign=campaign,
        criterion=slider,  # its name starts with a CR, and so do the export's file names
        status=RankingRun.Status.DONE,
        progress=1.0,
        where={"domain": hostile(2)},
        inputs={"excluded_workers": [hostile(0, 200)], "judgements": 12},
        stability={"note": hostile(3)},
    )
    for i, system in enumerate(campaign.systems.order_by("label")):
        RankingResult.objects.create(
            run=run, system=system, value=1.0 - i, rank_lo=i + 1, rank_hi=i + 1, cluster=i + 1
        )
    failed_run = RankingRun.objects.create(
        campaign=campaign, criterion=likert, status=RankingRun.Status.FAILED, error=hostile(4)
    )

    # An adaptive batch: its state and decision name the systems.
    labels = [system.label for system in campaign.systems.order_by("label")]
    AdaptiveBatch.objects.create(
        campaign=campaign,
        criterion=quality,
        number=1,
        seed=[0, quality.pk, 1],
        judgements=12,
        state=[
            {
                "label": label,
                "value": 1.0 - i,
                "sigma": 0.5,
                "rank_lo": i + 1,
                "rank_hi": i + 1,
                "cluster": i + 1,
            }
            for i, label in enumerate(labels)
        ],
        decision={
            "contested_gaps": [f"{labels[0]} | {labels[1]}"],
            "boundary_systems": labels[:2],
            "quota": {label: 3 for label in labels},
            "unplaced": 0,
            "reason": hostile(5),
        },
        tasks=5,
    )

    # Reports: metric scores (segment and system level), a datasheet answer.
    for n, system in enumerate(campaign.systems.order_by("label")):
        for m in range(2):
            MetricScore.objects.create(
                campaign=campaign, metric=hostile(m, 100), system=system, score=0.1 * n + m
            )
            for output in system.outputs.all():
                MetricScore.objects.create(
                    campaign=campaign,
                    metric=hostile(m, 100),
                    system=system,
                    output=output,
                    score=0.05 * n + 0.01 * output.pk,
                )
    Datasheet.objects.create(
        campaign=campaign,
        answers={"5.1": hostile(5), f"4.1.1@{quality.name}": hostile(6)},
        updated_by=owner,
    )

    # People and uploads: a member, an invitation, an import job, a saved mapping.
    designer = _user(hostile(3, 150), 2)
    member = CampaignMembership.objects.create(
        campaign=campaign, user=designer, role=CampaignMembership.Role.DESIGNER
    )
    invitation = CampaignInvitation.objects.create(
        campaign=campaign,
        email=f'"{SCRIPT}"@evil.example',
        token=token_digest(INVITATION_TOKEN),
    )
    import_job = ImportJob.objects.create(
        campaign=campaign,
        kind="outputs",
        filename=hostile(2, 255),
        status=ImportJob.Status.FAILED,
        error=hostile(3),
        summary={hostile(4, 50): hostile(4)},
        options={"name": hostile(5)},
        created_by=owner,
    )
    RatingMapping.objects.create(
        campaign=campaign,
        name=hostile(4, 64),
        mapping={"worker": hostile(1, 100), "criteria": [{"name": hostile(2, 64)}]},
        created_by=owner,
    )
    return HostileWorld(
        campaign=campaign,
        owner=owner,
        admin=admin,
        criteria=[quality, likert, slider],
        worker=worker,
        stopped_worker=stopped_worker,
        workers=list(campaign.workers.order_by("pk")),
        run=run,
        failed_run=failed_run,
        import_job=import_job,
        invitation=invitation,
        member=member,
        assignment=assignment,
    )


#: every text and JSON field (``app.Model.field``) a person, a file or a link supplies:
#: the fixture fills each with hostile values (``test_fields.py`` checks that it does, and
#: that every text or JSON field of the product is here or in NOT_SUPPLIED)
HOSTILE_FIELDS = frozenset(
    {
        "annotations.Campaign.name",
        "annotations.Campaign.description",
        "annotations.Campaign.instructions",
        "annotations.Campaign.consent_text",
        "annotations.Campaign.completion_code",
        "annotations.Campaign.failed_check_code",
        "annotations.Campaign.screened_out_code",
        "annotations.Campaign.translations",
        "annotations.Criterion.name",
        "annotations.Criterion.question",
        "annotations.Criterion.scale_settings",
        "annotations.Criterion.standard_input",
        "annotations.Criterion.standard_text",
        "annotations.Criterion.example",
        "annotations.Criterion.translations",
        "annotations.System.label",
        "annotations.System.name",
        "annotations.System.metadata",
        "annotations.Item.external_id",
        "annotations.Item.input",
        "annotations.Item.attributes",
        "annotations.Output.text",
        "annotations.Task.external_id",
        "annotations.TaskOutput.text",
        "annotations.Worker.external_id",
        "annotations.Worker.metadata",
        "annotations.Worker.exclusion_reason",
        "annotations.Assignment.draft",
        "annotations.Judgement.metadata",
        "annotations.JudgementScore.coverage",
        "annotations.ImportJob.filename",
        "annotations.ImportJob.options",
        "annotations.ImportJob.error",
        "annotations.ImportJob.summary",
        "annotations.CampaignInvitation.email",
        "annotations.RatingMapping.name",
        "annotations.RatingMapping.mapping",
        "ranking.RankingRun.where",
        "ranking.RankingRun.inputs",
        "ranking.RankingRun.error",
        "ranking.RankingRun.stability",
        "ranking.AdaptiveBatch.state",
        "ranking.AdaptiveBatch.decision",
        "reports.MetricScore.metric",
        "reports.Datasheet.answers",
        "auth.User.username",
        "auth.User.first_name",
        "auth.User.last_name",
        "auth.User.email",
    }
)
#: text and JSON fields nobody supplies as free text, and why (fields with choices are
#: left out of both lists: a value outside the choices cannot be stored through the product)
NOT_SUPPLIED = {
    "annotations.Campaign.slug": "a slug, checked at input (the URLs carry it)",
    "annotations.Campaign.languages": "BCP 47 tags, checked at input",
    "annotations.Campaign.language_quotas": "BCP 47 tag -> a number, checked at input",
    "annotations.Criterion.content_checks": "keys from a fixed list, checked at input",
    "annotations.Item.language": "a BCP 47 tag, checked at input",
    "annotations.Output.language": "a BCP 47 tag, checked at input",
    "annotations.Task.language": "a BCP 47 tag, checked at input",
    "annotations.Worker.language": "a BCP 47 tag, checked at input",
    "annotations.Assignment.display_order": "slot numbers the product draws",
    "annotations.JudgementScore.checks": "content-check keys from a fixed list",
    "annotations.WorkerCheck.detail": "numbers the quality checks compute",
    "annotations.ImportJob.kind": "the importer's name",
    "annotations.CampaignInvitation.token": "a digest the product computes",
    "ranking.RankingRun.parameters": "numbers, checked at input",
    "ranking.RankingRun.fingerprint": "a digest",
    "ranking.RankingChunk.fingerprint": "a digest",
    "ranking.AdaptiveBatch.seed": "numbers",
    "ranking.AdaptiveBatch.method": "the product's refit method",
    "ranking.AdaptiveBatch.fingerprint": "a digest",
    "ranking.AdaptiveBatch.trigger": "auto or manual, set by the product",
    "auth.User.password": "a hash",
    "auth.Group.name": "named by the site's administrators only",
    "auth.Permission.name": "Django's own",
    "auth.Permission.codename": "Django's own",
}

#: every hostile fragment that must never reach a page as markup
MARKUP = (SCRIPT, IMG, META, '<a href="javascript:')


def carried(text: str) -> list[str]:
    """The fixture's markup found verbatim in ``text`` (a quick check beside the parser)."""
    return [m for m in MARKUP if m in text]
