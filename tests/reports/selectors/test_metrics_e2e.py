"""Metric-human correlation on the released E2E data (../shared/e2e), with two metrics
computed here from the outputs (no data copied): output length in words and the share of
the MR's slot values that the output contains (a crude word-overlap score)."""

from __future__ import annotations

import math
import re
from collections import defaultdict

import numpy as np
import pytest
from scipy import stats

from annotations.importing.ratings import e2e_import
from annotations.models import JudgementScore, Output
from reports.core.correlation import tau_like
from reports.selectors.metrics import metric_correlations
from reports.services.metrics import metric_scores_import

pytestmark = [pytest.mark.django_db, pytest.mark.e2e_data]

RESAMPLES = 200


def _overlap(mr: str, text: str) -> float:
    values = re.findall(r"\[([^\]]*)\]", mr)
    words = set(re.findall(r"\w+", text.lower()))
    slots = [set(re.findall(r"\w+", v.lower())) for v in values]
    return sum(bool(s) and s <= words for s in slots) / max(len(slots), 1)


def _metric_csv(campaign) -> bytes:
    lines = ["system,item,metric,score"]
    for system, item, mr, text in Output.objects.filter(item__campaign=campaign).values_list(
        "system__label", "item__external_id", "item__input", "text"
    ):
        lines.append(f"{system},{item},length,{len(text.split())}")
        lines.append(f"{system},{item},mr_overlap,{_overlap(mr, text)!r}")
    return ("\n".join(lines) + "\n").encode()


def _human(criterion):
    """Each output's mean log score over every judgement score of the criterion (the E2E
    import has no attention checks, repeats or excluded workers, so all count); sums with
    ``math.fsum`` (correctly rounded, so independent of the row order), as the selector."""
    sums = defaultdict(list)
    for output, score in JudgementScore.objects.filter(
        judgement__criterion=criterion, role="regular"
    ).values_list("output_id", "score"):
        sums[output].append(math.log(max(score, 1.0)))
    return {o: math.fsum(v) / len(v) for o, v in sums.items()}


def test_e2e_correlations_match_scipy_and_intervals_cover(e2e_dir):
    e2e_import(campaign_slug="e2e", folder=e2e_dir)
    from annotations.models import Campaign

    campaign = Campaign.objects.get(slug="e2e")
    done = metric_scores_import(campaign=campaign, data=_metric_csv(campaign), file="e2e.csv")
    assert [name for name, _, _ in done.metrics] == ["length", "mr_overlap"]
    outputs = {
        o.pk: o for o in Output.objects.filter(item__campaign=campaign).select_related("system")
    }
    for name in ("quality", "naturalness"):
        criterion = campaign.criteria.get(name=name)
        report = metric_correlations(
            campaign=campaign,
            criterion=criterion,
            seed=1,
            resamples=RESAMPLES,
        )
        human = _human(criterion)
        judged = sorted(human)
        for m in report.metrics:
            score = (
                (lambda o: len(o.text.split()))
                if m.metric == "length"
                else (lambda o: _overlap(o.item.input, o.text))
            )
            seg_x = np.array([float(score(outputs[o])) for o in judged])
            seg_y = np.array([human[o] for o in judged])
            items = np.array([outputs[o].item_id for o in judged])
            by_system: defaultdict[str, tuple[list[float], list[float]]] = defaultdict(
                lambda: ([], [])
            )
            for o, _x, y in zip(judged, seg_x, seg_y, strict=True):
                by_system[outputs[o].system.label][1].append(y)
            for o in outputs.values():
                by_system[o.system.label][0].append(float(score(o)))
            labels = sorted(by_system)
            sys_x = np.array([math.fsum(by_system[s][0]) / len(by_system[s][0]) for s in labels])
            sys_y = np.array([math.fsum(by_system[s][1]) / len(by_system[s][1]) for s in labels])
            assert m.n_systems == 21 and m.n_segments == len(judged)
            got = {(c.level, c.method): c for c in m.rows}
            expected = {
                ("system", "pearson"): stats.pearsonr(sys_x, sys_y).statistic,
                ("system", "spearman"): stats.spearmanr(sys_x, sys_y).statistic,
                ("system", "kendall"): stats.kendalltau(sys_x, sys_y, variant="b").statistic,
                ("segment", "pearson"): stats.pearsonr(seg_x, seg_y).statistic,
                ("segment", "spearman"): stats.spearmanr(seg_x, seg_y).statistic,
                ("segment", "kendall"): stats.kendalltau(seg_x, seg_y, variant="b").statistic,
            }
            for key, value in expected.items():
                assert got[key].value == value, key
            assert got[("segment", "tau_like")].value == pytest.approx(
                tau_like(seg_x, seg_y, items), abs=1e-15
            )
            for c in m.rows:
                assert c.low <= c.value <= c.high, (name, m.metric, c)
                assert c.valid == RESAMPLES
