"""REST serializer of a background job (an import or a task build)."""

from __future__ import annotations

from rest_framework import serializers


class ImportJobSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(help_text="outputs, ratings, build, ...")
    status = serializers.CharField(help_text="pending, running, done or failed")
    rows_done = serializers.IntegerField()
    rows_total = serializers.IntegerField()
    error = serializers.CharField(allow_blank=True, help_text="Why it failed, naming the file.")
    summary = serializers.DictField(
        help_text="What it did once done (counts, notes), or where it stopped (file, line, "
        "field, reason)."
    )
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    page = serializers.CharField(help_text="The job's progress page.")
