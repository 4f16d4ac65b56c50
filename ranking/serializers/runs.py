"""REST serializers of ranking runs: a run (create, read) and its result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from annotations.core.slices import MAX_CONDITIONS, too_many_conditions
from common.serializers import KnownFieldsOnly, bounded_number
from ranking import stats
from ranking.models import RankingRun
from ranking.selectors.data_rule import DataRule, ranking_data_rule
from ranking.selectors.runs import CONFIDENCE_RANGE, RUN_DEFAULTS

_EXCLUDED_HELP = (
    "Leave out the judgements of workers marked excluded (on the monitor, or by the quality "
    "checks). Flagged workers are NOT left out: flagging only marks a worker for review. "
    "Default true."
)


def _as_bool(value: Any) -> bool | None:
    """A boolean as DRF reads one, or None when it is not one (the field says so)."""
    try:
        return serializers.BooleanField().to_internal_value(value)
    except serializers.ValidationError:
        return None


@extend_schema_field(
    {
        "type": "boolean",
        "deprecated": True,
        "description": "Deprecated alias of exclude_excluded_workers, kept for old clients: "
        "despite its name it leaves out EXCLUDED workers, not flagged ones. Give one of the "
        "two; giving both with different values is a 400.",
    }
)
class _DeprecatedExcludeFlagged(serializers.BooleanField):
    pass


#: What a client sends to start a run (the run's output shows them too).
RUN_REQUEST_FIELDS = (
    "criterion",
    "method",
    "runs",
    "seed",
    "confidence",
    "exclude_excluded_workers",
    "exclude_flagged",
    "parameters",
    "where",
)
#: What the run's life and result say: shown, never sent.
RUN_STATE_FIELDS = (
    "status",
    "progress",
    "runs_done",
    "heartbeat_at",
    "attempts",
    "error",
    "stability",
    "n_judgements",
    "n_comparisons",
    "fingerprint",
    "inputs",
    "created_at",
    "started_at",
    "finished_at",
    "seconds",
)


class RankingRunSerializer(KnownFieldsOnly, serializers.ModelSerializer):
    campaign = serializers.CharField(source="campaign.slug", read_only=True)
    # The model's column is ``exclude_flagged``; what it does is leave out excluded workers.
    exclude_excluded_workers = serializers.BooleanField(
        source="exclude_flagged", required=False, help_text=_EXCLUDED_HELP
    )
    exclude_flagged = _DeprecatedExcludeFlagged(required=False)
    criterion = serializers.CharField(source="criterion.name")
    runs = serializers.IntegerField(
        min_value=1,
        max_value=settings.RANKING_MAX_RUNS,
        default=RUN_DEFAULTS.runs,
        help_text=f"Runs or bootstrap replicates, 1 to {settings.RANKING_MAX_RUNS:,}.",
    )
    where = serializers.DictField(
        child=serializers.CharField(max_length=200, allow_blank=False),
        required=False,
        help_text="Rank a slice: item attribute (or 'language') -> value, e.g. "
        '{"challenge_set": "scramble"}; every condition must hold (at most '
        f"{MAX_CONDITIONS}). Empty: every item.",
    )
    # the run page's bounds (``CONFIDENCE_RANGE``), refused with the page's messages
    confidence = bounded_number(
        CONFIDENCE_RANGE,
        required=False,
        default=RUN_DEFAULTS.confidence,
        help_text="Level of the rank ranges and of the significance clusters.",
    )
    result_url = serializers.SerializerMethodField()

    class Meta:
        model = RankingRun
        fields = ("id", "campaign", *RUN_REQUEST_FIELDS, *RUN_STATE_FIELDS, "result_url")
        # ``campaign`` and ``result_url`` are read only where they are declared.
        read_only_fields = ("id", *RUN_STATE_FIELDS)
        # The schema says what the service takes (the column is a signed 64-bit integer).
        extra_kwargs = {
            "seed": {
                "min_value": 0,
                "error_messages": {
                    "min_value": "The seed must be a whole number from 0 to 2**63 - 1."
                },
            }
        }

    def to_internal_value(self, data: Any) -> Any:
        # ``exclude_flagged`` is the deprecated name of ``exclude_excluded_workers``: both
        # write one column, so only one of them is validated.
        if isinstance(data, Mapping) and "exclude_flagged" in data:
            data = dict(data.items())
            alias = data.pop("exclude_flagged")
            if "exclude_excluded_workers" not in data:
                data["exclude_excluded_workers"] = alias
            elif _as_bool(alias) != _as_bool(data["exclude_excluded_workers"]):
                raise serializers.ValidationError(
                    {
                        "exclude_flagged": [
                            "exclude_flagged is a deprecated alias of exclude_excluded_workers "
                            "and says the opposite here: give only exclude_excluded_workers."
                        ]
                    }
                )
        # Count the conditions before DictField validates each (a 400 naming the limit).
        where = data.get("where") if isinstance(data, Mapping) else None
        if isinstance(where, Mapping) and len(where) > MAX_CONDITIONS:
            raise serializers.ValidationError({"where": [str(too_many_conditions())]})
        return super().to_internal_value(data)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # The one check of a ranking request (ranking.stats.check_parameters), for the
        # fields given; the service checks the whole request again.
        method = attrs.get("method", RankingRun.Method.WMT14)
        try:
            stats.check_parameters(
                method,
                attrs.get("parameters") or {},
                runs=attrs.get("runs"),
                confidence=attrs.get("confidence"),
                seed=attrs.get("seed"),
            )
        except stats.ParameterError as exc:
            raise serializers.ValidationError({exc.field: [str(exc)]}) from exc
        return attrs

    def get_result_url(self, run: RankingRun) -> str:
        return f"/api/rankings/{run.pk}/result/"

    def _data_rule(self, run: RankingRun) -> DataRule:
        """The run's minimum-data rule: from the context's ``data_rules`` (by run id),
        which a list reads for its page at once, or read for this run alone."""
        rules = self.context.get("data_rules") or {}
        return rules[run.pk] if run.pk in rules else ranking_data_rule(run=run)

    def to_representation(self, instance: RankingRun) -> dict[str, Any]:
        data = super().to_representation(instance)
        stability = data.get("stability")
        # On data the minimum-data rule rejects (three judgements, groups never compared)
        # there are no clusters to check: no verdict, as the page shows none (the check
        # passed there, or failed asking for more runs, which cannot help).
        if (
            isinstance(stability, dict)
            and stability.get("stable") is not None
            and instance.status == RankingRun.Status.DONE
            and not self._data_rule(instance).enough_data
        ):
            data["stability"] = {
                **stability,
                "stable": None,
                "note": "Not judged: the data do not meet the minimum-data rule "
                "(the result's data_rule), so there are no clusters to check.",
            }
        return data


class RankingRowSerializer(serializers.Serializer):
    system = serializers.CharField()
    value = serializers.FloatField()
    spread = serializers.FloatField()
    rank_lo = serializers.IntegerField()
    rank_hi = serializers.IntegerField()
    cluster = serializers.IntegerField(
        allow_null=True,
        help_text="Significance cluster (1 = best); null when the minimum-data rule is not "
        "met (see data_rule).",
    )
    comparisons = serializers.IntegerField()


class SeparationSerializer(serializers.Serializer):
    groups = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    compared = serializers.BooleanField()


class DataRuleSerializer(serializers.Serializer):
    min_comparisons = serializers.IntegerField()
    met = serializers.BooleanField(help_text="Whether clusters and stability can be trusted.")
    problems = serializers.ListField(child=serializers.CharField())
    no_clusters = serializers.CharField(
        help_text="Which part of the rule failed (too few comparisons, or the split-half "
        "check) and what to do; empty when it is met."
    )
    thin = serializers.ListField(
        child=serializers.CharField(),
        help_text="Ranked systems with fewer judgements or comparisons than the minimum "
        "(the page marks their rows with †).",
    )
    separation = SeparationSerializer(
        allow_null=True,
        help_text="When the data leave values unbounded: the ranked systems' groups, highest "
        "first (Bradley-Terry: every comparison between groups went to the higher one), or "
        "groups never compared with each other (compared false); null otherwise.",
    )


class CoverageSerializer(serializers.Serializer):
    runs_kept = serializers.IntegerField()
    runs = serializers.IntegerField()
    coverage = serializers.FloatField()
    confidence_asked = serializers.FloatField()
    text = serializers.CharField()
    meaning = serializers.CharField(
        help_text="What the share kept is, and is not, under the run's method (WMT14's "
        "ranges are no confidence intervals)."
    )


class ProvisionalSerializer(serializers.Serializer):
    system = serializers.CharField()
    comparisons = serializers.IntegerField()
    judgements = serializers.IntegerField(
        required=False,
        help_text="Judgements with a comparison (runs made before judgements were counted "
        "leave it out).",
    )


class CheckCellSerializer(serializers.Serializer):
    ticked = serializers.IntegerField(help_text="Outputs of the system with the check ticked.")
    rate = serializers.FloatField(help_text="ticked / outputs.")
    lo = serializers.FloatField(help_text="Wilson interval, low end.")
    hi = serializers.FloatField(help_text="Wilson interval, high end.")


class CheckRowSerializer(serializers.Serializer):
    system = serializers.CharField()
    outputs = serializers.IntegerField(help_text="The system's outputs judged.")
    cells = CheckCellSerializer(many=True, help_text="One per check, in the order of checks.")


class ContentChecksSerializer(serializers.Serializer):
    checks = serializers.ListField(child=serializers.CharField())
    confidence = serializers.FloatField(help_text="Level of the Wilson intervals.")
    rows = CheckRowSerializer(many=True)


class RankingResultSerializer(serializers.Serializer):
    run = RankingRunSerializer()
    rows = RankingRowSerializer(many=True)
    unranked = serializers.ListField(
        child=serializers.CharField(), help_text="Systems without any comparison."
    )
    provisional = ProvisionalSerializer(
        many=True,
        help_text="Systems with fewer than data_rule.min_comparisons comparisons: left out "
        "of the ranking (the rows are computed without them), listed with their count.",
    )
    data_rule = DataRuleSerializer()
    coverage = CoverageSerializer(
        help_text="The share of the runs the rank ranges actually keep (the trim at each "
        "end rounds up, so 100 runs at 0.95 keep 94%), beside the level asked."
    )
    content_checks = ContentChecksSerializer(
        allow_null=True,
        help_text="Per system, the share of its outputs on which workers ticked each content "
        "check, with a Wilson interval, on the judgements the run ranks (as its page shows); "
        "null when the criterion has no content checks.",
    )
