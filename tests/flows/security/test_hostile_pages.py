"""Every page, export and API GET response of a campaign full of hostile strings
(``tests.flows.security.hostile``) carries them as inert data, and none is a 500.

The routes come from ``humaneval.urls`` itself (:func:`routes`): a route whose URL needs
only the campaign's slug is requested automatically; one with other parameters (an id,
a token, a format) needs an entry in :data:`ARGUMENTS`, and the test fails naming it
until it has one. Each response is checked by its content type (``tests.flows.security.inert``):
HTML parsed for hostile elements and attributes, CSV for live formulas, JSON and JSON
Lines for validity, Markdown for raw HTML and links, LaTeX for unescaped specials, SVG
for script and handlers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from annotations.access.workers import worker_token
from tests.flows.security import inert
from tests.flows.security.hostile import (
    INVITATION_TOKEN,
    PAYLOAD,
    HostileWorld,
    carried,
    hostile,
    hostile_world,
)

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Route:
    name: str  # namespaced: "annotations:designer-campaign"
    pattern: str
    arguments: frozenset[str]


def _arguments(entry: URLPattern | URLResolver) -> set[str]:
    return set(getattr(entry.pattern, "converters", {})) | set(entry.pattern.regex.groupindex)


def _walk(
    resolver: URLResolver, prefix: str, namespace: str, arguments: frozenset[str]
) -> Iterator[Route]:
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            if entry.app_name == "admin":
                continue  # the admin's own routes: test_admin_list_pages below
            ns = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            inner = arguments | _arguments(entry)
            yield from _walk(entry, prefix + str(entry.pattern), ns, inner)
        elif isinstance(entry, URLPattern) and entry.name:
            route = prefix + str(entry.pattern)
            yield Route(f"{namespace}{entry.name}", route, arguments | _arguments(entry))


def routes() -> list[Route]:
    """Every named route of ``humaneval.urls`` but the admin's."""
    return list(_walk(get_resolver("humaneval.urls"), "/", "", frozenset()))


W = HostileWorld
Args = Callable[[W], list[dict[str, object]]]

#: route -> the URL arguments to request it with (each dict is one request), for every
#: route that needs more than the campaign's slug
ARGUMENTS: dict[str, Args] = {
    "annotations:designer-import-job": lambda w: [{"pk": w.import_job.pk}],
    "api-job": lambda w: [{"pk": w.import_job.pk}],
    "annotations:designer-criterion": lambda w: [{"pk": c.pk} for c in w.criteria],
    "annotations:designer-criterion-delete": lambda w: [{"pk": w.criteria[1].pk}],
    "annotations:designer-translation": lambda w: [{"tag": "de"}],
    "annotations:designer-worker-mark": lambda w: [{"pk": w.worker.pk}],
    "annotations:designer-member-remove": lambda w: [{"pk": w.member.pk}],
    "annotations:designer-invitation-revoke": lambda w: [{"pk": w.invitation.pk}],
    "annotations:invitation": lambda w: [{"token": INVITATION_TOKEN}],
    "annotations:designer-payments-export": lambda w: [
        {"fmt": f} for f in ("prolific-approve", "prolific-bonus", "mturk-review")
    ],
    "annotations:worker-session": lambda w: [{"token": worker_token(x)} for x in w.workers],
    "annotations:worker-consent": lambda w: [{"token": worker_token(w.worker)}],
    "annotations:worker-submit": lambda w: [
        {"token": worker_token(w.worker), "assignment_id": w.assignment.pk}
    ],
    "annotations:worker-draft": lambda w: [
        {"token": worker_token(w.worker), "assignment_id": w.assignment.pk}
    ],
    "annotations:worker-task-unknown": lambda w: [
        {"token": worker_token(w.worker), "other": "abc"}
    ],
    "api-criterion": lambda w: [{"pk": c.pk} for c in w.criteria],
    "api-member": lambda w: [{"pk": w.member.pk}],
    "api-worker": lambda w: [{"pk": w.worker.pk}],
    "api-worker-release": lambda w: [{"pk": w.worker.pk}],
    "api-ranking": lambda w: [{"pk": w.run.pk}, {"pk": w.failed_run.pk}],
    "api-ranking-cancel": lambda w: [{"pk": w.run.pk}],
    "api-ranking-retry": lambda w: [{"pk": w.failed_run.pk}],
    "api-ranking-result": lambda w: [{"pk": w.run.pk}],
    "api-ranking-export": lambda w: [
        {"pk": w.run.pk, "fmt": f} for f in ("table", "json", "csv", "latex", "markdown")
    ],
    "ranking:run": lambda w: [{"pk": w.run.pk}, {"pk": w.failed_run.pk}],
    "ranking:run-cancel": lambda w: [{"pk": w.run.pk}],
    "ranking:run-retry": lambda w: [{"pk": w.failed_run.pk}],
    "ranking:run-delete": lambda w: [{"pk": w.run.pk}],
    "ranking:run-plot": lambda w: [{"pk": w.run.pk}],
    "ranking:run-export": lambda w: [
        {"pk": w.run.pk, "fmt": f} for f in ("table", "json", "csv", "latex", "markdown")
    ],
    "reports:datasheet-download": lambda w: [{"fmt": f} for f in ("markdown", "latex", "json")],
    # Django's password reset link: a made-up user id and token (the page says it is invalid).
    "password_reset_confirm": lambda w: [{"uidb64": "MQ", "token": "set-password"}],
}

