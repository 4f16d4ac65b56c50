import os
import sys
from importlib import import_module

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "humaneval.settings")
# The production entry point fails closed: a WSGI server (gunicorn, make serve) is a
# production process (humaneval.settings): DEBUG off unless DJANGO_DEBUG says otherwise,
# and never the public development key or a weak one, whatever DEBUG is (the key signs
# worker session tokens: a server on a known key would let anyone forge a session).
# `manage.py runserver` (make run) has configured its settings before it imports this
# module, so it keeps the development defaults.
if not settings.configured:
    os.environ.setdefault("HUMANEVAL_PRODUCTION_PROCESS", "true")
try:
    application = get_wsgi_application()
except ImproperlyConfigured as refused:
    # One line that says what to set, not a traceback through the server's paths.
    sys.stderr.write(f"humaneval: {refused}\n")
    raise SystemExit(3) from None

# Import every page and API view now, when the process starts, not in the first request
# it serves: Django imports the URLconf lazily, and a web process started during a crowd
# launch would otherwise spend its first request (about a second of CPU) importing while
# workers wait. With gunicorn's --preload (make serve) this happens once, before forking.
import_module(settings.ROOT_URLCONF)
