"""One access check for every page and API: the user's role in a campaign is read once per
request (one membership query, however many facts the page shows), and nothing outside
``annotations.access`` asks for it on its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotations.access.campaigns import (
    CRITERION_NOT_FOUND,
    campaign_access,
    campaign_require,
    criterion_or_404,
    request_campaign,
)
from annotations.models import CampaignMembership
from tests.annotations.designer_data import judged_world
from tests.factories import CampaignFactory, CriterionFactory
from tests.source_text import modules_containing

Role = CampaignMembership.Role
REPO = Path(__file__).resolve().parents[3]
MEMBERSHIP_READ = 'FROM "annotations_campaignmembership"'


@pytest.fixture
def world(db):
    return judged_world()


def _membership_reads(queries: list[dict[str, str]]) -> list[str]:
    return [q["sql"] for q in queries if MEMBERSHIP_READ in q["sql"]]


def _pages(campaign, run) -> list[str]:
    slug = [campaign.slug]
    return [
        reverse("ranking:campaign-runs", args=slug),
        reverse("ranking:campaign-means", args=slug),
        reverse("ranking:campaign-slices", args=slug),
        reverse("ranking:campaign-adaptive", args=slug),
        reverse("ranking:run", args=[run.pk]),
        reverse("ranking:run-delete", args=[run.pk]),
        reverse("reports:metrics", args=slug),
        reverse("reports:datasheet", args=slug),
        reverse("annotations:designer-settings", args=slug),
        reverse("annotations:designer-languages", args=slug),
        reverse("annotations:designer-members", args=slug),
    ]


@pytest.mark.parametrize("who", ["designer", "viewer"])
@pytest.mark.parametrize("page", range(11))
def test_a_campaign_page_reads_the_users_membership_once(client, world, who, page) -> None:
    people, campaign, run = world
    url = _pages(campaign, run)[page]
    client.force_login(people[who])
    client.get(url)  # warm the caches (sessions, content types) out of the count
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    # A viewer is refused the page that deletes a run (a 403), after the same one read.
    assert response.status_code == (403 if who == "viewer" and "delete" in url else 200), url
    reads = _membership_reads(queries.captured_queries)
    # The members page lists the members: one read more, not the role again.
    expected = 2 if "members" in url else 1
    assert len(reads) == expected, (url, reads)


def test_a_page_shows_the_role_it_read(client, world) -> None:
    people, campaign, _run = world
    client.force_login(people["viewer"])
    response = client.get(reverse("reports:metrics", args=[campaign.slug]))
    assert response.context["role"] == Role.VIEWER
    assert response.context["can_design"] is False and response.context["is_owner"] is False
    client.force_login(people["designer"])
    response = client.get(reverse("ranking:campaign-means", args=[campaign.slug]))
    assert response.context["role"] == Role.DESIGNER and response.context["can_design"] is True
    assert response.context["role_label"] == "Editor"


def test_the_role_is_kept_on_the_request_and_checked_from_it(world) -> None:
    people, campaign, _run = world
    request = RequestFactory().get("/")
    request.user = people["viewer"]
    with CaptureQueriesContext(connection) as queries:
        found = request_campaign(request, campaign.slug, Role.VIEWER)
        access = campaign_access(request, found)
        assert campaign_access(request, found) is access
        with pytest.raises(PermissionDenied, match="Viewers may not"):
            campaign_require(request, found, Role.DESIGNER, denied="Viewers may not.")
    assert access.role == Role.VIEWER and not access.can_design and access.label == "Viewer"
    assert len(_membership_reads(queries.captured_queries)) == 1


def test_each_user_and_campaign_has_its_own_access(world) -> None:
    people, campaign, _run = world
    request = RequestFactory().get("/")
    request.user = people["outsider"]
    assert campaign_access(request, campaign).role is None
    with pytest.raises(Http404):
        request_campaign(request, campaign.slug, Role.VIEWER)
    request.user = people["owner"]  # another user on the same request is asked again
    owner = campaign_access(request, campaign)
    assert owner.role == Role.OWNER and owner.is_owner and owner.can_design


# Nothing outside annotations/access asks for a role on its own -------------------------------

# The checks that take a user and read the membership each time they are called.
PER_CALL = {"role_of", "has_role", "campaign_check"}


def _source_files() -> list[Path]:
    roots = ("annotations", "ranking", "reports", "common", "humaneval")
    access = REPO / "annotations" / "access"
    return sorted(
        path
        for root in roots
        for path in (REPO / root).rglob("*.py")
        if access not in path.parents and "migrations" not in path.parts
    )


def _per_call_uses(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Name):
            name = node.id
        elif isinstance(node, ast.Attribute):
            name = node.attr
        elif isinstance(node, ast.alias):
            name = node.name
        if name in PER_CALL:
            shown = path.relative_to(REPO) if REPO in path.parents else path.name
            found.append(f"{shown}:{getattr(node, 'lineno', '?')}: {name}")
    return found


def test_no_module_outside_access_reads_a_role_on_its_own() -> None:
    files = _source_files()
    assert any(p.match("ranking/views/runs.py") for p in files)
    uses = [use for path in files for use in _per_call_uses(path)]
    assert uses == [], "use annotations.access.pages or .apis (campaign_access):\n" + "\n".join(
        uses
    )


def test_the_source_check_finds_a_direct_call(tmp_path: Path) -> None:
    module = tmp_path / "view.py"
    module.write_text(
        "from annotations.access import campaigns as access\n"
        "from annotations.access.campaigns import role_of\n"
        "def page(request, campaign):\n"
        "    return access.has_role(request.user, campaign, 'designer')\n"
    )
    assert _per_call_uses(module) == ["view.py:2: role_of", "view.py:4: has_role"]


@pytest.mark.parametrize(
    ("interface", "module"),
    [("views", "annotations.access.pages"), ("apis", "annotations.access.apis")],
)
def test_ranking_and_reports_reach_access_through_one_module_per_interface(
    interface: str, module: str
) -> None:
    # Pages through the page decorator and context, APIs through the API's base class.
    strays = []
    for app in ("ranking", "reports"):
        for path in sorted((REPO / app / interface).glob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    "annotations.access"
                ):
                    if node.module != module:
                        strays.append(f"{path.relative_to(REPO)}: {node.module}")
                elif isinstance(node, ast.Import):
                    strays += [
                        f"{path.relative_to(REPO)}: {a.name}"
                        for a in node.names
                        if a.name.startswith("annotations.access")
                    ]
    assert strays == []


@pytest.mark.django_db
def test_criterion_or_404_finds_no_other_campaigns_criterion():
    campaign = CampaignFactory()
    own, foreign = CriterionFactory(campaign=campaign), CriterionFactory()
    assert criterion_or_404(campaign, own.pk) == own
    with pytest.raises(Http404, match=CRITERION_NOT_FOUND):
        criterion_or_404(campaign, foreign.pk)


@pytest.mark.django_db
def test_a_criterion_in_the_path_is_a_404_and_one_in_the_query_a_400(client, experts_world):
    """The path names a resource (not found: 404); a query parameter is input (bad: 400)."""
    people, campaign, criterion = experts_world
    client.force_login(people["designer"])
    foreign = CriterionFactory()  # another campaign's
    page = reverse("annotations:designer-criterion", args=[campaign.slug, foreign.pk])
    assert client.get(page).status_code == 404
    api = client.get(f"/api/campaigns/{campaign.slug}/criteria/{foreign.pk}/")
    assert api.status_code == 404 and api.json()["detail"] == CRITERION_NOT_FOUND
    export = reverse("annotations:designer-export", args=[campaign.slug])
    response = client.get(export + "?criterion=nope")
    assert response.status_code == 400
    # The site's page with the reason and a way back (was a line of plain text).
    html = response.content.decode()
    assert f"<p>Campaign &#x27;{campaign.slug}&#x27; has no criterion &#x27;nope&#x27;.</p>" in html
    back = reverse("annotations:designer-campaign", args=[campaign.slug])
    assert f'href="{back}#h-export"' in html
    # Without a criterion: the campaign's only one (its criteria named when several).
    assert client.get(export).status_code == 200
    assert client.get(export + f"?criterion={criterion.name}").status_code == 200


def test_the_missing_criterion_404_is_worded_in_one_place():
    wording = "No such criterion in this campaign."
    writers = modules_containing(wording)
    assert writers == ["annotations/access/campaigns.py"]