Query = Callable[[W], list[dict[str, object]]]


def _by_criterion(w: W, **extra: object) -> list[dict[str, object]]:
    return [{"criterion": c.name, **extra} for c in w.criteria]


#: route -> query strings to request it with as well (beside none)
QUERIES: dict[str, Query] = {
    "annotations:designer-campaign": lambda w: [{"criterion": w.criteria[0].name}],
    "annotations:designer-monitor": _by_criterion,
    "annotations:designer-experts": _by_criterion,
    "annotations:designer-experts-export": _by_criterion,
    "annotations:designer-criteria": lambda w: [{"preset": "grammar"}],
    "annotations:designer-mapped-import": lambda w: [{"preset": "wmt"}],
    "annotations:designer-plan": lambda w: [{"workers": 10}],
    "annotations:designer-export": lambda w: [
        {"criterion": c.name, "format": f, "where": f"domain={hostile(2)}"}
        for c in w.criteria
        for f in ("csv", "jsonl", "wmt")
    ],
    "annotations:worker-entry": lambda w: [
        {"PROLIFIC_PID": hostile(0, 200), "STUDY_ID": hostile(1), "SESSION_ID": hostile(2)},
        {"assignmentId": "ASSIGNMENT_ID_NOT_AVAILABLE", "hitId": hostile(3)},
        {"lang": hostile(4)},
    ],
    "annotations:worker-preview": lambda w: [
        {"task": w.assignment.task_id, "criterion": c.name} for c in w.criteria
    ],
    "annotations:worker-session": lambda w: [{"lang": "de"}, {"already": "1"}],
    "ranking:campaign-runs": lambda w: [{"criterion": w.criteria[0].name}],
    "ranking:campaign-slices": lambda w: [{"criterion": w.criteria[0].name, "attribute": "domain"}],
    "ranking:campaign-means": lambda w: [*_by_criterion(w), {"format": "csv"}],
    "ranking:campaign-power": lambda w: [{"criterion": w.criteria[0].name, "effect": 0.6}],
    "ranking:campaign-adaptive": _by_criterion,
    "ranking:compare": lambda w: [{"a": w.run.pk, "b": w.failed_run.pk}],
    "reports:metrics": lambda w: [
        {"criterion": c.name, "metric": hostile(0, 100)} for c in w.criteria
    ],
    "api-campaign-rankings": lambda w: [{"criterion": w.criteria[0].name}],
    "api-campaign-ranking-slices": _by_criterion,
    "api-campaign-means": _by_criterion,
    "api-campaign-power": lambda w: [{"criterion": w.criteria[0].name}],
    "api-campaign-adaptive": _by_criterion,
    "api-experts": _by_criterion,
    "api-metric-correlations": _by_criterion,
    "api-export": lambda w: [
        {"criterion": c.name, "fmt": f} for c in w.criteria for f in ("csv", "jsonl", "wmt")
    ],
}


