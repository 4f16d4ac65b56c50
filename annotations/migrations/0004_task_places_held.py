"""Task.places_held (a hand-out hint) with its index, and an index of active assignments'
expiry times. The counter is filled from the existing assignments (derived data only)."""

from django.db import migrations, models
from django.db.models import Count, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce


def count_places_held(apps, schema_editor):
    Task = apps.get_model("annotations", "Task")
    Assignment = apps.get_model("annotations", "Assignment")
    held = (
        Assignment.objects.filter(
            task=OuterRef("pk"), kind="regular", state__in=["active", "submitted"]
        )
        .order_by()
        .values("task")
        .annotate(n=Count("pk"))
        .values("n")
    )
    Task.objects.update(places_held=Coalesce(Subquery(held), Value(0)))


class Migration(migrations.Migration):
    dependencies = [
        ("annotations", "0003_rankme_lifecycle_imports"),
    ]

    operations = [
        migrations.AddField(
            model_name="task",
            name="places_held",
            field=models.PositiveIntegerField(
                default=0,
                help_text="Regular assignments active (even overdue) or submitted: a hand-out "
                "hint kept by annotations.services.assignment; places are counted again under "
                "a lock.",
            ),
        ),
        migrations.RunPython(count_places_held, migrations.RunPython.noop, elidable=True),
        migrations.AddIndex(
            model_name="assignment",
            index=models.Index(
                condition=models.Q(("state", "active")),
                fields=["expires_at"],
                name="assignment_active_expiry",
            ),
        ),
        migrations.AddIndex(
            model_name="task",
            index=models.Index(
                fields=["campaign", "kind", "places_held", "id"], name="task_handout"
            ),
        ),
    ]
