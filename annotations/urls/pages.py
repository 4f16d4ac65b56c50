from django.urls import include, path

from annotations.urls import designer as designer_urls
from annotations.urls import worker as worker_urls
from annotations.views import home

app_name = "annotations"

urlpatterns = [
    path("", home.home, name="home"),
    path("w/", include(worker_urls)),
    path("", include(designer_urls)),
]