def urls_to_request(world: W) -> tuple[list[str], list[str]]:
    """Every URL to request, and the routes that cannot be requested (no entry in
    :data:`ARGUMENTS`)."""
    urls, missing = [], []
    for route in routes():
        if route.arguments <= {"slug"}:
            argument_sets: list[dict[str, object]] = [{}]
        elif route.name in ARGUMENTS:
            argument_sets = ARGUMENTS[route.name](world)
        else:
            missing.append(f"{route.name} ({route.pattern})")
            continue
        for arguments in argument_sets:
            kwargs = {
                **arguments,
                **({"slug": world.campaign.slug} if "slug" in route.arguments else {}),
            }
            if route.name == "api-not-found":
                base = "/api/no-such-endpoint/"
            else:
                base = reverse(route.name, kwargs=kwargs)
            urls.append(base)
            for query in QUERIES.get(route.name, lambda w: [])(world):
                urls.append(base + "?" + urlencode(query, doseq=True))
    return urls, missing


#: a download's header: a quoted plain name (quotes and backslashes escaped) or RFC 5987's
#: percent-encoded form
DISPOSITION = re.compile(
    r'^(inline|attachment); (filename="([\t \x21\x23-\x5b\x5d-\x7e]|\\["\\])*"'
    r"|filename\*=utf-8''[A-Za-z0-9%._~!$&'()*+,;=:@-]*)$"
)


def _problems(response) -> list[str]:
    if response.status_code >= 500:
        return [f"status {response.status_code}"]
    if response.status_code in (301, 302, 303, 307, 308):
        location = response["Location"]
        return [f"redirect to {location!r}"] if inert._LIVE_SCHEME.match(location) else []
    body = (
        b"".join(response.streaming_content) if response.streaming else response.content
    ).decode("utf-8")
    kind = response.get("Content-Type", "").split(";")[0].strip()
    problems: list[str] = []
    if kind == "text/html":
        problems = inert.html_problems(body) + [f"verbatim {m!r}" for m in carried(body)]
    elif kind == "application/json":
        problems = inert.json_problems(body)
    elif kind == "application/x-ndjson":
        problems = inert.json_problems(body, lines=True)
    elif kind == "text/csv":
        problems = inert.csv_problems(body)
    elif kind == "text/markdown":
        problems = inert.markdown_problems(body)
    elif kind == "application/x-tex":
        problems = inert.latex_problems(body)
    elif kind == "image/svg+xml":
        problems = inert.svg_problems(body)
    elif kind in ("text/plain", "application/vnd.oai.openapi"):
        problems = []  # shown as text (nosniff below)
    else:
        problems = [f"unexpected content type {kind!r}"]
    disposition = response.get("Content-Disposition")
    if disposition is not None and not DISPOSITION.match(disposition):
        problems.append(f"Content-Disposition {disposition!r}")
    if response.get("X-Content-Type-Options") != "nosniff":
        problems.append("no X-Content-Type-Options: nosniff")
    return problems


@pytest.fixture
def world() -> HostileWorld:
    return hostile_world()


def test_every_route_is_covered(world):
    names = {route.name for route in routes()}
    stale = (set(ARGUMENTS) | set(QUERIES)) - names
    assert not stale, f"ARGUMENTS or QUERIES name routes that are gone: {sorted(stale)}"
    _, missing = urls_to_request(world)
    assert not missing, (
        "Routes the hostile-data test cannot request: give each its URL arguments in "
        f"tests/flows/security/test_hostile_pages.py ARGUMENTS: {missing}"
    )


