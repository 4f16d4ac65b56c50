"""JSON from a person's file or request: every failure is a clear 400, never a 500.

An integer of more than 4,300 digits makes ``json.loads`` raise a plain ``ValueError``
(Python's guard against quadratic conversion), which the parsers did not catch: three
upload paths answered 500 (an outside review). Each parser now reads JSON through
``common.jsontext.json_loads``.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from common.errors import ImportFileError
from common.jsontext import JsonTextError, json_loads

HUGE = "9" * 5000


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"a": ' + HUGE + "}", "too many digits"),
        ('{"a": 1', "Expecting"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_every_failure_is_a_json_text_error_in_plain_words(text, said):
    with pytest.raises(JsonTextError, match=said) as caught:
        json_loads(text)
    assert "sys." not in str(caught.value)


def test_an_outputs_file_with_a_huge_number_names_the_line(tmp_path):
    from annotations.importing.parsers.generic_jsonl import parse_outputs_jsonl

    path = tmp_path / "x.jsonl"
    good = {"item_id": "1", "input": "i", "system": "s", "output": "o"}
    path.write_text(
        json.dumps(good)
        + '\n{"item_id": '
        + HUGE
        + ', "input": "i", "system": "s", "output": "o"}\n'
    )
    with pytest.raises(ImportFileError, match="too many digits") as caught:
        parse_outputs_jsonl(path)
    assert caught.value.line == 2


def test_a_metric_file_with_a_huge_number_names_the_line():
    from reports.core.metric_files import parse_metric_file

    data = b'{"system": "s", "item": "a", "metric": "bleu", "score": ' + HUGE.encode() + b"}\n"
    with pytest.raises(ImportFileError, match="too many digits") as caught:
        parse_metric_file(data, file="m.jsonl")
    assert (caught.value.file, caught.value.line) == ("m.jsonl", 1)


def test_a_mapped_jsonl_file_with_a_huge_number_names_the_line(tmp_path):
    from annotations.importing.parsers.mapped import parse_mapped
    from annotations.importing.parsers.mapped.mapping import mapping_from_dict

    path = tmp_path / "r.jsonl"
    good = {"w": "1", "i": "x", "s1": "a", "s2": "b", "q1": 1, "q2": 2}
    path.write_text(json.dumps(good) + '\n{"w": "2", "q1": ' + HUGE + "}\n", encoding="utf-8")
    mapping = mapping_from_dict(
        {
            "format": "jsonl",
            "worker": "w",
            "item": "i",
            "slots": 2,
            "system": "s{i}",
            "criteria": [{"name": "q", "score": "q{i}"}],
        }
    )
    with pytest.raises(ImportFileError, match="too many digits") as caught:
        parse_mapped(path, mapping)
    assert caught.value.line == 2


@pytest.mark.django_db
def test_an_api_body_with_a_huge_number_is_a_400_in_plain_words():
    user = get_user_model().objects.create_user("u", password="pw-long-enough-1")
    client = APIClient()
    client.force_authenticate(user)
    response = client.post(
        "/api/campaigns/", data='{"name": ' + HUGE + "}", content_type="application/json"
    )
    assert response.status_code == 400
    assert "too many digits" in response.json()["detail"]
    assert "sys." not in response.content.decode()
