import os
from importlib import import_module

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "humaneval.settings")

application = get_wsgi_application()

# Import every page and API view now, when the process starts, not in the first request
# it serves: Django imports the URLconf lazily, and a web process started during a crowd
# launch would otherwise spend its first request (about a second of CPU) importing while
# workers wait. With gunicorn's --preload (make serve) this happens once, before forking.
import_module(settings.ROOT_URLCONF)
