"""Drop four indexes that composite indexes already cover (each costs every insert of an
import and every claim of a hand-out). Each field's own index is the prefix of another
index:

- assignment.worker_id: (worker_id, state); assignment.task_id: (task_id, state);
- judgement.criterion_id: (criterion_id, submitted_at);
- task.campaign_id: (campaign_id, criterion_id, kind) and task_handout.

Only the indexes go: ``AlterField`` to ``db_index=False`` would make Django drop and
re-add each foreign key (locking the tables) and leave the index in place on
PostgreSQL, so the database side is explicit SQL (the names Django gave them, the same
on SQLite and PostgreSQL).
"""

import django.db.models.deletion
from django.db import migrations, models

INDEXES = [
    ("annotations_assignment_worker_id_0e0fb753", "annotations_assignment", "worker_id"),
    ("annotations_assignment_task_id_e2fdef23", "annotations_assignment", "task_id"),
    ("annotations_judgement_criterion_id_8dc52de7", "annotations_judgement", "criterion_id"),
    ("annotations_task_campaign_id_3e3a1ba9", "annotations_task", "campaign_id"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("annotations", "0008_languages"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    sql=f"DROP INDEX IF EXISTS {name}",
                    reverse_sql=f'CREATE INDEX {name} ON {table} ("{column}")',
                )
                for name, table, column in INDEXES
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="assignment",
                    name="task",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="assignments",
                        to="annotations.task",
                    ),
                ),
                migrations.AlterField(
                    model_name="assignment",
                    name="worker",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="assignments",
                        to="annotations.worker",
                    ),
                ),
                migrations.AlterField(
                    model_name="judgement",
                    name="criterion",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="judgements",
                        to="annotations.criterion",
                    ),
                ),
                migrations.AlterField(
                    model_name="task",
                    name="campaign",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tasks",
                        to="annotations.campaign",
                    ),
                ),
            ],
        ),
    ]
