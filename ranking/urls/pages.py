"""Ranking pages, under /rankings/."""

from django.urls import path

from ranking.views import adaptive as views_adaptive
from ranking.views import means as views_means
from ranking.views import runs as views

app_name = "ranking"

urlpatterns = [
    path("campaign/<slug:slug>/", views.campaign_runs, name="campaign-runs"),
    path("campaign/<slug:slug>/slices/", views.campaign_slices, name="campaign-slices"),
    path(
        "campaign/<slug:slug>/adaptive/",
        views_adaptive.campaign_adaptive,
        name="campaign-adaptive",
    ),
    path("campaign/<slug:slug>/means/", views_means.campaign_means, name="campaign-means"),
    path("campaign/<slug:slug>/power/", views.campaign_power, name="campaign-power"),
    path("compare/", views.run_compare, name="compare"),
    path("<int:pk>/", views.run_detail, name="run"),
    path("<int:pk>/cancel/", views.run_cancel, name="run-cancel"),
    path("<int:pk>/retry/", views.run_retry, name="run-retry"),
    path("<int:pk>/delete/", views.run_delete, name="run-delete"),
    path("<int:pk>/plot.svg", views.run_plot, name="run-plot"),
    path("<int:pk>/export/<str:fmt>/", views.run_export, name="run-export"),
]