def test_every_page_export_and_api_response_carries_hostile_strings_inertly(world):
    owner, anonymous = Client(), Client()
    owner.force_login(world.owner)
    urls, _missing = urls_to_request(world)
    assert len(urls) > 100
    findings: dict[str, list[str]] = {}
    for url in urls:
        path = url.split("?")[0]
        # Crowd workers' and public pages also as a visitor who is not signed in.
        public = path.startswith(("/w/", "/invitations/", "/accounts/")) or path == "/"
        for client, who in [(owner, "owner"), *([(anonymous, "visitor")] if public else [])]:
            variants: list[dict[str, str]] = [{}, {"HX-Request": "true"}]
            if path.startswith("/api/"):
                variants.append({"Accept": "text/html"})  # DRF's browsable API
            for headers in variants:
                problems = _problems(client.get(url, headers=headers))
                if problems:
                    findings[f"{url[:120]} ({who}, {headers})"] = problems
    assert not findings, "\n".join(f"{url}: {p}" for url, p in findings.items())


SCRIPT_SHOWN = "&lt;script&gt;alert(&quot;xss&quot;)&lt;/script&gt;"
IMG_SHOWN = "&lt;img src=x onerror=alert(1)&gt;"
META_SHOWN = "&lt;meta http-equiv=&quot;refresh&quot;"


def test_the_fixture_reaches_the_pages(world):
    """The checks above only mean something if the hostile strings are on the pages."""
    owner, visitor = Client(), Client()
    owner.force_login(world.owner)
    slug = world.campaign.slug

    def page(client: Client, name: str, *args: object, query: str = "") -> str:
        return client.get(reverse(name, args=args) + query).content.decode()

    assert SCRIPT_SHOWN in page(owner, "ranking:run", world.run.pk)  # a system label
    assert IMG_SHOWN in page(owner, "annotations:designer-monitor", slug)  # worker ids
    # The slice help text lists the attribute values.
    assert META_SHOWN in page(owner, "ranking:campaign-runs", slug)
    assert SCRIPT_SHOWN in page(owner, "reports:metrics", slug)  # metric names
    assert IMG_SHOWN in page(owner, "annotations:designer-members", slug)  # member names
    adaptive = page(owner, "ranking:campaign-adaptive", slug)  # the batch's systems
    assert "Batch" in adaptive and IMG_SHOWN in adaptive, adaptive
    task = page(visitor, "annotations:worker-session", slug, worker_token(world.worker))
    assert 'class="w-task"' in task and SCRIPT_SHOWN in task  # outputs, Likert levels
    # A Prolific worker who is done moves on to Prolific with the code, URL-encoded.
    done = page(visitor, "annotations:worker-session", slug, worker_token(world.workers[1]))
    assert 'href="https://app.prolific.com/' in done and "http-equiv" not in done
    assert "cc=%09%5Cinput%7B" in done and inert.html_problems(done) == []
    stopped = page(visitor, "annotations:worker-session", slug, worker_token(world.stopped_worker))
    # turkSubmitTo came from a crafted link: the form posts to MTurk, not to the link.
    assert 'action="https://www.mturk.com/mturk/externalSubmit"' in stopped, stopped
    datasheet = page(owner, "reports:datasheet", slug)
    assert PAYLOAD.startswith("<script>") and SCRIPT_SHOWN in datasheet


def test_admin_list_pages(world):
    client = Client()
    client.force_login(world.admin)
    findings = {}
    for model in admin.site._registry:
        meta = model._meta
        urls = [reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")]
        first = model._default_manager.order_by("pk").last()
        if first is not None:
            urls.append(
                reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk])
            )
        for url in urls:
            problems = _problems(client.get(url))
            if problems:
                findings[url] = problems
    assert not findings, findings


def test_the_all_criteria_page_carries_hostile_strings_inertly(world):
    """Set-up 1 (every criterion of an item on one page) has its own template."""
    from annotations.models import Campaign, Criterion, Task, Worker

    campaign = world.campaign
    # The Likert and slider tasks of each item form a group (nobody has judged them).
    for task in Task.objects.filter(campaign=campaign, criterion__in=world.criteria[1:]):
        task.group = task.item.position + 1
        task.save(update_fields=["group"])
    Campaign.objects.filter(pk=campaign.pk).update(setup=Campaign.Setup.TOGETHER)
    # The group's lead criterion (the first) must be one of them: quality's tasks are full.
    Criterion.objects.filter(pk=world.criteria[0].pk).update(position=9)
    worker = Worker.objects.create(
        campaign=campaign,
        platform=Worker.Platform.PROLIFIC,
        external_id=hostile(4, 200),
        consented_at=world.worker.consented_at,
    )
    html = Client().get(
        reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)])
    )
    body = html.content.decode()
    assert "together-form" in body, body[-3000:]
    assert _problems(html) == []


