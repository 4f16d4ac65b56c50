from django.urls import include, path

from .views import home

app_name = "annotations"

urlpatterns = [
    path("", home.home, name="home"),
]

# Worker pages (/w/...) and designer pages are added by their own url modules.
try:
    from . import worker_urls

    urlpatterns += [path("w/", include(worker_urls))]
except ImportError:  # pragma: no cover - during the build-up only
    pass
