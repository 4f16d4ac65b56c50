"""REST serializers of payments."""

from __future__ import annotations

from rest_framework import serializers

from annotations.serializers.workers import WorkerSerializer


class PaymentRowSerializer(serializers.Serializer):
    """One worker on the payments page: the quality checks' suggestion and the decision."""

    worker = WorkerSerializer()
    pages = serializers.IntegerField()
    counted_pages = serializers.IntegerField()
    attention_pages = serializers.IntegerField()
    repeat_pages = serializers.IntegerField()
    tasks_done = serializers.IntegerField()
    attention_checks = serializers.IntegerField()
    attention_passed = serializers.IntegerField()
    checks = serializers.IntegerField()
    checks_failed = serializers.IntegerField()
    failed_kinds = serializers.ListField(child=serializers.CharField())
    suggestion = serializers.CharField()
    reason = serializers.CharField()
    decision = serializers.CharField(source="worker.review", help_text="'' while undecided.")
    bonus = serializers.DecimalField(source="worker.bonus", max_digits=8, decimal_places=2)