def test_a_page_drops_bidi_overrides_but_keeps_the_rest_of_the_text(world):
    owner = Client()
    owner.force_login(world.owner)
    html = owner.get(reverse("ranking:run", args=[world.run.pk])).content.decode()
    assert "\u202e" not in html and "gnp.exe" in html


def test_forms_posted_with_hostile_values_answer_inertly(world):
    """Input a form refuses comes back in its error messages and fields: escaped too."""
    owner = Client()
    owner.force_login(world.owner)
    slug = world.campaign.slug
    value = hostile(2)
    posts = [
        (
            reverse("ranking:campaign-runs", args=[slug]),
            {"criterion": value, "method": value, "runs": value, "where": f"{value}={value}"},
        ),
        (
            reverse("ranking:campaign-runs", args=[slug]),
            {
                "criterion": world.criteria[0].name,
                "method": "wmt14",
                "runs": 20,
                "seed": 1,
                "confidence": 0.95,
                "where": f"domain={value}, nothing={value}",
            },
        ),
        (
            reverse("annotations:designer-criteria", args=[slug]),
            {
                "name": value,
                "question": value,
                "scale": "likert",
                "levels": f"x | {value} | {value}",
            },
        ),
        (
            reverse("annotations:designer-settings", args=[slug]),
            {"name": value, "tasks_per_worker": value},
        ),
        (reverse("annotations:designer-new"), {"name": value, "slug": value}),
        (reverse("annotations:designer-invite", args=[slug]), {"email": value, "role": value}),
        (reverse("reports:metrics", args=[slug]), {"criterion": value}),
        (reverse("ranking:campaign-slices", args=[slug]), {"criterion": value, "attribute": value}),
    ]
    findings = {}
    for url, data in posts:
        for headers in ({}, {"HX-Request": "true"}):
            response = owner.post(url, data, headers=headers)
            problems = _problems(response)
            if problems:
                findings[f"POST {url}"] = problems
    assert not findings, findings


def _command(*args: str) -> str:
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def _json_lines(text: str) -> list[str]:
    return inert.json_problems(text, lines=True)


def _command_file(path: Path, *args: str) -> str:
    _command(*args, "--output", str(path))
    return path.read_text(encoding="utf-8")


def test_command_line_exports_carry_hostile_strings_inertly(world, tmp_path):
    """The CLI prints the same exports (and a terminal obeys escape sequences)."""
    slug = world.campaign.slug
    quality = world.criteria[0].name
    outputs = {
        "correlate csv": (
            inert.csv_problems,
            _command(
                "correlate", slug, "--criterion", quality, "--format", "csv", "--resamples", "20"
            ),
        ),
        "correlate latex": (
            inert.latex_problems,
            _command(
                "correlate", slug, "--criterion", quality, "--format", "latex", "--resamples", "20"
            ),
        ),
        "correlate json": (
            inert.json_problems,
            _command(
                "correlate", slug, "--criterion", quality, "--format", "json", "--resamples", "20"
            ),
        ),
        "datasheet markdown": (inert.markdown_problems, _command("datasheet", slug)),
        "datasheet latex": (
            lambda text: inert.latex_problems(text, table_columns=False),
            _command("datasheet", slug, "--format", "latex"),
        ),
        "means csv": (inert.csv_problems, _command("means", slug, "--csv")),
        **{
            f"export_judgements {fmt}": (
                _json_lines if fmt == "jsonl" else inert.csv_problems,
                _command_file(
                    tmp_path / f"j.{fmt}", "export_judgements", slug, "-c", quality, "-f", fmt
                ),
            )
            for fmt in ("csv", "jsonl", "wmt")
        },
    }
    findings = {name: check(text) for name, (check, text) in outputs.items()}
    assert not any(findings.values()), findings
    assert [name for name, (_c, text) in outputs.items() if not text.strip()] == []
