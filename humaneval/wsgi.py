import os
from importlib import import_module

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "humaneval.settings")
# The production entry point fails closed: unless DJANGO_DEBUG (environment or .env) says
# otherwise, a WSGI server (gunicorn, make serve) runs with DEBUG off, so it refuses to
# start without a real DJANGO_SECRET_KEY (humaneval.settings). The repository's development
# key is public, and it signs worker session tokens: a server left on it would let anyone
# forge a session. `manage.py runserver` (make run) has configured its settings before it
# imports this module, so it keeps the development default.
if not settings.configured:
    os.environ.setdefault("DJANGO_DEBUG_DEFAULT", "false")

application = get_wsgi_application()

# Import every page and API view now, when the process starts, not in the first request
# it serves: Django imports the URLconf lazily, and a web process started during a crowd
# launch would otherwise spend its first request (about a second of CPU) importing while
# workers wait. With gunicorn's --preload (make serve) this happens once, before forking.
import_module(settings.ROOT_URLCONF)
