"""The ratings import page (annotations/views/mapped.py): presets, previews with and without
JavaScript, errors placed, import and save."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from annotations.importing.mapped import mapped_import
from annotations.importing.mappings import mapping_parse
from annotations.models import Judgement, RatingMapping
from annotations.services.campaigns import campaign_create
from tests.annotations.importing.conftest import rows3, three_slot_mapping, write_csv

pytestmark = pytest.mark.django_db


def _csv(tmp_path: Path, rows: list[list[str]] | None = None) -> bytes:
    return write_csv(tmp_path / "r.csv", rows or rows3()).read_bytes()


# --------------------------------------------------------------------------------------
# The designer page (without JavaScript, and its htmx partial)

URL = "/campaigns/byo/ratings/import/"


def _form(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "format": "csv",
        "worker": "judge",
        "item": "seg",
        "input": "src",
        "slots": "3",
        "first": "1",
        "system": "team{i}",
        "output": "hyp{i}",
        "criteria": "fluency: flu{i}\nadequacy: ade{i}, slider",
    }
    data.update(changes)
    return data


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_page_preset_fills_the_form(people_campaign) -> None:
    people, _ = people_campaign
    page = _client(people["designer"]).get(URL, {"preset": "mturk"})
    assert page.status_code == 200
    html = page.content.decode()
    assert 'value="Input.system{i}"' in html and 'value="WorkerId"' in html
    assert "rating: Answer.rating{i}" in html
    assert _client(people["viewer"]).get(URL).status_code == 403


def test_page_preview_without_js_and_with_htmx(tmp_path: Path, people_campaign) -> None:
    people, _ = people_campaign
    client = _client(people["designer"])
    data = _form(action="preview", file=SimpleUploadedFile("mine.csv", _csv(tmp_path)))
    page = client.post(URL, data)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="mapping-form"' in html and 'id="preview-table"' in html
    assert "A = 1" in html and "B = 2.5" in html
    partial = client.post(
        URL,
        _form(action="preview", file=SimpleUploadedFile("mine.csv", _csv(tmp_path))),
        headers={"HX-Request": "true"},
    )
    html = partial.content.decode()
    assert 'id="preview-table"' in html and 'id="mapping-form"' not in html
    assert html.lstrip().startswith('<section id="mapped-preview"')
    assert not Judgement.objects.exists()


def test_page_preview_error_names_the_place(tmp_path: Path, people_campaign) -> None:
    people, _ = people_campaign

    def preview(*, htmx: bool) -> Any:
        return _client(people["designer"]).post(
            URL,
            _form(
                action="preview",
                item="segment",
                file=SimpleUploadedFile("mine.csv", _csv(tmp_path)),
            ),
            headers={"HX-Request": "true"} if htmx else {},
        )

    # A page without JavaScript says 400; htmx swaps in only 2xx answers, so the panel
    # with the error comes with 200 (with a 400 the designer saw nothing).
    assert preview(htmx=False).status_code == 400
    page = preview(htmx=True)
    assert page.status_code == 200
    html = page.content.decode()
    assert html.lstrip().startswith('<section id="mapped-preview" class="panel panel-error"')
    assert "<code>mine.csv</code>" in html and "<code>segment</code>" in html
    assert "Columns of the file" in html and '<code class="chip">seg</code>' in html


def test_page_import_and_save(tmp_path: Path, people_campaign) -> None:
    people, campaign = people_campaign
    client = _client(people["designer"])
    response = client.post(
        URL, _form(action="import", file=SimpleUploadedFile("mine.csv", _csv(tmp_path)))
    )
    assert response.status_code == 302 and response["Location"].endswith("/monitor/")
    assert Judgement.objects.filter(criterion__campaign=campaign).count() == 4
    assert campaign.criteria.get(name="adequacy").scale == "slider"
    response = client.post(URL, _form(action="save", save_as="my-study"))
    assert response.status_code == 302 and response["Location"].endswith("?preset=my-study")
    saved = RatingMapping.objects.get(campaign=campaign, name="my-study")
    assert saved.mapping["criteria"][1] == {
        "name": "adequacy",
        "score": "ade{i}",
        "ranks": False,
        "scale": "slider",
    }
    page = client.get(URL, {"preset": "my-study"}).content.decode()
    assert "adequacy: ade{i}, slider" in page


def test_page_refusals(people_campaign) -> None:
    people, _ = people_campaign
    client = _client(people["designer"])
    page = client.post(URL, _form(action="preview"))
    assert page.status_code == 400 and "Choose the file" in page.content.decode()
    page = client.post(URL, _form(action="preview", criteria="fluency"))
    assert page.status_code == 400 and "name: score pattern" in page.content.decode()
    page = client.post(URL, _form(action="save", save_as="wmt"))
    assert page.status_code == 400 and "built-in" in page.content.decode()


def test_page_import_message_names_what_was_imported(tmp_path: Path, people_campaign) -> None:
    people, _ = people_campaign
    client = _client(people["designer"])
    client.post(URL, _form(action="import", file=SimpleUploadedFile("mine.csv", _csv(tmp_path))))
    said = [str(m) for m in client.get("/campaigns/byo/monitor/").context["messages"]]
    assert any(
        m.startswith("Imported 4 judgements from 2 rows of mine.csv (fluency, adequacy):")
        for m in said
    ), said


def test_page_too_large_a_file_is_a_413_and_a_large_one_a_job(
    tmp_path: Path, people_campaign, settings
) -> None:
    people, campaign = people_campaign
    client = _client(people["designer"])
    data = _csv(tmp_path)
    settings.IMPORT_UPLOAD_MAX_BYTES = len(data) - 1
    page = client.post(URL, _form(action="preview", file=SimpleUploadedFile("mine.csv", data)))
    assert page.status_code == 413 and "mine.csv" in page.content.decode()
    settings.IMPORT_UPLOAD_MAX_BYTES = len(data)
    settings.IMPORT_INLINE_MAX_BYTES = len(data) - 1
    response = client.post(URL, _form(action="import", file=SimpleUploadedFile("mine.csv", data)))
    job = campaign.import_jobs.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/{job.pk}/")
    assert not Judgement.objects.exists()


def test_page_preview_lists_every_missing_column(tmp_path: Path, people_campaign) -> None:
    """Three columns the mapping reads are absent: the preview names all three at once
    (it used to name the first and leave the designer to find the others one by one)."""
    people, _ = people_campaign
    rows = rows3()
    for old in ("judge", "ade2", "flu3"):
        rows[0][rows[0].index(old)] = old.upper()
    for htmx in (False, True):
        page = _client(people["designer"]).post(
            URL,
            _form(action="preview", file=SimpleUploadedFile("mine.csv", _csv(tmp_path, rows))),
            headers={"HX-Request": "true"} if htmx else {},
        )
        html = page.content.decode()
        assert page.status_code == (200 if htmx else 400)
        assert 'id="missing-columns"' in html and "Missing from the file (3)" in html
        for column in ("judge", "ade2", "flu3"):
            assert f'<code class="chip">{column}</code>' in html


def _preset_names() -> list[str]:
    from annotations.importing.parsers.presets import PRESETS

    return sorted(PRESETS)


@pytest.mark.parametrize("preset", _preset_names())
def test_page_form_keeps_every_setting_of_a_preset(people_campaign, preset: str) -> None:
    """The form shows a preset's new settings (definition, JSON metadata, header-less
    columns, rank/checks/coverage patterns) and posts them back unchanged, for every
    preset: the form dropped the wmt preset's ``one_value``, so a file of two language
    pairs imported through the page merged them as the preset alone no longer did."""
    from annotations.forms.mapped import MappingForm
    from annotations.importing.parsers.presets import preset_dict

    people, _ = people_campaign
    html = _client(people["designer"]).get(URL, {"preset": preset}).content.decode()
    mapping = preset_dict(preset)
    if preset == "humaneval-csv":
        assert 'value="_criterion"' in html and 'value="_metadata"' in html
        assert "rank=rank{i}, checks=content_checks{i}, coverage=check{i}" in html
    initial = MappingForm.initial_from(mapping)
    form = MappingForm({k: v for k, v in initial.items() if v is not None})
    assert form.is_valid(), form.errors
    assert mapping_parse(form.mapping_dict()).to_dict() == mapping


def test_page_imports_a_humaneval_csv_export_of_any_criterion(
    tmp_path: Path, people_campaign
) -> None:
    """An informativeness export (no E2E preset) re-imports through the web form."""
    from annotations.exports.judgements import export_lines
    from annotations.forms.mapped import MappingForm
    from annotations.importing.parsers.presets import preset_dict
    from annotations.services.criteria import criterion_from_preset

    people, campaign = people_campaign
    source = campaign_create(slug="source", name="Source", owner=people["owner"])
    informativeness = criterion_from_preset(campaign=source, preset="informativeness")
    mapped_import(
        campaign=source,
        path=write_csv(tmp_path / "r.csv", rows3()),
        mapping=mapping_parse(
            three_slot_mapping(criteria=[{"name": "informativeness", "score": "flu{i}"}])
        ),
    )
    exported = "".join(export_lines(criterion=informativeness, fmt="csv")).encode()
    data = {
        k: v
        for k, v in MappingForm.initial_from(preset_dict("humaneval-csv")).items()
        if v is not None
    }
    data |= {"action": "import", "file": SimpleUploadedFile("informativeness.csv", exported)}
    page = _client(people["designer"]).post(URL, data)
    assert page.status_code == 302, page.content.decode()[-1500:]
    criterion = campaign.criteria.get(name="informativeness")
    assert criterion.scale == "magnitude" and criterion.content_checks == [
        "added",
        "missing",
        "perfect",
    ]
    assert criterion.question == informativeness.question
    assert Judgement.objects.filter(criterion=criterion).count() == 2


def test_page_wmt_preset_refuses_two_language_pairs_and_reads_judgeID(
    tmp_path: Path, people_campaign
) -> None:
    """Through the page (the preset fills the form, the form is posted), as through the API:
    two language pairs are refused at the second's first row, and WMT15's ``judgeID``
    is read."""
    from annotations.forms.mapped import MappingForm
    from annotations.importing.parsers.presets import preset_dict

    people, campaign = people_campaign
    header = ["srclang", "trglang", "segmentId", "judgeID"]
    header += [f"system{i}{c}" for i in (1, 2) for c in ("Id", "rank")]
    rows = [
        header,
        ["deu", "eng", "1", "j1", "online-B", "1", "uedin", "2"],
        ["ces", "eng", "1", "j2", "online-B", "1", "uedin", "2"],
    ]
    data = {k: v for k, v in MappingForm.initial_from(preset_dict("wmt")).items() if v is not None}
    assert data["one_value"] == "srclang, trglang" and data["aliases"] == "judgeId = judgeID"
    client = _client(people["designer"])
    two = write_csv(tmp_path / "two.csv", rows).read_bytes()
    page = client.post(URL, data | {"action": "import", "file": SimpleUploadedFile("two.csv", two)})
    html = page.content.decode()
    assert page.status_code == 400 and "more than one srclang" in html
    assert Judgement.objects.filter(criterion__campaign=campaign).count() == 0
    one = write_csv(tmp_path / "one.csv", rows[:2]).read_bytes()
    page = client.post(URL, data | {"action": "import", "file": SimpleUploadedFile("one.csv", one)})
    assert page.status_code == 302, page.content.decode()[-1500:]
    assert list(
        Judgement.objects.filter(criterion__campaign=campaign).values_list(
            "assignment__worker__external_id", flat=True
        )
    ) == ["j1"]


def test_page_aliases_written_wrong_are_refused_beside_the_field(people_campaign) -> None:
    from annotations.forms.mapped import MappingForm

    form = MappingForm(_form(aliases="judgeId judgeID"))
    assert not form.is_valid() and "is not name = value(s)" in str(form.errors["aliases"])


def test_page_rows_to_leave_out_gather_a_repeated_column_and_the_preview_says_so(
    tmp_path: Path, people_campaign
) -> None:
    """ "status = Rejected; status = Pending" kept only Pending; and the page's preview
    never showed the rows left out (the API's did)."""
    from annotations.forms.mapped import MappingForm

    form = MappingForm(_form(skip_rows="status = Rejected; status = Pending"))
    form.is_valid()
    assert form.cleaned_data["skip_rows"] == {"status": ["Rejected", "Pending"]}
    people, _ = people_campaign
    rows = [
        ["judge", "seg", "src", "team1", "hyp1", "flu1", "status"],
        ["w1", "s1", "x", "A", "a", "3", "Rejected"],
        ["w1", "s2", "y", "A", "b", "4", "ok"],
    ]
    data = _form(
        slots="1", criteria="fluency: flu{i}", skip_rows="status = Rejected", action="preview"
    )
    data["file"] = SimpleUploadedFile("r.csv", _csv(tmp_path, rows))
    html = _client(people["designer"]).post(URL, data).content.decode()
    assert (
        "data-left-out" in html
        and "1 row where <code>status</code> is <code>Rejected</code>" in html
    )
