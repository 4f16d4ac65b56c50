"""The Celery application. Tasks are thin interfaces that load by id and call a service."""

import os
import sys
from pathlib import Path

from celery import Celery

from humaneval.startup import production_mark_given, settings_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "humaneval.settings")
_program = Path(sys.argv[0]) if sys.argv and sys.argv[0] else Path()
_celery = _program.name == "celery" or _program.parts[-2:] == ("celery", "__main__.py")
if production_mark_given() or _celery:
    # A production process, or a Celery worker or beat: settings that refuse say why in
    # one line and exit 3 (which the systemd units do not restart on), instead of a long
    # traceback every two seconds.
    settings_or_exit()

app = Celery("humaneval")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
