"""No public id alone opens anyone's data: every designer, organizer and API URL, filled
in with the slug and the ids (criterion, worker, run, import job, member, invitation) of
a campaign someone else owns, is refused to a signed-in outsider and to a stranger, for
GET and POST alike. New URLs are covered as they are added: the list is read from the
URL configuration, and a URL with an argument this test cannot fill in fails it.

Worker pages (``/w/...``) are public by design and authenticated by their signed token
(tests/annotations/access/test_workers.py); the invitation link by its secret
token (tests/annotations/views/test_memberships_invitations.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.authtoken.models import Token

from annotations.models import CampaignInvitation, CampaignMembership, ImportJob, Worker
from annotations.selectors.memberships import token_digest
from ranking.models import RankingRun
from tests.annotations.designer_data import add_member, judged_campaign

pytestmark = pytest.mark.django_db

# Public by design, or someone else's: Django's admin and accounts, API docs, the
# catch-all API 404, worker pages, the invitation link (a secret token), the home page.
_PUBLIC = re.compile(
    r"^(admin/|accounts/|api/schema/|api/docs/|api/$|api/auth/token/|\^api/|w/<slug:slug>/"
    r"(?!preview/)|invitations/|$)"
)


def _patterns(resolver: URLResolver | None = None, prefix: str = "") -> Iterator[str]:
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            yield from _patterns(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern)


@pytest.fixture
def someone_elses():
    owner = get_user_model().objects.create(username="owner", email="owner@example.org")
    campaign = judged_campaign(owner=owner, n_workers=1)
    member = get_user_model().objects.create(username="member")
    add_member(campaign, member, CampaignMembership.Role.VIEWER)
    ids = {
        "pk:criteria/": campaign.criteria.get().pk,
        "pk:workers/": Worker.objects.filter(campaign=campaign)[0].pk,
        "pk:rankings/": RankingRun.objects.create(
            campaign=campaign, criterion=campaign.criteria.get()
        ).pk,
        "pk:imports/": ImportJob.objects.create(campaign=campaign, kind="outputs", filename="a").pk,
        "pk:jobs/": ImportJob.objects.create(campaign=campaign, kind="outputs", filename="b").pk,
        "pk:members/": CampaignMembership.objects.get(user=member).pk,
        "pk:invitations/": CampaignInvitation.objects.create(
            campaign=campaign, email="x@example.org", role="owner", token=token_digest("t")
        ).pk,
    }
    values = {
        "slug": campaign.slug,
        "tag": "de",
        "fmt": "csv",
        **{key: str(value) for key, value in ids.items()},
    }
    return campaign, values


def _leaks(response) -> bool:
    """Anything but a refusal (403, 404, 405), a sign-in redirect or an API 401."""
    if response.status_code in (401, 403, 404, 405):
        return False
    return not (response.status_code == 302 and response["Location"].startswith("/accounts/login/"))


def _shows(response, campaign) -> bool:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return campaign.slug.encode() in body or campaign.name.encode() in body


def test_every_url_refuses_an_outsider_and_a_stranger(someone_elses):
    campaign, values = someone_elses
    # Fill each <pk> with the id of the matching kind of object.
    urls = []
    for pattern in _patterns():
        if _PUBLIC.match(pattern):
            continue
        path = pattern
        for name in re.findall(r"<(?:\w+:)?(\w+)>", pattern):
            if name == "pk":
                kind = next(
                    (k[3:] for k in values if k.startswith("pk:") and k[3:] in pattern), None
                )
                assert kind is not None, f"{pattern}: which object's id is <pk>?"
                value = values[f"pk:{kind}"]
            else:
                assert name in values, f"{pattern}: no value for <{name}>"
                value = values[name]
            path = re.sub(rf"<(?:\w+:)?{name}>", value, path, count=1)
        urls.append(("<" in pattern, "/" + path))
    assert len(urls) > 60

    outsider = get_user_model().objects.create(username="outsider", email="o@example.org")
    browser = Client()
    browser.force_login(outsider)
    token = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=outsider).key}")
    stranger = Client()
    leaks = []
    for with_ids, url in urls:
        for who, client in (("outsider", browser), ("token", token), ("stranger", stranger)):
            for method in ("get", "post"):
                response = getattr(client, method)(url)
                # A URL without ids (the user's own lists, a new campaign, their account)
                # answers, but never with the other's campaign in it.
                if _leaks(response) if with_ids else _shows(response, campaign):
                    leaks.append((who, method.upper(), url, response.status_code))
    assert leaks == [], "\n".join(map(str, leaks))
    # The URLs are real: the campaign's own viewer reads most of them.
    member = Client()
    member.force_login(get_user_model().objects.get(username="member"))
    opened = [url for with_ids, url in urls if with_ids and member.get(url).status_code == 200]
    assert len(opened) > 30, opened
    # Nothing of the owner's changed.
    campaign.refresh_from_db()
    assert campaign.name == "Judged campaign"
    assert CampaignInvitation.objects.filter(campaign=campaign).count() == 1
    assert RankingRun.objects.filter(campaign=campaign).count() == 1
