from django.urls import path

from . import views

app_name = "annotations"

urlpatterns = [
    path("", views.home, name="home"),
]
