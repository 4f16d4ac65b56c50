"""Bootstrap runs stored before the ``resample`` parameter drew their replicates over
the judgement patterns (``multinomial``): say so in their parameters, so that a retried
or recomputed run draws exactly as it did (new runs default to ``auto``)."""

from django.db import migrations

BOOTSTRAP_PAIR_METHODS = ("bradley_terry", "expected_wins")


def forwards(apps, schema_editor):
    RankingRun = apps.get_model("ranking", "RankingRun")
    for run in RankingRun.objects.filter(method__in=BOOTSTRAP_PAIR_METHODS).iterator():
        changed = []
        parameters = dict(run.parameters or {})
        if "resample" not in parameters:
            run.parameters = {**parameters, "resample": "patterns"}
            changed.append("parameters")
        used = (run.inputs or {}).get("parameters_used")
        if isinstance(used, dict) and "resample" not in used:
            run.inputs = {**run.inputs, "parameters_used": {**used, "resample": "patterns"}}
            changed.append("inputs")
        if changed:
            run.save(update_fields=changed)


class Migration(migrations.Migration):
    dependencies = [("ranking", "0005_adaptive_batches")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
