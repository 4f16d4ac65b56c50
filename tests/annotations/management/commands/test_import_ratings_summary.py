"""What the ``import_ratings`` command says of a release: the aggregate worker, texts
differing, the scale it would infer."""

from __future__ import annotations

import json

import pytest

from annotations.models import Judgement
from tests.annotations.importing.conftest import write_csv
from tests.annotations.importing.releases import FLUENCY, ROWS

pytestmark = pytest.mark.django_db


def test_the_summary_says_when_judgements_were_given_the_aggregate_worker(tmp_path, capsys):
    from django.core.management import call_command

    mapping_file = tmp_path / "m.json"
    mapping_file.write_text(json.dumps({**FLUENCY, "worker": ""}), encoding="utf-8")
    call_command(
        "import_ratings",
        str(write_csv(tmp_path / "a.csv", ROWS[:2])),
        mapping=str(mapping_file),
        campaign="agg",
    )
    out = capsys.readouterr().out
    assert "'aggregate'" in out and "no worker column" in out


# 8. 'texts differing' explained; 9. the page's k ----------------------------------------


def test_the_summary_explains_texts_differing(tmp_path, capsys):
    from django.core.management import call_command

    mapping_file = tmp_path / "m.json"
    mapping_file.write_text(json.dumps(FLUENCY), encoding="utf-8")
    call_command(
        "import_ratings",
        str(write_csv(tmp_path / "a.csv", ROWS)),
        mapping=str(mapping_file),
        campaign="texts",
    )
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "texts differing" in x)
    assert "1 (" in line and "stored text" in line


def test_the_preview_says_which_scale_would_be_inferred_and_from_what(tmp_path, capsys):
    from django.contrib.auth.models import User
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from django.test import Client

    from annotations.services.campaigns import campaign_create

    rows = [
        ["worker", "item", "system", "answer", "fluent"],
        ["w1", "1", "A", "0", "3"],
        ["w2", "1", "A", "1", "4"],
    ]
    path = write_csv(tmp_path / "q.csv", rows)
    owner = User.objects.create(username="owner")
    campaign_create(slug="prev", name="Preview", owner=owner)
    client = Client()
    client.force_login(owner)
    data = {
        "format": "csv",
        "worker": "worker",
        "item": "item",
        "slots": "1",
        "first": "1",
        "system": "system",
        "criteria": "yesno: answer\nfluency: fluent",
        "action": "preview",
        "file": SimpleUploadedFile("q.csv", path.read_bytes()),
    }
    html = client.post("/campaigns/prev/ratings/import/", data).content.decode()
    assert 'id="preview-scales"' in html
    assert "yesno: new, likert (levels 0, 1) inferred from the 2 rows shown" in html
    assert "fluency: new, likert (levels 1, 2, 3, 4, 5) from the criterion preset" in html

    mapping_file = tmp_path / "m.json"
    mapping = {**FLUENCY, "output": "", "criteria": [{"name": "yesno", "score": "answer"}]}
    mapping_file.write_text(json.dumps(mapping), encoding="utf-8")
    call_command("import_ratings", str(path), mapping=str(mapping_file), campaign="prev", preview=5)
    assert "scale of yesno: new, likert (levels 0, 1) inferred" in capsys.readouterr().out
    assert not Judgement.objects.exists()
