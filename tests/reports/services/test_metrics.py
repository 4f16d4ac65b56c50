import pytest

from common.errors import ImportFileError
from reports.models import MetricScore
from reports.services.metrics import metric_scores_import
from tests.ranking.planted import planted_campaign

pytestmark = pytest.mark.django_db


def _campaign():
    campaign, criterion = planted_campaign(strengths=[30, 0, -30], n_judgements=6, seed=1, k=3)
    return campaign, criterion


def _csv(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def test_csv_and_jsonl_import_segment_and_system_scores():
    campaign, _ = _campaign()
    done = metric_scores_import(
        campaign=campaign,
        data=_csv("system,item,metric,score", "s0,item0,len,3", "s1,item0,len,4", "s0,,len,9"),
        file="m.csv",
    )
    assert done.metrics == [("len", 2, 1)] and done.replaced == 0
    stored = MetricScore.objects.filter(campaign=campaign, metric="len")
    assert stored.filter(output__isnull=True).get().score == 9.0
    assert sorted(stored.filter(output__isnull=False).values_list("score", flat=True)) == [3, 4]
    jsonl = b'{"system": "s2", "metric": "bleu", "score": 0.5}\n\n{"system": "s0", "metric": "bleu", "score": 0.25}\n'
    done = metric_scores_import(campaign=campaign, data=jsonl, file="m.jsonl")
    assert done.metrics == [("bleu", 0, 2)]


def test_reimporting_a_metric_replaces_it_and_leaves_others():
    campaign, _ = _campaign()
    metric_scores_import(
        campaign=campaign,
        data=_csv("system,metric,score", "s0,a,1", "s1,a,2", "s0,b,5"),
        file="x.csv",
    )
    done = metric_scores_import(
        campaign=campaign, data=_csv("system,metric,score", "s2,a,7"), file="y.csv"
    )
    assert done.replaced == 2
    assert list(MetricScore.objects.filter(metric="a").values_list("system__label", "score")) == [
        ("s2", 7.0)
    ]
    assert MetricScore.objects.filter(metric="b").count() == 1


@pytest.mark.parametrize(
    "data,file,line,field,message",
    [
        (
            _csv("system,item,metric,score", "s0,item0,len,3", "nope,item0,len,3"),
            "m.csv",
            3,
            "system",
            "no system 'nope'",
        ),
        (
            _csv("system,item,metric,score", "s0,item999,len,3"),
            "m.csv",
            2,
            "item",
            "no output of system 's0' for item 'item999'",
        ),
        (
            _csv("system,item,metric,score", "s0,item0,len,abc"),
            "m.csv",
            2,
            "score",
            "must be a number",
        ),
        (_csv("system,item,metric,score", "s0,item0,len,nan"), "m.csv", 2, "score", "finite"),
        (
            _csv("system,item,metric,score", "s0,item0,,1"),
            "m.csv",
            2,
            "metric",
            "'metric' is empty",
        ),
        (_csv("system,item,score", "s0,item0,1"), "m.csv", 1, "metric", "no 'metric' column"),
        (
            _csv("system,item,metric,score", "s0,item0,len,1", "s0,item0,len,2"),
            "m.csv",
            3,
            "score",
            "first is on line 2",
        ),
        (
            _csv("system,item,metric,score", "s0,item0,len"),
            "m.csv",
            2,
            "",
            "3 cells where the header has 4",
        ),
        (
            b'{"system": "s0", "metric": "x", "score": 1}\n{"system": "s0", "metric": "x"\n',
            "m.jsonl",
            2,
            "",
            "not valid JSON",
        ),
        (b'{"system": "s0", "metric": "x"}\n', "m.jsonl", 1, "score", "no 'score' key"),
        (
            b'{"system": "s0", "metric": "x", "score": true}\n',
            "m.jsonl",
            1,
            "score",
            "not a number",
        ),
        (b"system,metric,score\n\xff,x,1\n", "m.csv", 2, "", "not UTF-8"),
        (b"", "m.csv", None, "", "empty"),
    ],
)
def test_errors_name_file_line_and_field_and_write_nothing(data, file, line, field, message):
    campaign, _ = _campaign()
    metric_scores_import(
        campaign=campaign, data=_csv("system,metric,score", "s0,len,1"), file="old.csv"
    )
    with pytest.raises(ImportFileError) as error:
        metric_scores_import(campaign=campaign, data=data, file=file)
    assert (error.value.file, error.value.line, error.value.field) == (file, line, field)
    assert message in str(error.value)
    assert str(error.value).startswith(file)
    # Atomic: the earlier import of the same metric is untouched, nothing new is stored.
    assert list(MetricScore.objects.values_list("metric", "score")) == [("len", 1.0)]
