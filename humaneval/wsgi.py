import os
from importlib import import_module

from django.conf import settings
from django.core.wsgi import get_wsgi_application

from humaneval.startup import server_settings_or_exit
from humaneval.warm import web_process_warm

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "humaneval.settings")
# The production entry point fails closed: a WSGI server (gunicorn, make serve) is a
# production process (humaneval.settings) whatever its environment says: DEBUG off unless
# DJANGO_DEBUG says otherwise, and never a public, weak or guessable key (the key signs
# worker session tokens: a server on a known key would let anyone forge a session).
# Django's runserver (make run) keeps the development defaults; a server whose settings
# were loaded before this module without the mark is refused (humaneval.startup).
server_settings_or_exit()
application = get_wsgi_application()

# Import every page and API view now, when the process starts, not in the first request
# it serves: Django imports the URLconf lazily, and a web process started during a crowd
# launch would otherwise spend its first request (about a second of CPU) importing while
# workers wait. With gunicorn's --preload (make serve) this happens once, before forking.
import_module(settings.ROOT_URLCONF)
# ... and what the pages build on first use (URL tables, templates, catalogues), for the
# same reason (humaneval.warm).
web_process_warm()
