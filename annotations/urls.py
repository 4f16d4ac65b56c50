from django.urls import include, path

from . import designer_urls, worker_urls
from .views import home

app_name = "annotations"

urlpatterns = [
    path("", home.home, name="home"),
    path("w/", include(worker_urls)),
    path("", include(designer_urls)),
]
