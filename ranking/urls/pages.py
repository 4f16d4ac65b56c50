"""Ranking pages, under /rankings/."""

from django.urls import path

from ranking.views import adaptive, means, power, runs, slices

app_name = "ranking"

urlpatterns = [
    path("campaign/<slug:slug>/", runs.campaign_runs, name="campaign-runs"),
    path("campaign/<slug:slug>/slices/", slices.campaign_slices, name="campaign-slices"),
    path(
        "campaign/<slug:slug>/adaptive/",
        adaptive.campaign_adaptive,
        name="campaign-adaptive",
    ),
    path("campaign/<slug:slug>/means/", means.campaign_means, name="campaign-means"),
    path("campaign/<slug:slug>/power/", power.campaign_power, name="campaign-power"),
    path("compare/", runs.run_compare, name="compare"),
    path("<id:pk>/", runs.run_detail, name="run"),
    path("<id:pk>/cancel/", runs.run_cancel, name="run-cancel"),
    path("<id:pk>/retry/", runs.run_retry, name="run-retry"),
    path("<id:pk>/delete/", runs.run_delete, name="run-delete"),
    path("<id:pk>/plot.svg", runs.run_plot, name="run-plot"),
    path("<id:pk>/export/<str:fmt>/", runs.run_export, name="run-export"),
]
