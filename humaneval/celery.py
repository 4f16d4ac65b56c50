"""The Celery application. Tasks are thin interfaces that load by id and call a service."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "humaneval.settings")

app = Celery("humaneval")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
