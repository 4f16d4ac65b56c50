"""Fixtures shared by the tests of this folder."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from annotations.models import Campaign, CampaignMembership, Worker
from annotations.services.campaigns import campaign_create
from annotations.services.criteria import criterion_from_preset
from tests.annotations.designer_data import add_member, judged_campaign, users
from tests.annotations.experts_data import experts_campaign
from tests.annotations.importing.conftest import make_e2e_folder, model_counts
from tests.factories import CampaignFactory


@pytest.fixture
def people(db):
    return users()


@pytest.fixture
def owner_client(client, people):
    client.force_login(people["owner"])
    return client


Role = CampaignMembership.Role


@pytest.fixture
def world(db):
    people = users()
    campaign = CampaignFactory(
        owner=people["owner"],
        languages=["en", "de", "fr"],
        instructions="Read each text and rate it.",
        consent_text="I agree to take part.",
        description="",
    )
    add_member(campaign, people["owner"], Role.OWNER)
    add_member(campaign, people["designer"], Role.DESIGNER)
    add_member(campaign, people["viewer"], Role.VIEWER)
    grammar = criterion_from_preset(campaign=campaign, preset="grammar")
    quality = criterion_from_preset(campaign=campaign, preset="quality")
    return people, campaign, grammar, quality


@pytest.fixture
def campaign() -> Campaign:
    # Three Prolific workers (PID0000..PID0002) who each judged 4 tasks.
    c = judged_campaign(n_workers=3)
    c.quality_threshold = 0.5
    c.save(update_fields=["quality_threshold"])
    return c


@pytest.fixture
def owner(client, settings):
    settings.JOBS_IN_THREAD = False
    people = users()
    client.force_login(people["owner"])
    return people["owner"]


@pytest.fixture
def people_campaign() -> tuple[dict[str, User], Campaign]:
    people = {n: User.objects.create(username=n) for n in ("owner", "designer", "viewer")}
    campaign = campaign_create(slug="byo", name="Bring your own", owner=people["owner"])
    add_member(campaign, people["designer"], Role.DESIGNER)
    add_member(campaign, people["viewer"], Role.VIEWER)
    return people, campaign


@pytest.fixture
def counts() -> Callable[[], dict[str, int]]:
    return model_counts


@pytest.fixture
def e2e_folder(tmp_path: Path) -> Path:
    return make_e2e_folder(tmp_path / "e2e")


# The payments: workers of every platform, decided, with bonuses (the bulk files).
@pytest.fixture
def decided() -> Campaign:
    c = judged_campaign(slug="paid", n_workers=0)
    rows = [
        ("prolific", "5f0c1a2b3c4d5e6f7a8b9c0d", "approved", "1.50", {}),
        ("prolific", "60ffe5c8371090c7041d43f8", "rejected", "0", {}),
        ("prolific", '=HYPERLINK("http://x")', "approved", "0.25", {}),
        ("prolific", "6100aaaaaaaaaaaaaaaaaaaa", "", "2", {}),
        ("mturk", "A1B2C3", "approved", "3", {"assignment_id": "3AS1", "hit_id": "3HIT"}),
        ("mturk", "A9Z8", "rejected", "0", {"assignment_id": "3AS2", "hit_id": "3HIT"}),
        ("mturk", "-W3", "rejected", "0", {"assignment_id": "3AS3", "hit_id": "3HIT"}),
        ("mturk", "NOASSIGN", "approved", "0", {}),
        ("mturk", "UNDECIDED", "", "0", {"assignment_id": "3AS4", "hit_id": "3HIT"}),
        ("link", "abc", "approved", "5", {}),
    ]
    for platform, pid, review, bonus, metadata in rows:
        Worker.objects.create(
            campaign=c,
            platform=platform,
            external_id=pid,
            review=review,
            bonus=Decimal(bonus),
            metadata=metadata,
        )
    Worker.objects.filter(external_id="A9Z8").update(
        excluded=True, exclusion_reason='Answered "100" everywhere,\nwithout reading'
    )
    return c


# Crowd versus experts, with an owner, a designer and a viewer (the experts page and API,
# the monitor's experts panel).
@pytest.fixture
def experts_world(db):
    people = users()
    campaign, criterion = experts_campaign()
    for name, role in (("owner", Role.OWNER), ("designer", Role.DESIGNER), ("viewer", Role.VIEWER)):
        CampaignMembership.objects.create(campaign=campaign, user=people[name], role=role)
    return people, campaign, criterion


# Members and invitations: a judged campaign with a designer and a viewer, mail kept in
# memory (the invitations' page and service).
@pytest.fixture
def memberships_world(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_workers=1)
    add_member(campaign, people["designer"], Role.DESIGNER)
    add_member(campaign, people["viewer"], Role.VIEWER)
    return people, campaign
