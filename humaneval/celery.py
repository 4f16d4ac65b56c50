"""The Celery application. Tasks are thin interfaces that load by id and call a service."""

import os

import environ
from celery import Celery

from humaneval.startup import PRODUCTION_MARK, settings_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "humaneval.settings")
if environ.Env().bool(PRODUCTION_MARK, default=False):
    # A production process (a Celery worker or beat under systemd or make serve) whose
    # settings refuse says why in one line and exits 3, which its unit does not restart
    # on, instead of a long traceback every two seconds.
    settings_or_exit()

app = Celery("humaneval")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
