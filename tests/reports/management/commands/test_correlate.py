import csv
import io
import json
import math
from io import StringIO

import numpy as np
import pytest
from django.core.management import CommandError, call_command
from scipy import stats

from annotations.models import JudgementScore
from reports.models import MetricScore
from tests.ranking.planted import planted_campaign

pytestmark = pytest.mark.django_db


def _correlate(*args: str) -> str:
    out = StringIO()
    call_command("correlate", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def _metric_file(tmp_path, campaign):
    """A segment-level metric: the human log score of each output's first judgement plus
    noise, so it correlates with the humans but not perfectly."""
    rng = np.random.default_rng(0)
    lines = ["system,item,metric,score"]
    for output in campaign.items.all().values_list("outputs__pk", flat=True):
        score = JudgementScore.objects.filter(output_id=output).first()
        assert score is not None
        lines.append(
            f"{score.output.system.label},{score.output.item.external_id},noisy,"
            f"{math.log(score.score) + rng.normal(0, 0.2)!r}"
        )
    path = tmp_path / "metrics.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_every_format_agrees_and_matches_scipy(tmp_path):
    campaign, _ = planted_campaign(strengths=[60, 30, 0, -30, -60], n_judgements=25, seed=4, k=4)
    path = _metric_file(tmp_path, campaign)
    base = [campaign.slug, "--criterion", "quality", "--resamples", "200", "--seed", "2"]
    data = json.loads(_correlate(*base, "--metrics", str(path), "--format", "json"))
    (metric,) = data["metrics"]
    assert metric["metric"] == "noisy" and metric["systems"] == 5 and metric["segments"] == 100
    by = {(c["level"], c["method"]): c for c in metric["correlations"]}
    points = metric["points"]
    x = [p["metric"] for p in points]
    y = [p["human"] for p in points]
    assert by[("system", "pearson")]["value"] == round(stats.pearsonr(x, y).statistic, 6)
    assert by[("system", "kendall")]["value"] == round(stats.kendalltau(x, y).statistic, 6)
    for c in by.values():
        assert c["low"] <= c["value"] <= c["high"]
    # Re-running on the stored scores (no --metrics) gives the same report.
    assert json.loads(_correlate(*base, "--format", "json")) == data
    rows = list(csv.DictReader(io.StringIO(_correlate(*base, "--format", "csv"))))
    assert [(r["level"], r["method"]) for r in rows] == list(by)
    assert float(rows[0]["value"]) == pytest.approx(by[("system", "pearson")]["value"], abs=1e-6)
    table = _correlate(*base)
    assert "Kendall tau-like (WMT)" in table and "noisy" in table
    latex = _correlate(*base, "--format", "latex")
    assert r"\toprule" in latex and "noisy &" in latex


def test_latex_and_csv_outputs_are_made_safe(tmp_path):
    campaign, _ = planted_campaign(strengths=[10, 0, -10], n_judgements=6, seed=1, k=3)
    path = tmp_path / "m.csv"
    path.write_text(
        "system,metric,score\ns0,=HYPER_LINK()&_x,1\ns1,=HYPER_LINK()&_x,2\ns2,=HYPER_LINK()&_x,3\n"
    )
    base = [campaign.slug, "--criterion", "quality", "--resamples", "10"]
    assert r"=HYPER\_LINK()\&\_x" in _correlate(*base, "--metrics", str(path), "--format", "latex")
    assert "'=HYPER_LINK()&_x" in _correlate(*base, "--format", "csv")


@pytest.mark.parametrize(
    "args,message",
    [
        (["nope", "--criterion", "quality"], "No campaign with the slug 'nope'"),
        (["{slug}", "--criterion", "fluency"], "has no criterion 'fluency'"),
        (
            ["{slug}", "--criterion", "quality", "--metrics", "{bad}"],
            "bad.csv, line 2, field 'system'",
        ),
        (["{slug}", "--criterion", "quality", "--metrics", "{missing}"], "cannot read the file"),
        (["{slug}", "--criterion", "quality", "--resamples", "0"], "--resamples"),
    ],
)
def test_mistakes_get_clear_errors(tmp_path, args, message):
    campaign, _ = planted_campaign(strengths=[10, 0], n_judgements=3, seed=2, k=2)
    bad = tmp_path / "bad.csv"
    bad.write_text("system,metric,score\nzzz,m,1\n")
    with pytest.raises(CommandError) as error:
        _correlate(
            *[a.format(slug=campaign.slug, bad=bad, missing=tmp_path / "missing.csv") for a in args]
        )
    assert message in str(error.value)
    assert not MetricScore.objects.exists()
